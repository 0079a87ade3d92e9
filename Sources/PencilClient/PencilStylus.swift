import PencilProtocol

/// Which pen a tool is, as libwacom names it: on `proximityIn` only, when libwacom knows the
/// tool's id. The name is untrusted text (whatever answers on the socket sent it): show it
/// escaped (`escapedForTerminal`), never interpret it.
public struct PencilStylus: Hashable, Sendable {
    /// libwacom's name, such as "Pro Pen 2": untrusted text.
    public var name: String
    public var kind: PencilStylusKind
    /// Its barrel buttons.
    public var buttons: Int
    public var eraser: PencilEraserKind

    public init(name: String, kind: PencilStylusKind, buttons: Int, eraser: PencilEraserKind) {
        self.name = name
        self.kind = kind
        self.buttons = buttons
        self.eraser = eraser
    }
}
