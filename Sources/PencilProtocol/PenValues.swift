/// The values of the protocol that carry names (docs/protocol.md, "Types"): an event, and the
/// tool, stylus and device it carries. Written once for both sides, over the enumerations each
/// side reads names into: the daemon's own, closed (`DaemonNames`: `Event`, `Tool`, `Stylus`,
/// `DeviceInfo`), and a client library's, which keep a name a newer daemon adds (PencilClient's
/// `ClientNames`: `PencilEvent`, `PencilTool`, `PencilStylus`, `PencilDevice`).
public protocol NameSet: Sendable {
    associatedtype EventTypeName: KnownName<EventType>, RawRepresentable<String>
    associatedtype ToolName: KnownName<ToolType>, RawRepresentable<String>
    associatedtype StylusKindName: Hashable, Sendable, RawRepresentable<String>
    associatedtype EraserKindName: Hashable, Sendable, RawRepresentable<String>
    associatedtype AxisName: Hashable, Sendable, RawRepresentable<String>
    associatedtype ButtonName: KnownName<PenButton>, RawRepresentable<String>
    associatedtype PhaseName: KnownName<Phase>, RawRepresentable<String>
    associatedtype ActionName: KnownName<PreferredAction>, RawRepresentable<String>
    associatedtype FocusName: KnownName<Focus>, RawRepresentable<String>
    /// The user's preferences, as `preferencesChanged` carries them.
    associatedtype PreferencesValue: Equatable, Sendable

    /// Reads the preferences of a `preferencesChanged` event (EventReading.swift).
    static func preferences(json: JSONValue) throws(EventDecodingError) -> PreferencesValue
}

/// The daemon's names: the closed enums generated from the interface (Names.swift).
public enum DaemonNames: NameSet {
    public typealias EventTypeName = EventType
    public typealias ToolName = ToolType
    public typealias StylusKindName = StylusKind
    public typealias EraserKindName = EraserKind
    public typealias AxisName = PencilProtocol.AxisName
    public typealias ButtonName = PenButton
    public typealias PhaseName = Phase
    public typealias ActionName = PreferredAction
    public typealias FocusName = Focus
    public typealias PreferencesValue = Preferences

    /// Strictly, as SetPreferences reads them: a field it does not know is an error.
    public static func preferences(json: JSONValue) throws(EventDecodingError) -> Preferences {
        do { return try Preferences.defaults.merging(json) } catch { throw EventDecodingError(reason: "bad preferences: \(error)") }
    }
}

/// A tool in or near a device's range. `serial` and `id` are 0 when the device does not tell
/// them. The same tool means the same type and serial (docs/gestures.md).
public struct ToolOf<Names: NameSet>: Hashable, Sendable {
    public var type: Names.ToolName
    public var serial: Int64
    public var id: Int64

    @inlinable
    public init(type: Names.ToolName, serial: Int64 = 0, id: Int64 = 0) {
        self.type = type
        self.serial = serial
        self.id = id
    }

    /// True when `other` is the same physical tool (type and serial).
    @inlinable
    public func isSameTool(as other: Self) -> Bool { type == other.type && serial == other.serial }

    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.type == rhs.type && lhs.serial == rhs.serial && lhs.id == rhs.id
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(serial)
        hasher.combine(id)
    }
}

/// Which pen a tool is, as libwacom names it (docs/protocol.md, "Stylus"): carried by
/// `proximityIn` only, and only for a tool whose id libwacom knows. In a client the name is
/// untrusted text (whatever answers on the socket sent it): show it escaped, never interpret it.
public struct StylusOf<Names: NameSet>: Hashable, Sendable {
    /// libwacom's name, such as "Pro Pen 2".
    public var name: String
    public var kind: Names.StylusKindName
    /// Its barrel buttons.
    public var buttons: Int
    public var eraser: Names.EraserKindName

    public init(name: String, kind: Names.StylusKindName, buttons: Int, eraser: Names.EraserKindName) {
        self.name = name
        self.kind = kind
        self.buttons = buttons
        self.eraser = eraser
    }
}

/// A pen device (docs/protocol.md, "Device").
///
/// In a client its strings are untrusted text: the device names itself (any USB or uinput
/// device can hold terminal escapes, newlines or bidirectional controls in its name), and
/// whatever answers on the socket writes the rest. Show them escaped (`escapedForTerminal`, or
/// as your toolkit needs), and never hand them to a shell.
public struct DeviceOf<Names: NameSet>: Equatable, Sendable {
    /// Stable while the device is attached: the kernel's name (`event7`) or `replay0`.
    public var id: String
    /// The kernel's name for the device, as the device gave it.
    public var name: String
    public var bus: Int
    public var vendor: Int
    public var product: Int
    /// A display tablet (the pen draws on the screen).
    public var direct: Bool
    public var widthMillimeters: Double?
    public var heightMillimeters: Double?
    public var tools: [Names.ToolName]
    public var axes: [Names.AxisName]
    public var buttons: [Names.ButtonName]
    /// The tablet's name in libwacom ("Wacom Intuos Pro M"); nil when libwacom does not know it.
    public var model: String?
    /// The styli that have come into proximity since the device was attached, in the order
    /// they first came (ListDevices; empty in deviceAdded).
    public var styli: [StylusOf<Names>]
    /// The kernel name of the mirror apps read while the pen's gesture clicks are withheld
    /// (docs/gestures.md, "The mirror"); nil while the pen is not grabbed.
    public var mirror: String?
    /// While there is a mirror: the tool its tip is reported as (`eraser` while pencild has
    /// switched the pen, else the tip's own); nil without a mirror.
    public var tipReportedAs: Names.ToolName?

    public init(id: String, name: String, bus: Int = 0, vendor: Int = 0, product: Int = 0, direct: Bool = false,
                widthMillimeters: Double? = nil, heightMillimeters: Double? = nil,
                tools: [Names.ToolName] = [], axes: [Names.AxisName] = [], buttons: [Names.ButtonName] = [],
                model: String? = nil, styli: [StylusOf<Names>] = [], mirror: String? = nil) {
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
