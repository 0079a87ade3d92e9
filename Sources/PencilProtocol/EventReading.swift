/// Reading an event and the values it carries, for the daemon's names and a client's alike
/// (pencilctl, the client libraries, the tests): the inverse of `JSONWriter.write(_: Event)`.
///
/// Tolerant of what a newer daemon may send: a field this version does not know is ignored,
/// and with a client's open names so is a name (`.unknown(name)`); with the daemon's closed
/// names an unknown name is an error, never a value read as absent. What no daemon sends is an
/// error on both sides, as in the C and Python libraries (docs/protocol.md, "When pencild goes
/// away"; tests/contract): an event without its type or time, a device without its id, a
/// tool without its type, a stylus without its name, and a known field of the wrong kind (a
/// device that is not a string, a pose without its x and y), which would otherwise read as
/// absent or 0.

/// Why an event could not be read.
public struct EventDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

extension JSONValue {
    /// The member `key` read by `read`: nil when absent or null, an error when of another kind.
    fileprivate func member<T>(_ key: String, _ kind: String, _ read: (JSONValue) -> T?) throws(EventDecodingError) -> T? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let result = read(value) else { throw EventDecodingError(reason: "\(key) must be \(kind), not \(value.kindName)") }
        return result
    }

    /// The member `key` as a name of `Name`: nil when absent, an error when not a string or
    /// (for a closed set of names) not one of them.
    fileprivate func name<Name: RawRepresentable<String>>(_ key: String, _: Name.Type = Name.self) throws(EventDecodingError) -> Name? {
        guard let text = try member(key, "a name", { $0.stringValue }) else { return nil }
        guard let name = Name(rawValue: text) else { throw EventDecodingError(reason: "\(key) '\(text)' is not a name this version knows") }
        return name
    }

    /// The member `key`, a list of names: those this version knows (a closed set leaves out
    /// the others: a device's list is a description, not an instruction).
    fileprivate func names<Name: RawRepresentable<String>>(_ key: String) -> [Name] {
        (self[key]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(Name.init(rawValue:)) }
    }

    fileprivate func object<T>(_ key: String, _ read: (JSONValue) throws(EventDecodingError) -> T) throws(EventDecodingError) -> T? {
        guard let value = self[key], !value.isNull else { return nil }
        return try read(value)
    }
}

extension EventOf {
    public init(json: JSONValue) throws(EventDecodingError) {
        guard let type = try json.name("type", Names.EventTypeName.self) else { throw EventDecodingError(reason: "an event without a type") }
        guard let time = json["time"]?.intValue else { throw EventDecodingError(reason: "a \(type.rawValue) event without a time") }
        self.init(type: type, time: time)
        device = try json.member("device", "a string") { $0.stringValue }
        deviceInfo = try json.object("deviceInfo") { (json) throws(EventDecodingError) in try DeviceOf(json: json) }
        tool = try json.object("tool") { (json) throws(EventDecodingError) in try ToolOf(json: json) }
        stylus = try json.object("stylus") { (json) throws(EventDecodingError) in try StylusOf(json: json) }
        pose = try json.object("pose") { (json) throws(EventDecodingError) in try Pose(json: json) }
        button = try json.name("button")
        phase = try json.name("phase")
        action = try json.name("action")
        focus = try json.name("focus")
        preferences = try json.object("preferences") { (json) throws(EventDecodingError) in try Names.preferences(json: json) }
    }
}

extension ToolOf {
    public init(json: JSONValue) throws(EventDecodingError) {
        guard let type = try json.name("type", Names.ToolName.self) else { throw EventDecodingError(reason: "a tool without a type") }
        self.init(type: type, serial: try json.member("serial", "an integer") { $0.intValue } ?? 0,
                  id: try json.member("id", "an integer") { $0.intValue } ?? 0)
    }
}

extension StylusOf {
    /// A kind or eraser left out is libwacom's "unknown" and "none".
    public init(json: JSONValue) throws(EventDecodingError) {
        guard let name = try json.member("name", "a string", { $0.stringValue }) else { throw EventDecodingError(reason: "a stylus without a name") }
        guard let unknownKind = Names.StylusKindName(rawValue: "unknown"), let noEraser = Names.EraserKindName(rawValue: "none") else {
            preconditionFailure("every set of names knows a stylus of unknown kind and without an eraser")
        }
        self.init(name: name, kind: try json.name("kind") ?? unknownKind,
                  buttons: Int(truncatingIfNeeded: try json.member("buttons", "an integer") { $0.intValue } ?? 0),
                  eraser: try json.name("eraser") ?? noEraser)
    }
}

extension DeviceOf {
    public init(json: JSONValue) throws(EventDecodingError) {
        guard let id = try json.member("id", "a string", { $0.stringValue }) else { throw EventDecodingError(reason: "a device without an id") }
        self.init(id: id, name: json["name"]?.stringValue ?? "",
                  bus: Int(truncatingIfNeeded: json["bus"]?.intValue ?? 0), vendor: Int(truncatingIfNeeded: json["vendor"]?.intValue ?? 0),
                  product: Int(truncatingIfNeeded: json["product"]?.intValue ?? 0), direct: json["direct"]?.boolValue ?? false,
                  widthMillimeters: json["widthMillimeters"]?.doubleValue, heightMillimeters: json["heightMillimeters"]?.doubleValue,
                  tools: json.names("tools"), axes: json.names("axes"), buttons: json.names("buttons"),
                  model: json["model"]?.stringValue,
                  styli: try (json["styli"]?.arrayValue ?? []).map { (stylus) throws(EventDecodingError) in try StylusOf(json: stylus) },
                  mirror: json["mirror"]?.stringValue)
        tipReportedAs = json["tipReportedAs"]?.stringValue.flatMap(Names.ToolName.init(rawValue:))
    }
}

extension Pose {
    /// An object with numbers for x and y, and a number (or null) for each other member.
    public init(json: JSONValue) throws(EventDecodingError) {
        guard json.objectValue != nil else { throw EventDecodingError(reason: "pose must be an object, not \(json.kindName)") }
        func number(_ key: String) throws(EventDecodingError) -> Double? { try json.member(key, "a number") { $0.doubleValue } }
        guard let x = try number("x") else { throw EventDecodingError(reason: "a pose without its x") }
        guard let y = try number("y") else { throw EventDecodingError(reason: "a pose without its y") }
        self.init()
        self.x = x
        self.y = y
        pressure = try number("pressure") ?? 0
        xMillimeters = try number("xMillimeters")
        yMillimeters = try number("yMillimeters")
        zOffset = try number("zOffset")
        tiltX = try number("tiltX")
        tiltY = try number("tiltY")
        azimuth = try number("azimuth")
        altitude = try number("altitude")
        roll = try number("roll")
        slider = try number("slider")
        wheel = try number("wheel")
    }
}

extension EventOf {
    /// The same event over another set of names (a client's event as the daemon's, for
    /// pencilctl's printing); nil when it holds a name that set does not know, which a client
    /// of this version ignores as the protocol asks.
    public func renamed<Other: NameSet>(_ convertPreferences: (Names.PreferencesValue) -> Other.PreferencesValue?) -> EventOf<Other>? {
        guard let type = Other.EventTypeName(rawValue: type.rawValue),
              let button: Other.ButtonName? = inOtherNames(button), let phase: Other.PhaseName? = inOtherNames(phase),
              let action: Other.ActionName? = inOtherNames(action), let focus: Other.FocusName? = inOtherNames(focus) else { return nil }
        var event = EventOf<Other>(type: type, time: time, device: device, pose: pose, button: button, phase: phase,
                                   action: action, focus: focus)
        event.isSynthesized = isSynthesized
        if let tool {
            guard let renamed = tool.renamed(as: Other.self) else { return nil }
            event.tool = renamed
        }
        if let stylus {
            guard let renamed = stylus.renamed(as: Other.self) else { return nil }
            event.stylus = renamed
        }
        if let deviceInfo {
            guard let renamed = deviceInfo.renamed(as: Other.self) else { return nil }
            event.deviceInfo = renamed
        }
        if let preferences {
            guard let converted = convertPreferences(preferences) else { return nil }
            event.preferences = converted
        }
        return event
    }
}

extension ToolOf {
    public func renamed<Other: NameSet>(as: Other.Type) -> ToolOf<Other>? {
        Other.ToolName(rawValue: type.rawValue).map { ToolOf<Other>(type: $0, serial: serial, id: id) }
    }
}

extension StylusOf {
    public func renamed<Other: NameSet>(as: Other.Type) -> StylusOf<Other>? {
        guard let kind = Other.StylusKindName(rawValue: kind.rawValue), let eraser = Other.EraserKindName(rawValue: eraser.rawValue) else { return nil }
        return StylusOf<Other>(name: name, kind: kind, buttons: buttons, eraser: eraser)
    }
}

extension DeviceOf {
    public func renamed<Other: NameSet>(as: Other.Type) -> DeviceOf<Other>? {
        guard let tools: [Other.ToolName] = inOtherNames(tools), let axes: [Other.AxisName] = inOtherNames(axes),
              let buttons: [Other.ButtonName] = inOtherNames(buttons), let tipReportedAs: Other.ToolName? = inOtherNames(tipReportedAs) else { return nil }
        var styli: [StylusOf<Other>] = []
        for stylus in self.styli {
            guard let renamed = stylus.renamed(as: Other.self) else { return nil }
            styli.append(renamed)
        }
        var device = DeviceOf<Other>(id: id, name: name, bus: bus, vendor: vendor, product: product, direct: direct,
                                     widthMillimeters: widthMillimeters, heightMillimeters: heightMillimeters,
                                     tools: tools, axes: axes, buttons: buttons, model: model, styli: styli, mirror: mirror)
        device.tipReportedAs = tipReportedAs
        return device
    }
}

/// `name` in another set of names: `.some(nil)` for no name, nil for a name that set lacks.
private func inOtherNames<Name: RawRepresentable<String>, Other: RawRepresentable<String>>(_ name: Name?) -> Other?? {
    guard let name else { return .some(nil) }
    return Other(rawValue: name.rawValue).map { .some($0) }
}

private func inOtherNames<Name: RawRepresentable<String>, Other: RawRepresentable<String>>(_ names: [Name]) -> [Other]? {
    var result: [Other] = []
    for name in names {
        guard let other = Other(rawValue: name.rawValue) else { return nil }
        result.append(other)
    }
    return result
}
