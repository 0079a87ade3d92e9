/// The daemon's interface descriptions: `pen`, the text of org.pencild.Pen, is generated from
/// the interface file (PenInterfaceDescription.swift). org.varlink.service's is Varlink's own
/// (`VarlinkService`).
public enum InterfaceDescriptions {}
