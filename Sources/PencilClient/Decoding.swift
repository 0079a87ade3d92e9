import PencilProtocol

// Reading the daemon's JSON into the client's values. Tolerant of what a newer daemon may
// send: a name the library does not know becomes `.unknown(name)`, a field it does not know
// is ignored. What no daemon sends is an error, as in the C and Python libraries
// (docs/protocol.md, "When pencild goes away"; tests/contract): an event without its type or
// time, a device without its id, and in an event a known field of the wrong kind (a device
// that is not a string, a pose without its x and y), which would otherwise read as absent or 0.

/// The member `key` of `json` read by `read`: nil when absent or null, an error when it is of
/// another kind.
private func member<T>(_ json: JSONValue, _ key: String, _ kind: String,
                       _ read: (JSONValue) -> T?) throws(PencilClientError) -> T? {
    guard let value = json[key], !value.isNull else { return nil }
    guard let result = read(value) else { throw .protocolViolation("\(key) must be \(kind), not \(value.kindName)") }
    return result
}

extension ProtocolName {
    init?(json: JSONValue?) {
        guard let name = json?.stringValue else { return nil }
        self.init(rawValue: name)
    }

    static func list(_ json: JSONValue?) -> [Self] {
        (json?.arrayValue ?? []).compactMap { Self(json: $0) }
    }
}

extension PencilTool {
    package init(json: JSONValue) throws(PencilClientError) {
        guard let type = PencilToolType(json: json["type"]) else { throw .protocolViolation("a tool without a type") }
        self.init(type: type, serial: try member(json, "serial", "an integer") { $0.intValue } ?? 0,
                  id: try member(json, "id", "an integer") { $0.intValue } ?? 0)
    }
}

extension PencilStylus {
    package init(json: JSONValue) throws(PencilClientError) {
        guard let name = json["name"]?.stringValue else { throw .protocolViolation("a stylus without a name") }
        self.init(name: name, kind: PencilStylusKind(json: json["kind"]) ?? .unknownKind,
                  buttons: Int(truncatingIfNeeded: json["buttons"]?.intValue ?? 0),
                  eraser: PencilEraserKind(json: json["eraser"]) ?? .none)
    }
}

extension PencilDevice {
    package init(json: JSONValue) throws(PencilClientError) {
        guard let id = json["id"]?.stringValue else { throw .protocolViolation("a device without an id") }
        self.init(id: id, name: json["name"]?.stringValue ?? "",
                  bus: Int(json["bus"]?.intValue ?? 0), vendor: Int(json["vendor"]?.intValue ?? 0),
                  product: Int(json["product"]?.intValue ?? 0), direct: json["direct"]?.boolValue ?? false,
                  widthMillimeters: json["widthMillimeters"]?.doubleValue,
                  heightMillimeters: json["heightMillimeters"]?.doubleValue,
                  tools: PencilToolType.list(json["tools"]), axes: PencilAxis.list(json["axes"]),
                  buttons: PencilButton.list(json["buttons"]), model: json["model"]?.stringValue,
                  styli: try (json["styli"]?.arrayValue ?? []).map { (stylus) throws(PencilClientError) in try PencilStylus(json: stylus) },
                  mirror: json["mirror"]?.stringValue)
        tipReportedAs = json["tipReportedAs"]?.stringValue.map(PencilToolType.init(rawValue:))
    }
}


extension PencilEvent {
    package init(json: JSONValue) throws(PencilClientError) {
        guard let type = PencilEventType(json: json["type"]) else { throw .protocolViolation("an event without a type") }
        guard let time = json["time"]?.intValue else { throw .protocolViolation("a \(type) event without a time") }
        self.init(type: type, time: time)
        device = try member(json, "device", "a string") { $0.stringValue }
        if let info = json["deviceInfo"], !info.isNull { deviceInfo = try PencilDevice(json: info) }
        if let tool = json["tool"], !tool.isNull { self.tool = try PencilTool(json: tool) }
        if let stylus = json["stylus"], !stylus.isNull { self.stylus = try PencilStylus(json: stylus) }
        if let pose = json["pose"], !pose.isNull { self.pose = try Self.pose(pose) }
        button = try member(json, "button", "a name") { PencilButton(json: $0) }
        phase = try member(json, "phase", "a name") { PencilPhase(json: $0) }
        action = try member(json, "action", "a name") { PencilAction(json: $0) }
        focus = try member(json, "focus", "a name") { PencilFocus(json: $0) }
        if let preferences = json["preferences"], !preferences.isNull { self.preferences = try PencilPreferences(json: preferences) }
    }
}

extension PencilEvent {
    /// A pose: an object with numbers for x and y, and a number (or null) for each other member.
    private static func pose(_ json: JSONValue) throws(PencilClientError) -> PencilPose {
        guard json.objectValue != nil else { throw .protocolViolation("pose must be an object, not \(json.kindName)") }
        for key in ["x", "y"] where json[key]?.doubleValue == nil { throw .protocolViolation("a pose without its \(key)") }
        for key in ["pressure", "xMillimeters", "yMillimeters", "zOffset", "tiltX", "tiltY", "azimuth", "altitude", "roll", "slider", "wheel"] {
            _ = try member(json, key, "a number") { $0.doubleValue }
        }
        return Pose(json: json)
    }
}

extension PencilEvent {
    /// The package's own `Event` for this one, for pencilctl's printing; nil when the event
    /// holds a name the package's types do not know (a newer daemon's), which a client of
    /// this version ignores as the protocol asks.
    package var protocolEvent: Event? {
        func known<T: RawRepresentable>(_ name: (some ProtocolName)?) -> T?? where T.RawValue == String {
            guard let name else { return .some(nil) }
            return T(rawValue: name.rawValue).map { .some($0) }
        }
        guard let type = EventType(rawValue: type.rawValue),
              let button: PenButton? = known(button), let phase: Phase? = known(phase),
              let action: PreferredAction? = known(action), let focus: Focus? = known(focus) else { return nil }
        var event = Event(type: type, time: time, device: device, pose: pose, button: button, phase: phase, action: action,
                          focus: focus)
        if let tool {
            guard let toolType = ToolType(rawValue: tool.type.rawValue) else { return nil }
            event.tool = Tool(type: toolType, serial: tool.serial, id: tool.id)
        }
        if let stylus {
            guard let kind = StylusKind(rawValue: stylus.kind.rawValue), let eraser = EraserKind(rawValue: stylus.eraser.rawValue) else { return nil }
            event.stylus = Stylus(name: stylus.name, kind: kind, buttons: stylus.buttons, eraser: eraser)
        }
        if let info = deviceInfo {
            guard let tools = info.tools.protocolNames(ToolType.self), let axes = info.axes.protocolNames(AxisName.self),
                  let buttons = info.buttons.protocolNames(PenButton.self) else { return nil }
            event.deviceInfo = DeviceInfo(id: info.id, name: info.name, bus: info.bus, vendor: info.vendor, product: info.product,
                                          direct: info.direct, widthMillimeters: info.widthMillimeters,
                                          heightMillimeters: info.heightMillimeters, tools: tools, axes: axes, buttons: buttons,
                                          model: info.model, mirror: info.mirror)
            event.deviceInfo?.tipReportedAs = info.tipReportedAs.flatMap { ToolType(rawValue: $0.rawValue) }
        }
        if let preferences {
            guard let converted = preferences.protocolPreferences else { return nil }
            event.preferences = converted
        }
        return event
    }
}


extension Array where Element: ProtocolName {
    func protocolNames<T: RawRepresentable>(_ type: T.Type) -> [T]? where T.RawValue == String {
        var result: [T] = []
        for name in self {
            guard let value = T(rawValue: name.rawValue) else { return nil }
            result.append(value)
        }
        return result
    }
}
