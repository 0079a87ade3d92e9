import PencilProtocol

/// Which pen a tool is, as libwacom names it: on `proximityIn` only, when libwacom knows the
/// tool's id (`StylusOf` in PencilProtocol, over this library's open names). The name is
/// untrusted text (whatever answers on the socket sent it): show it escaped
/// (`escapedForTerminal`), never interpret it.
public typealias PencilStylus = StylusOf<ClientNames>
