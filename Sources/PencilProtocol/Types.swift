/// The protocol's value types (docs/protocol.md, "Types"). JSON names are the contract; the enums
/// of names are generated from the interface (Names.swift).

/// The barrel buttons held at once.
public struct ButtonSet: OptionSet, Sendable, Hashable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ button: PenButton) { self.init(rawValue: Self.bit(button)) }
    public static let stylus = ButtonSet(rawValue: 1)
    public static let stylus2 = ButtonSet(rawValue: 2)
    public static let stylus3 = ButtonSet(rawValue: 4)
    public static let eraser = ButtonSet(rawValue: 8)
    private static func bit(_ button: PenButton) -> UInt8 {
        switch button {
        case .stylus: return 1
        case .stylus2: return 2
        case .stylus3: return 4
        case .eraser: return 8
        }
    }
    public func contains(_ button: PenButton) -> Bool { contains(ButtonSet(button)) }
    /// The held buttons in protocol order.
    public var buttons: [PenButton] { PenButton.allCases.filter { contains($0) } }
}

/// Where the pen is and how it is held, normalised (docs/gestures.md, "Pose").
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

/// The daemon's tool, stylus and device: its closed enums (`DaemonNames`), the same values
/// a client library reads into its open ones (PenValues.swift).
public typealias Tool = ToolOf<DaemonNames>
public typealias Stylus = StylusOf<DaemonNames>
public typealias DeviceInfo = DeviceOf<DaemonNames>

/// One event of the protocol (docs/protocol.md "Event"). Fields a type does not carry are nil.
///
/// The large fields only a few events carry (deviceAdded's deviceInfo, preferencesChanged's
/// preferences, proximityIn's stylus) are kept out of line, in one shared immutable box, so
/// that the pen events the pipeline copies from stage to stage stay small.
public struct Event: Equatable, Sendable {
    public var type: EventType
    /// Microseconds: the frame's timestamp, or a timer's deadline.
    public var time: Int64
    public var device: String?
    public var tool: Tool?
    public var pose: Pose?
    public var button: PenButton?
    public var phase: Phase?
    public var action: PreferredAction?
    /// doubleTap and squeeze: who acts. The recogniser writes `none`; the daemon rewrites it
    /// for each receiving stream.
    public var focus: Focus?
    private var rare: RareFields?

    public var deviceInfo: DeviceInfo? {
        get { rare?.deviceInfo }
        set { rare = RareFields.make(deviceInfo: newValue, preferences: preferences, stylus: stylus) }
    }

    public var preferences: Preferences? {
        get { rare?.preferences }
        set { rare = RareFields.make(deviceInfo: deviceInfo, preferences: newValue, stylus: stylus) }
    }

    /// proximityIn: which pen the tool is, when libwacom knows its id.
    public var stylus: Stylus? {
        get { rare?.stylus }
        set { rare = RareFields.make(deviceInfo: deviceInfo, preferences: preferences, stylus: newValue) }
    }

    public init(type: EventType, time: Int64, device: String? = nil, deviceInfo: DeviceInfo? = nil,
                tool: Tool? = nil, pose: Pose? = nil, button: PenButton? = nil, phase: Phase? = nil,
                action: PreferredAction? = nil, focus: Focus? = nil, preferences: Preferences? = nil) {
        self.type = type
        self.time = time
        self.device = device
        self.tool = tool
        self.pose = pose
        self.button = button
        self.phase = phase
        self.action = action
        self.focus = focus
        self.rare = RareFields.make(deviceInfo: deviceInfo, preferences: preferences, stylus: nil)
    }

    /// A proximityIn: with the tool's stylus when libwacom knows it (kept apart from the
    /// initialiser every pen event takes, which stays as small as it was).
    public static func proximityIn(time: Int64, device: String, tool: Tool, pose: Pose, stylus: Stylus?) -> Event {
        var event = Event(type: .proximityIn, time: time, device: device, tool: tool, pose: pose)
        if let stylus { event.stylus = stylus }
        return event
    }

    public static func == (lhs: Event, rhs: Event) -> Bool {
        lhs.type == rhs.type && lhs.time == rhs.time && lhs.device == rhs.device && lhs.tool == rhs.tool
            && lhs.pose == rhs.pose && lhs.button == rhs.button && lhs.phase == rhs.phase && lhs.action == rhs.action
            && lhs.focus == rhs.focus && lhs.deviceInfo == rhs.deviceInfo && lhs.preferences == rhs.preferences
            && lhs.stylus == rhs.stylus
    }

    /// Never changed once made: a copied event shares it, and setting a field makes a new one.
    private final class RareFields: Sendable {
        let deviceInfo: DeviceInfo?
        let preferences: Preferences?
        let stylus: Stylus?

        private init(deviceInfo: DeviceInfo?, preferences: Preferences?, stylus: Stylus?) {
            self.deviceInfo = deviceInfo
            self.preferences = preferences
            self.stylus = stylus
        }

        static func make(deviceInfo: DeviceInfo?, preferences: Preferences?, stylus: Stylus?) -> RareFields? {
            deviceInfo == nil && preferences == nil && stylus == nil
                ? nil : RareFields(deviceInfo: deviceInfo, preferences: preferences, stylus: stylus)
        }
    }
}
