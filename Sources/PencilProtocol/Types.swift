/// The protocol's value types (protocol.md, "Types"). JSON names are the contract.

public enum ToolType: String, Sendable, CaseIterable {
    case pen, eraser, brush, pencil, airbrush, mouse, lens
}

public enum AxisName: String, Sendable, CaseIterable {
    case pressure, distance, tilt, rotation, slider, wheel
}

/// A barrel button, by its protocol name.
public enum PenButton: String, Sendable, CaseIterable {
    case stylus, stylus2, stylus3
}

/// The barrel buttons held at once.
public struct ButtonSet: OptionSet, Sendable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ button: PenButton) { self.init(rawValue: Self.bit(button)) }
    public static let stylus = ButtonSet(rawValue: 1)
    public static let stylus2 = ButtonSet(rawValue: 2)
    public static let stylus3 = ButtonSet(rawValue: 4)
    private static func bit(_ button: PenButton) -> UInt8 {
        switch button {
        case .stylus: return 1
        case .stylus2: return 2
        case .stylus3: return 4
        }
    }
    public func contains(_ button: PenButton) -> Bool { contains(ButtonSet(button)) }
    /// The held buttons in protocol order.
    public var buttons: [PenButton] { PenButton.allCases.filter { contains($0) } }
}

public struct Tool: Equatable, Hashable, Sendable {
    public var type: ToolType
    public var serial: Int64
    public var id: Int64
    public init(type: ToolType, serial: Int64 = 0, id: Int64 = 0) {
        self.type = type
        self.serial = serial
        self.id = id
    }
    /// gestures.md: "the same tool" means the same type and serial.
    public func isSameTool(as other: Tool) -> Bool { type == other.type && serial == other.serial }
}

/// Where the pen is and how it is held, normalised (gestures.md, "Pose").
public struct Pose: Equatable, Sendable {
    public var x: Double = 0
    public var y: Double = 0
    public var xMillimeters: Double?
    public var yMillimeters: Double?
    public var pressure: Double = 0
    public var zOffset: Double?
    public var tiltX: Double?
    public var tiltY: Double?
    public var azimuth: Double?
    public var altitude: Double?
    public var roll: Double?
    public var slider: Double?
    public var wheel: Double?
    public init() {}
}

/// A pen device as clients see it (protocol.md "Device").
public struct DeviceInfo: Equatable, Sendable {
    public var id: String
    public var name: String
    public var bus: Int
    public var vendor: Int
    public var product: Int
    public var direct: Bool
    public var widthMillimeters: Double?
    public var heightMillimeters: Double?
    public var tools: [ToolType]
    public var axes: [AxisName]
    public var buttons: [PenButton]

    public init(id: String, name: String, bus: Int, vendor: Int, product: Int, direct: Bool,
                widthMillimeters: Double? = nil, heightMillimeters: Double? = nil,
                tools: [ToolType] = [], axes: [AxisName] = [], buttons: [PenButton] = []) {
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
    }
}

public enum EventType: String, Sendable, CaseIterable {
    case deviceAdded, deviceRemoved
    case proximityIn, proximityOut
    case tipDown, tipUp
    case motion
    case hover
    case buttonDown, buttonUp
    case doubleTap
    case squeeze
    case preferencesChanged
}

public enum Phase: String, Sendable, CaseIterable {
    case began, changed, ended, cancelled
}

/// Apple's UIPencilPreferredAction, by name.
public enum PreferredAction: String, Sendable, CaseIterable {
    case ignore, switchEraser, switchPrevious, showColorPalette, showInkAttributes, showContextualPalette, runSystemShortcut
}

/// Which app acts on a gesture (protocol.md, "Which app acts (focus)"), as seen by the stream
/// that receives it: its process holds the user's focus, another process does, or nobody.
public enum Focus: String, Sendable, CaseIterable {
    case this, other, none
}

/// One event of the protocol (protocol.md "Event"). Fields a type does not carry are nil.
public struct Event: Equatable, Sendable {
    public var type: EventType
    /// Microseconds: the frame's timestamp, or a timer's deadline.
    public var time: Int64
    public var device: String?
    public var deviceInfo: DeviceInfo?
    public var tool: Tool?
    public var pose: Pose?
    public var button: PenButton?
    public var phase: Phase?
    public var action: PreferredAction?
    /// doubleTap and squeeze: who acts. The recogniser writes `none`; the daemon rewrites it
    /// for each receiving stream.
    public var focus: Focus?
    public var preferences: Preferences?

    public init(type: EventType, time: Int64, device: String? = nil, deviceInfo: DeviceInfo? = nil,
                tool: Tool? = nil, pose: Pose? = nil, button: PenButton? = nil, phase: Phase? = nil,
                action: PreferredAction? = nil, focus: Focus? = nil, preferences: Preferences? = nil) {
        self.type = type
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
