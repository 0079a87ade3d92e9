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

/// The daemon's event, tool, stylus and device: its closed enums (`DaemonNames`), the same
/// values a client library reads into its open ones (PenValues.swift).
public typealias Event = EventOf<DaemonNames>
public typealias Tool = ToolOf<DaemonNames>
public typealias Stylus = StylusOf<DaemonNames>
public typealias DeviceInfo = DeviceOf<DaemonNames>
