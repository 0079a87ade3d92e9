import PencilProtocol

/// What libwacom knows of a device: the tablet's name, and the styli it supports by tool id.
/// Looked up by the owner of the device (the daemon, `pencilctl`) and handed to the pure core
/// as data, so that the core reads no database.
public struct PenIdentity: Equatable, Sendable {
    /// The tablet's name in libwacom ("Wacom Cintiq 22HD touch"); nil when unknown.
    public var model: String?
    /// The styli of the tablet, by the id the device reports in ABS_MISC. Never holds id 0 or
    /// a generic stylus (libwacom's fallbacks): those tools are not known.
    public var styli: [Int64: Stylus]
    /// The tool id of each pen's eraser end, by the pen's tool id (libwacom's pairs): what a
    /// mirror reports when it switches the pen to its eraser.
    public var eraserIDs: [Int64: Int64]

    public init(model: String? = nil, styli: [Int64: Stylus] = [:], eraserIDs: [Int64: Int64] = [:]) {
        self.model = model
        self.styli = styli
        self.eraserIDs = eraserIDs
    }

    /// Nothing is known: the device as evdev describes it.
    public static let unknown = PenIdentity()

    /// The stylus a tool is, when its id is known.
    public func stylus(for tool: Tool) -> Stylus? {
        tool.id == 0 ? nil : styli[tool.id]
    }

    /// docs/gestures.md, "An eraser that is a button": the tablet's pens have an eraser that the
    /// firmware reports as the eraser tool while a button is held.
    public var eraserIsButton: Bool {
        styli.values.contains { $0.eraser == .button }
    }
}
