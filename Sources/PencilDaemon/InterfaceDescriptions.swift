import Foundation

/// The interface descriptions served by GetInterfaceDescription.
public enum InterfaceDescriptions {
    public static let serviceInterface = "org.varlink.service"
    public static let penInterface = "org.pencild.Pen"

    /// org.varlink.service as the varlink specification defines it.
    public static let service = """
    # The interface every varlink service provides: what the service is and which interfaces
    # it implements.
    interface org.varlink.service

    # The service's vendor, product, version and url, and its interfaces.
    method GetInfo() -> (
      vendor: string,
      product: string,
      version: string,
      url: string,
      interfaces: []string
    )

    # The description of one of the service's interfaces.
    method GetInterfaceDescription(interface: string) -> (description: string)

    # The service has no such interface.
    error InterfaceNotFound (interface: string)

    # The interface has no such method.
    error MethodNotFound (method: string)

    # The interface has the method but this service does not implement it.
    error MethodNotImplemented (method: string)

    # A parameter is missing or wrong.
    error InvalidParameter (parameter: string)

    # The caller may not use this service.
    error PermissionDenied ()

    # The method streams replies and must be called with "more": true.
    error ExpectedMore ()

    """

    /// Where the org.pencild.Pen description may be, in order: the package's resource bundle,
    /// then the installed copies.
    public static func penDescriptionCandidates(executablePath: String = CommandLine.arguments.first ?? "") -> [String] {
        var candidates: [String] = []
        let fileName = "org.pencild.Pen.varlink"
        if let url = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() {
            candidates.append(url.appendingPathComponent("pencild_PencilDaemon.resources/\(fileName)").path)
        }
        candidates.append(contentsOf: ["/usr/share/pencild/\(fileName)", "/usr/local/share/pencild/\(fileName)"])
        // Tests and tools that link the library find the bundle beside their own binary.
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix("pencild_PencilDaemon.resources") }) {
            candidates.append(bundle.bundlePath + "/\(fileName)")
        }
        return candidates
    }

    /// The org.pencild.Pen description, read from the first candidate that exists.
    public static func loadPenDescription() throws(ConfigurationError) -> String {
        let candidates = penDescriptionCandidates()
        for path in candidates {
            if let text = try? String(contentsOfFile: path, encoding: .utf8) { return text }
        }
        throw ConfigurationError("cannot find org.pencild.Pen.varlink (looked in \(candidates.joined(separator: ", ")))")
    }
}
