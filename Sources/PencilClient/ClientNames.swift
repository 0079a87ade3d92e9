import PencilProtocol

/// This library's names for the values PencilProtocol writes once for daemon and clients
/// (`EventOf`, `ToolOf`, `StylusOf`, `DeviceOf`): the open enums of Names.swift, which keep a
/// name a newer daemon adds as `unknown(name)`.
public enum ClientNames: NameSet {
    public typealias EventTypeName = PencilEventType
    public typealias ToolName = PencilToolType
    public typealias StylusKindName = PencilStylusKind
    public typealias EraserKindName = PencilEraserKind
    public typealias AxisName = PencilAxis
    public typealias ButtonName = PencilButton
    public typealias PhaseName = PencilPhase
    public typealias ActionName = PencilAction
    public typealias FocusName = PencilFocus
    public typealias PreferencesValue = PencilPreferences

    /// Tolerantly: a field this version does not know is ignored, one left out keeps its default.
    public static func preferences(json: JSONValue) throws(EventDecodingError) -> PencilPreferences {
        do { return try PencilPreferences(json: json) } catch {
            guard case .protocolViolation(let reason) = error else { throw EventDecodingError(reason: error.description) }
            throw EventDecodingError(reason: reason)
        }
    }
}

/// The open enums (Names.swift), as an event stores them: through the daemon's names
/// (PencilProtocol's KnownName.swift), a name this library does not know kept as its text.
extension ProtocolName where Self: KnownName {
    public init(known: Known, unknown: String?) {
        let name = unknown ?? known.rawValue
        self = Self.known.first { $0.rawValue == name } ?? .unknown(name)
    }
    public var known: Known { Known(rawValue: rawValue) ?? Known.allCases.first! }
    public var unknown: String? { Known(rawValue: rawValue) == nil ? rawValue : nil }
}
