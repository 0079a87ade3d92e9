import PencilProtocol

/// Where the tool is and how it is held: the protocol's `Pose` (x and y from 0 to 1 with the
/// origin top-left, pressure from 0 to 1, tilt in degrees, azimuth, altitude and roll in
/// radians; optional fields are nil when the device does not report them).
public typealias PencilPose = Pose

/// A tool in or near a device's range. `serial` and `id` are 0 when the device does not
/// tell them. The same tool means the same type and serial.
public struct PencilTool: Hashable, Sendable {
    public var type: PencilToolType
    public var serial: Int64
    public var id: Int64

    public init(type: PencilToolType, serial: Int64 = 0, id: Int64 = 0) {
        self.type = type
        self.serial = serial
        self.id = id
    }

    /// True when `other` is the same physical tool (type and serial).
    public func isSameTool(as other: PencilTool) -> Bool { type == other.type && serial == other.serial }
}

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

/// One event (docs/protocol.md "Event"). The fields a type does not carry are nil.
public struct PencilEvent: Equatable, Sendable {
    public var type: PencilEventType
    /// Microseconds: the frame's timestamp (CLOCK_MONOTONIC for live devices, the recorded
    /// time in a replay), or a timer's deadline.
    public var time: Int64
    /// The device's id: untrusted text (see `PencilDevice`).
    public var device: String?
    /// With `deviceAdded`.
    public var deviceInfo: PencilDevice?
    public var tool: PencilTool?
    /// With `proximityIn`: which pen the tool is, when libwacom knows it.
    public var stylus: PencilStylus?
    public var pose: PencilPose?
    public var button: PencilButton?
    /// With `hover` and `squeeze`.
    public var phase: PencilPhase?
    /// With `doubleTap` and a `squeeze` that ended.
    public var action: PencilAction?
    /// With `doubleTap` and `squeeze`: who holds the user's focus. Nil from a pencild that
    /// does not send it yet.
    public var focus: PencilFocus?
    /// With `preferencesChanged`.
    public var preferences: PencilPreferences?
    /// True for a closing event this library made up because the connection to pencild
    /// ended with it open (docs/protocol.md, "When pencild goes away"); the wire has no such
    /// field.
    public var isSynthesized = false

    public init(type: PencilEventType, time: Int64, device: String? = nil, deviceInfo: PencilDevice? = nil,
                tool: PencilTool? = nil, pose: PencilPose? = nil, button: PencilButton? = nil,
                phase: PencilPhase? = nil, action: PencilAction? = nil, focus: PencilFocus? = nil,
                preferences: PencilPreferences? = nil, stylus: PencilStylus? = nil) {
        self.type = type
        self.stylus = stylus
        self.time = time
        self.device = device
        self.deviceInfo = deviceInfo
        self.tool = tool
        self.pose = pose
        self.button = button
        self.phase = phase
        self.action = action
        self.focus = focus
        self.preferences = preferences
    }
}
