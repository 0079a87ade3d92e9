/// The JSON form of the protocol's types: written by hand so that streaming an event costs
/// one pass over a reused buffer, and read back strictly for preferences and clients.

extension JSONWriter {
    public mutating func write(_ tool: Tool) {
        beginObject()
        key("type"); string(tool.type.rawValue)
        key("serial"); int(tool.serial)
        key("id"); int(tool.id)
        endObject()
    }

    private mutating func optional(_ name: StaticString, _ value: Double?) {
        guard let value else { return }
        key(name); double(value)
    }

    public mutating func write(_ pose: Pose) {
        beginObject()
        key("x"); double(pose.x)
        key("y"); double(pose.y)
        optional("xMillimeters", pose.xMillimeters)
        optional("yMillimeters", pose.yMillimeters)
        key("pressure"); double(pose.pressure)
        optional("zOffset", pose.zOffset)
        optional("tiltX", pose.tiltX)
        optional("tiltY", pose.tiltY)
        optional("azimuth", pose.azimuth)
        optional("altitude", pose.altitude)
        optional("roll", pose.roll)
        optional("slider", pose.slider)
        optional("wheel", pose.wheel)
        endObject()
    }

    public mutating func write(_ device: DeviceInfo) {
        beginObject()
        key("id"); string(device.id)
        key("name"); string(device.name)
        key("bus"); int(device.bus)
        key("vendor"); int(device.vendor)
        key("product"); int(device.product)
        key("direct"); bool(device.direct)
        optional("widthMillimeters", device.widthMillimeters)
        optional("heightMillimeters", device.heightMillimeters)
        key("tools"); beginArray(); for tool in device.tools { string(tool.rawValue) }; endArray()
        key("axes"); beginArray(); for axis in device.axes { string(axis.rawValue) }; endArray()
        key("buttons"); beginArray(); for button in device.buttons { string(button.rawValue) }; endArray()
        endObject()
    }

    public mutating func write(_ preferences: Preferences) {
        beginObject()
        key("doubleTapAction"); string(preferences.doubleTapAction.rawValue)
        key("squeezeAction"); string(preferences.squeezeAction.rawValue)
        key("tapButton"); string(preferences.tapButton.rawValue)
        key("squeezeButton"); string(preferences.squeezeButton.rawValue)
        key("tapMaxDuration"); int(preferences.tapMaxDuration)
        key("doubleTapInterval"); int(preferences.doubleTapInterval)
        key("longPressDuration"); int(preferences.longPressDuration)
        key("doubleTapSlop"); double(preferences.doubleTapSlop)
        endObject()
    }

    public mutating func write(_ event: Event) {
        beginObject()
        key("type"); string(event.type.rawValue)
        key("time"); int(event.time)
        if let device = event.device { key("device"); string(device) }
        if let info = event.deviceInfo { key("deviceInfo"); write(info) }
        if let tool = event.tool { key("tool"); write(tool) }
        if let pose = event.pose { key("pose"); write(pose) }
        if let button = event.button { key("button"); string(button.rawValue) }
        if let phase = event.phase { key("phase"); string(phase.rawValue) }
        if let action = event.action { key("action"); string(action.rawValue) }
        if let focus = event.focus { key("focus"); string(focus.rawValue) }
        if let preferences = event.preferences { key("preferences"); write(preferences) }
        endObject()
    }
}

extension Event {
    /// Compact JSON text, as `pencilctl events` prints it.
    public var jsonText: String {
        var writer = JSONWriter()
        writer.write(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

extension Preferences {
    public var jsonValue: JSONValue {
        var writer = JSONWriter()
        writer.write(self)
        // The writer's output is always valid JSON.
        return (try? JSONReader.parse(writer.bytes)) ?? .null
    }

    /// Applies the fields present in `json` over `self` (fields left out keep their values),
    /// then validates. Unknown fields are an error so that a typo is never silently ignored.
    public func merging(_ json: JSONValue) throws(InvalidPreferences) -> Preferences {
        guard let members = json.objectValue else {
            throw InvalidPreferences(field: "preferences", reason: "must be an object, not \(json.kindName)")
        }
        var result = self
        for (name, value) in members {
            switch name {
            case "doubleTapAction": result.doubleTapAction = try Self.enumValue(value, field: name)
            case "squeezeAction": result.squeezeAction = try Self.enumValue(value, field: name)
            case "tapButton": result.tapButton = try Self.enumValue(value, field: name)
            case "squeezeButton": result.squeezeButton = try Self.enumValue(value, field: name)
            case "tapMaxDuration": result.tapMaxDuration = try Self.milliseconds(value, field: name)
            case "doubleTapInterval": result.doubleTapInterval = try Self.milliseconds(value, field: name)
            case "longPressDuration": result.longPressDuration = try Self.milliseconds(value, field: name)
            case "doubleTapSlop":
                guard let slop = value.doubleValue else {
                    throw InvalidPreferences(field: name, reason: "must be a number of millimetres, not \(value.kindName)")
                }
                result.doubleTapSlop = slop
            default:
                throw InvalidPreferences(field: name, reason: "is not a preference")
            }
        }
        try result.validate()
        return result
    }

    /// Reading a stored file: every field that is valid on its own and with those before it is
    /// kept; the others (unknown to this version, out of range, of the wrong kind) are left out
    /// and named in `dropped`, so that one bad field never costs the user their other settings.
    public func mergingValidFields(_ json: JSONValue) throws(InvalidPreferences) -> (preferences: Preferences, dropped: [InvalidPreferences]) {
        guard let members = json.objectValue else {
            throw InvalidPreferences(field: "preferences", reason: "must be an object, not \(json.kindName)")
        }
        var result = self
        var dropped: [InvalidPreferences] = []
        for (name, value) in members {
            do {
                result = try result.merging(.object([(name, value)]))
            } catch {
                dropped.append(error)
            }
        }
        return (result, dropped)
    }

    private static func enumValue<T: RawRepresentable & CaseIterable>(_ value: JSONValue, field: String) throws(InvalidPreferences) -> T where T.RawValue == String {
        guard let text = value.stringValue, let result = T(rawValue: text) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw InvalidPreferences(field: field, reason: "must be one of \(allowed)")
        }
        return result
    }

    private static func milliseconds(_ value: JSONValue, field: String) throws(InvalidPreferences) -> Int {
        guard case .int(let ms) = value, let result = Int(exactly: ms) else {
            throw InvalidPreferences(field: field, reason: "must be a whole number of milliseconds, not \(value.kindName)")
        }
        guard durationRange.contains(result) else {
            throw InvalidPreferences(field: field, reason: "must be between \(durationRange.lowerBound) and \(durationRange.upperBound) milliseconds, not \(result)")
        }
        return result
    }
}

/// Reading events back (clients, tests): the inverse of `JSONWriter.write(_: Event)`.
public struct EventDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

extension Event {
    public init(json: JSONValue) throws(EventDecodingError) {
        guard let typeName = json["type"]?.stringValue, let type = EventType(rawValue: typeName) else {
            throw EventDecodingError(reason: "missing or unknown event type")
        }
        guard let time = json["time"]?.intValue else { throw EventDecodingError(reason: "missing time") }
        self.init(type: type, time: time)
        device = json["device"]?.stringValue
        if let info = json["deviceInfo"] { deviceInfo = try DeviceInfo(json: info) }
        if let toolJSON = json["tool"] {
            guard let name = toolJSON["type"]?.stringValue, let toolType = ToolType(rawValue: name) else {
                throw EventDecodingError(reason: "bad tool")
            }
            tool = Tool(type: toolType, serial: toolJSON["serial"]?.intValue ?? 0, id: toolJSON["id"]?.intValue ?? 0)
        }
        if let poseJSON = json["pose"] { pose = Pose(json: poseJSON) }
        button = json["button"]?.stringValue.flatMap(PenButton.init(rawValue:))
        phase = json["phase"]?.stringValue.flatMap(Phase.init(rawValue:))
        action = json["action"]?.stringValue.flatMap(PreferredAction.init(rawValue:))
        focus = json["focus"]?.stringValue.flatMap(Focus.init(rawValue:))
        if let prefs = json["preferences"] {
            do { preferences = try Preferences.defaults.merging(prefs) } catch { throw EventDecodingError(reason: "bad preferences: \(error)") }
        }
    }
}

extension Pose {
    public init(json: JSONValue) {
        self.init()
        x = json["x"]?.doubleValue ?? 0
        y = json["y"]?.doubleValue ?? 0
        xMillimeters = json["xMillimeters"]?.doubleValue
        yMillimeters = json["yMillimeters"]?.doubleValue
        pressure = json["pressure"]?.doubleValue ?? 0
        zOffset = json["zOffset"]?.doubleValue
        tiltX = json["tiltX"]?.doubleValue
        tiltY = json["tiltY"]?.doubleValue
        azimuth = json["azimuth"]?.doubleValue
        altitude = json["altitude"]?.doubleValue
        roll = json["roll"]?.doubleValue
        slider = json["slider"]?.doubleValue
        wheel = json["wheel"]?.doubleValue
    }
}

extension DeviceInfo {
    public init(json: JSONValue) throws(EventDecodingError) {
        guard let id = json["id"]?.stringValue, let name = json["name"]?.stringValue else {
            throw EventDecodingError(reason: "device without id or name")
        }
        self.init(id: id, name: name,
                  bus: Int(json["bus"]?.intValue ?? 0), vendor: Int(json["vendor"]?.intValue ?? 0),
                  product: Int(json["product"]?.intValue ?? 0), direct: json["direct"]?.boolValue ?? false,
                  widthMillimeters: json["widthMillimeters"]?.doubleValue, heightMillimeters: json["heightMillimeters"]?.doubleValue,
                  tools: (json["tools"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(ToolType.init(rawValue:)) },
                  axes: (json["axes"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(AxisName.init(rawValue:)) },
                  buttons: (json["buttons"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(PenButton.init(rawValue:)) })
    }

    public var jsonValue: JSONValue {
        var writer = JSONWriter()
        writer.write(self)
        return (try? JSONReader.parse(writer.bytes)) ?? .null
    }
}
