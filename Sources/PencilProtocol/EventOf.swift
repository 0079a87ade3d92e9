/// One event of the protocol (docs/protocol.md "Event"), over the daemon's names (`Event`) or
/// a client's (`PencilEvent`). Fields a type does not carry are nil.
///
/// Its names are stored as the daemon's enums (KnownName.swift says why). The large fields
/// only a few events carry (deviceAdded's deviceInfo, preferencesChanged's preferences,
/// proximityIn's stylus, and the text of a name a client does not know) are kept out of line,
/// in one shared immutable box, so that the pen events the pipeline copies from stage to stage
/// stay small.
public struct EventOf<Names: NameSet>: Equatable, Sendable {
    /// Microseconds: the frame's timestamp (CLOCK_MONOTONIC for live devices, the recorded
    /// time in a replay), or a timer's deadline.
    public var time: Int64
    /// The device's id; in a client, untrusted text (see `DeviceOf`).
    public var device: String?
    public var pose: Pose?
    /// True for a closing event a client library made up because the connection to pencild
    /// ended with it open (docs/protocol.md, "When pencild goes away"); the wire has no such
    /// field, and the daemon never sets it.
    public var isSynthesized = false
    @usableFromInline var knownType: EventType
    @usableFromInline var knownTool: KnownTool?
    @usableFromInline var knownButton: PenButton?
    @usableFromInline var knownPhase: Phase?
    @usableFromInline var knownAction: PreferredAction?
    @usableFromInline var knownFocus: Focus?
    @usableFromInline var rare: RareFields?

    public var type: Names.EventTypeName {
        @inlinable get { Names.EventTypeName(known: knownType, unknown: rare?.unknown?[.type]) }
        @inlinable set { knownType = newValue.known; remember(newValue.unknown, .type) }
    }

    public var tool: ToolOf<Names>? {
        @inlinable get {
            knownTool.map { ToolOf(type: Names.ToolName(known: $0.type, unknown: rare?.unknown?[.tool]), serial: $0.serial, id: $0.id) }
        }
        @inlinable set {
            knownTool = newValue.map { KnownTool(type: $0.type.known, serial: $0.serial, id: $0.id) }
            remember(newValue?.type.unknown, .tool)
        }
    }

    @inlinable public var button: Names.ButtonName? { get { name(knownButton, .button) } set { knownButton = newValue?.known; remember(newValue?.unknown, .button) } }
    /// With `hover` and `squeeze`.
    @inlinable public var phase: Names.PhaseName? { get { name(knownPhase, .phase) } set { knownPhase = newValue?.known; remember(newValue?.unknown, .phase) } }
    /// With `doubleTap` and a `squeeze` that ended.
    @inlinable public var action: Names.ActionName? { get { name(knownAction, .action) } set { knownAction = newValue?.known; remember(newValue?.unknown, .action) } }
    /// With `doubleTap` and `squeeze`: who acts. The recogniser writes `none`; the daemon
    /// rewrites it for each receiving stream. Nil from a pencild that does not send it yet.
    @inlinable public var focus: Names.FocusName? { get { name(knownFocus, .focus) } set { knownFocus = newValue?.known; remember(newValue?.unknown, .focus) } }

    /// With `deviceAdded`.
    public var deviceInfo: DeviceOf<Names>? {
        get { rare?.deviceInfo }
        set { rare = RareFields.make(deviceInfo: newValue, preferences: preferences, stylus: stylus, unknown: rare?.unknown) }
    }

    /// With `preferencesChanged`.
    public var preferences: Names.PreferencesValue? {
        get { rare?.preferences }
        set { rare = RareFields.make(deviceInfo: deviceInfo, preferences: newValue, stylus: stylus, unknown: rare?.unknown) }
    }

    /// With `proximityIn`: which pen the tool is, when libwacom knows its id.
    public var stylus: StylusOf<Names>? {
        get { rare?.stylus }
        set { rare = RareFields.make(deviceInfo: deviceInfo, preferences: preferences, stylus: newValue, unknown: rare?.unknown) }
    }

    @inlinable
    public init(type: Names.EventTypeName, time: Int64, device: String? = nil, deviceInfo: DeviceOf<Names>? = nil,
                tool: ToolOf<Names>? = nil, pose: Pose? = nil, button: Names.ButtonName? = nil,
                phase: Names.PhaseName? = nil, action: Names.ActionName? = nil, focus: Names.FocusName? = nil,
                preferences: Names.PreferencesValue? = nil, stylus: StylusOf<Names>? = nil) {
        self.time = time
        self.device = device
        self.pose = pose
        knownType = type.known
        knownTool = tool.map { KnownTool(type: $0.type.known, serial: $0.serial, id: $0.id) }
        knownButton = button?.known
        knownPhase = phase?.known
        knownAction = action?.known
        knownFocus = focus?.known
        // Patterns rather than `!= nil`, which can compare whole values; with the daemon's
        // names the compiler leaves out the unknown ones altogether.
        var unknown: [NameField: String]?
        if case .some = type.unknown ?? tool?.type.unknown ?? button?.unknown ?? phase?.unknown ?? action?.unknown ?? focus?.unknown {
            unknown = [.type: type.unknown, .tool: tool?.type.unknown, .button: button?.unknown, .phase: phase?.unknown,
                       .action: action?.unknown, .focus: focus?.unknown].compactMapValues { $0 }
        }
        rare = RareFields.make(deviceInfo: deviceInfo, preferences: preferences, stylus: stylus, unknown: unknown)
    }

    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.time == rhs.time && lhs.device == rhs.device && lhs.pose == rhs.pose && lhs.isSynthesized == rhs.isSynthesized
            && lhs.knownType == rhs.knownType && lhs.knownTool == rhs.knownTool && lhs.knownButton == rhs.knownButton
            && lhs.knownPhase == rhs.knownPhase && lhs.knownAction == rhs.knownAction && lhs.knownFocus == rhs.knownFocus
            && (lhs.rare === rhs.rare || (lhs.rare?.unknown == rhs.rare?.unknown && lhs.deviceInfo == rhs.deviceInfo
                                          && lhs.preferences == rhs.preferences && lhs.stylus == rhs.stylus))
    }

    /// The name in `field`: its known case, or in a client the name it stands in for.
    @inlinable
    func name<Name: KnownName>(_ known: Name.Known?, _ field: NameField) -> Name? {
        known.map { Name(known: $0, unknown: rare?.unknown?[field]) }
    }

    /// Keeps `text`, the name set in `field` when it is an unknown one, or forgets the text an
    /// earlier one left there (nil). With the daemon's names there is nothing to keep.
    @inlinable
    mutating func remember(_ text: String?, _ field: NameField) {
        if case .some = text ?? rare?.unknown?[field] { setUnknown(field, text) }
    }

    @usableFromInline
    mutating func setUnknown(_ field: NameField, _ text: String?) {
        var unknown = rare?.unknown ?? [:]
        unknown[field] = text
        rare = RareFields.make(deviceInfo: deviceInfo, preferences: preferences, stylus: stylus, unknown: unknown.isEmpty ? nil : unknown)
    }

    /// Never changed once made: a copied event shares it, and setting a field makes a new one.
    @usableFromInline
    final class RareFields: Sendable {
        @usableFromInline let deviceInfo: DeviceOf<Names>?
        @usableFromInline let preferences: Names.PreferencesValue?
        @usableFromInline let stylus: StylusOf<Names>?
        /// The text of each name a client's version does not know.
        @usableFromInline let unknown: [NameField: String]?

        @usableFromInline
        init(deviceInfo: DeviceOf<Names>?, preferences: Names.PreferencesValue?, stylus: StylusOf<Names>?, unknown: [NameField: String]?) {
            self.deviceInfo = deviceInfo
            self.preferences = preferences
            self.stylus = stylus
            self.unknown = unknown
        }

        /// Inlined, so that it is specialised where an event is made: every pen event passes
        /// here with nothing to keep.
        @inlinable
        static func make(deviceInfo: DeviceOf<Names>?, preferences: Names.PreferencesValue?, stylus: StylusOf<Names>?,
                         unknown: [NameField: String]?) -> RareFields? {
            if case nil = deviceInfo, case nil = preferences, case nil = stylus, case nil = unknown { return nil }
            return RareFields(deviceInfo: deviceInfo, preferences: preferences, stylus: stylus, unknown: unknown)
        }
    }
}

/// A tool as `EventOf` stores it: its type as the daemon names it (KnownName.swift).
@usableFromInline
struct KnownTool: Hashable, Sendable {
    @usableFromInline var type: ToolType
    @usableFromInline var serial: Int64
    @usableFromInline var id: Int64

    @inlinable
    init(type: ToolType, serial: Int64, id: Int64) {
        self.type = type
        self.serial = serial
        self.id = id
    }
}

/// The fields of an event that hold a name.
@usableFromInline
enum NameField: Hashable, Sendable {
    case type, tool, button, phase, action, focus
}

extension Event {
    /// A proximityIn: with the tool's stylus when libwacom knows it.
    public static func proximityIn(time: Int64, device: String, tool: Tool, pose: Pose, stylus: Stylus?) -> Event {
        var event = Event(type: .proximityIn, time: time, device: device, tool: tool, pose: pose)
        if let stylus { event.stylus = stylus }
        return event
    }
}
