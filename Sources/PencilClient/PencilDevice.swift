import PencilProtocol

/// A pen device (docs/protocol.md "Device").
///
/// Its strings are untrusted text: the device names itself (any USB or uinput device can hold
/// terminal escapes, newlines or bidirectional controls in its name), and whatever answers on
/// the socket writes the rest. Show them through `escapedForTerminal` (or escape them as your
/// toolkit needs), and never hand them to a shell.
public struct PencilDevice: Equatable, Sendable {
    /// Stable while the device is attached: the kernel's name (`event7`) or `replay0`. Untrusted
    /// text, as `name` is.
    public var id: String
    /// The kernel's name for the device, as the device gave it: untrusted text.
    public var name: String
    public var bus: Int
    public var vendor: Int
    public var product: Int
    /// A display tablet (the pen draws on the screen).
    public var direct: Bool
    public var widthMillimeters: Double?
    public var heightMillimeters: Double?
    public var tools: [PencilToolType]
    public var axes: [PencilAxis]
    public var buttons: [PencilButton]
    /// The tablet's name in libwacom ("Wacom Intuos Pro M"); nil when libwacom does not know it.
    /// Untrusted text, as `name` is.
    public var model: String?
    /// From `listDevices`: the styli that have come into proximity since the device was attached.
    public var styli: [PencilStylus]
    /// The kernel name of the mirror that apps read while the pen's gesture clicks are withheld
    /// (`withholdGestureClicks`); nil while the pen is not grabbed.
    public var mirror: String?
    /// While there is a mirror: the tool the pen's tip is reported as to apps (`.eraser` after a
    /// double-tap pencild performed); nil without a mirror.
    public var tipReportedAs: PencilToolType?

    public init(id: String, name: String, bus: Int = 0, vendor: Int = 0, product: Int = 0, direct: Bool = false,
                widthMillimeters: Double? = nil, heightMillimeters: Double? = nil,
                tools: [PencilToolType] = [], axes: [PencilAxis] = [], buttons: [PencilButton] = [],
                model: String? = nil, styli: [PencilStylus] = [], mirror: String? = nil) {
        self.id = id
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.direct = direct
        self.widthMillimeters = widthMillimeters
        self.heightMillimeters = heightMillimeters
        self.tools = tools
        self.axes = axes
        self.buttons = buttons
        self.model = model
        self.styli = styli
        self.mirror = mirror
    }
}
