/// The JSON form of the protocol's types: written by hand so that streaming an event costs
/// one pass over a reused buffer, and read back strictly for preferences and clients.

/// How many decimals a float of the protocol carries on the wire (docs/protocol.md, "Numbers on
/// the wire"); the raw value is the number of decimals.
public enum WirePrecision: Int, Sendable {
    /// Values from 0 to 1: x, y, pressure, zOffset, slider, wheel.
    case unit = 6
    /// Millimetres: positions, device sizes, the double-tap slop.
    case millimeters = 3
    /// Degrees: tiltX, tiltY.
    case degrees = 2
    /// Radians: azimuth, altitude, roll.
    case radians = 5
}

extension JSONWriter {
    /// A float of the protocol at its precision (docs/protocol.md, "Numbers on the wire").
    public mutating func number(_ value: Double, _ precision: WirePrecision) {
        decimal(value, places: precision.rawValue)
    }

    // Each type's text is written in one step (JSONFragment): the hot path of every event.
    public mutating func write(_ tool: Tool) { write(fragment: tool) }
    public mutating func write(_ pose: Pose) { write(fragment: pose) }
    public mutating func write(_ device: DeviceInfo) { write(fragment: device) }
    public mutating func write(_ preferences: Preferences) { write(fragment: preferences) }
    public mutating func write(_ stylus: Stylus) { write(fragment: stylus) }
    public mutating func write(_ event: Event) { write(fragment: event) }
}

extension JSONCursor {
    /// A float of the protocol at its precision.
    mutating func number(_ value: Double, _ precision: WirePrecision) {
        decimal(value, places: precision.rawValue)
    }

    /// An optional member: left out when absent, and also when not finite (the protocol has
    /// no NaN; an axis that cannot be computed is one the pen does not report).
    mutating func optional(_ name: StaticString, _ value: Double?, _ precision: WirePrecision) {
        guard let value, value.isFinite else { return }
        key(name); number(value, precision)
    }

    /// The same for a value laid out by hand: `member` is its comma, name and colon
    /// (`,"tiltX":`), copied as it is.
    @inline(__always)
    mutating func optional(laidOut member: StaticString, _ value: Double?, _ precision: WirePrecision) {
        guard let value, value.isFinite else { return }
        verbatim(member); number(value, precision)
    }

    /// The most bytes a member with a number takes.
    static func member(_ name: StaticString) -> Int { maximumByteCount(ofKey: name) + maximumNumberByteCount }
    /// The most bytes a member with a string takes.
    static func member(_ name: StaticString, _ value: String) -> Int { maximumByteCount(ofKey: name) + maximumByteCount(of: value) }
}

extension Tool: JSONFragment {
    /// The same for every tool (the longest type name's), so that an event's bound costs no
    /// look at the name.
    public var maximumByteCount: Int { Self.maximumByteCount }

    static let maximumByteCount = 2 + JSONCursor.maximumByteCount(ofKey: "type") + 3 + ToolType.allCases.map(\.rawValue.utf8.count).max()!
        + JSONCursor.member("serial") + JSONCursor.member("id")

    public func write(to cursor: inout JSONCursor) {
        cursor.value { cursor in
            cursor.verbatim("{")
            writeMembers(to: &cursor)
        }
    }

    /// `"type":…,"serial":…,"id":…}`: the object after its brace (an event writes the brace
    /// with the member name before it).
    @inline(__always)
    func writeMembers(to cursor: inout JSONCursor) {
        switch type {
        case .pen: cursor.verbatim(#""type":"pen","serial":"#)
        case .eraser: cursor.verbatim(#""type":"eraser","serial":"#)
        case .brush: cursor.verbatim(#""type":"brush","serial":"#)
        case .pencil: cursor.verbatim(#""type":"pencil","serial":"#)
        case .airbrush: cursor.verbatim(#""type":"airbrush","serial":"#)
        case .mouse: cursor.verbatim(#""type":"mouse","serial":"#)
        case .lens: cursor.verbatim(#""type":"lens","serial":"#)
        }
        cursor.int(serial)
        cursor.verbatim(#","id":"#)
        cursor.int(id)
        cursor.verbatim("}")
    }
}

extension Pose: JSONFragment {
    /// Thirteen members at most, none with a name longer than "xMillimeters".
    public var maximumByteCount: Int { 2 + 13 * JSONCursor.member("xMillimeters") }

    public func write(to cursor: inout JSONCursor) {
        cursor.value { cursor in
            cursor.verbatim(#"{"x":"#)
            writeMembers(to: &cursor)
        }
    }

    /// The object after `{"x":`, to its closing brace: the member names are written with the
    /// punctuation around them, in one copy each.
    @inline(__always)
    func writeMembers(to cursor: inout JSONCursor) {
        cursor.number(x, .unit)
        cursor.verbatim(#","y":"#)
        cursor.number(y, .unit)
        cursor.optional(laidOut: #","xMillimeters":"#, xMillimeters, .millimeters)
        cursor.optional(laidOut: #","yMillimeters":"#, yMillimeters, .millimeters)
        cursor.verbatim(#","pressure":"#)
        cursor.number(pressure, .unit)
        cursor.optional(laidOut: #","zOffset":"#, zOffset, .unit)
        cursor.optional(laidOut: #","tiltX":"#, tiltX, .degrees)
        cursor.optional(laidOut: #","tiltY":"#, tiltY, .degrees)
        cursor.optional(laidOut: #","azimuth":"#, azimuth, .radians)
        cursor.optional(laidOut: #","altitude":"#, altitude, .radians)
        cursor.optional(laidOut: #","roll":"#, roll, .radians)
        cursor.optional(laidOut: #","slider":"#, slider, .unit)
        cursor.optional(laidOut: #","wheel":"#, wheel, .unit)
        cursor.verbatim("}")
    }
}

extension DeviceInfo: JSONFragment {
    public var maximumByteCount: Int {
        var total = 2 + JSONCursor.member("id", id) + JSONCursor.member("name", name) + 3 * JSONCursor.member("product")
            + JSONCursor.member("direct") + 2 * JSONCursor.member("heightMillimeters")
        // Three arrays: brackets, and each name quoted with a comma (names are plain ASCII).
        total += 3 * (JSONCursor.maximumByteCount(ofKey: "buttons") + 2)
        for tool in tools { total += tool.rawValue.utf8.count + 3 }
        for axis in axes { total += axis.rawValue.utf8.count + 3 }
        for button in buttons { total += button.rawValue.utf8.count + 3 }
        if let model { total += JSONCursor.member("model", model) }
        if let mirror { total += JSONCursor.member("mirror", mirror) }
        if let tipReportedAs { total += JSONCursor.member("tipReportedAs", tipReportedAs.rawValue) }
        if !styli.isEmpty {
            total += JSONCursor.maximumByteCount(ofKey: "styli") + 2
            for stylus in styli { total += stylus.maximumByteCount + 1 }
        }
        return total
    }

    public func write(to cursor: inout JSONCursor) {
        cursor.beginObject()
        cursor.key("id"); cursor.string(id)
        cursor.key("name"); cursor.string(name)
        cursor.key("bus"); cursor.int(Int64(bus))
        cursor.key("vendor"); cursor.int(Int64(vendor))
        cursor.key("product"); cursor.int(Int64(product))
        cursor.key("direct"); cursor.bool(direct)
        cursor.optional("widthMillimeters", widthMillimeters, .millimeters)
        cursor.optional("heightMillimeters", heightMillimeters, .millimeters)
        cursor.key("tools"); cursor.beginArray(); for tool in tools { cursor.string(tool.rawValue) }; cursor.endArray()
        cursor.key("axes"); cursor.beginArray(); for axis in axes { cursor.string(axis.rawValue) }; cursor.endArray()
        cursor.key("buttons"); cursor.beginArray(); for button in buttons { cursor.string(button.rawValue) }; cursor.endArray()
        if let model { cursor.key("model"); cursor.string(model) }
        if !styli.isEmpty {
            cursor.key("styli"); cursor.beginArray(); for stylus in styli { stylus.write(to: &cursor) }; cursor.endArray()
        }
        if let mirror { cursor.key("mirror"); cursor.string(mirror) }
        if let tipReportedAs { cursor.key("tipReportedAs"); cursor.string(tipReportedAs.rawValue) }
        cursor.endObject()
    }
}

extension Stylus: JSONFragment {
    public var maximumByteCount: Int {
        2 + JSONCursor.member("name", name) + JSONCursor.member("kind", "airbrush") + JSONCursor.member("buttons")
            + JSONCursor.member("eraser", "invert")
    }

    public func write(to cursor: inout JSONCursor) {
        cursor.beginObject()
        cursor.key("name"); cursor.string(name)
        cursor.key("kind"); cursor.string(kind.rawValue)
        cursor.key("buttons"); cursor.int(Int64(buttons))
        cursor.key("eraser"); cursor.string(eraser.rawValue)
        cursor.endObject()
    }
}

extension Preferences: JSONFragment {
    /// Each member: its key and a number's room, and 48 bytes more for a name (short ASCII).
    public var maximumByteCount: Int { Self.fields.reduce(2) { $0 + JSONCursor.member($1.key) + 48 } }

    public func write(to cursor: inout JSONCursor) {
        cursor.beginObject()
        for field in Self.fields { field.write(self, to: &cursor) }
        cursor.endObject()
    }
}

extension Event: JSONFragment {
    public var maximumByteCount: Int {
        // type, time, button, phase, action and focus: short ASCII names and a number.
        var total = 2 + 6 * (JSONCursor.member("preferences") + 48)
        if let device { total += JSONCursor.member("device", device) }
        if let deviceInfo { total += JSONCursor.maximumByteCount(ofKey: "deviceInfo") + deviceInfo.maximumByteCount }
        if let tool { total += JSONCursor.maximumByteCount(ofKey: "tool") + tool.maximumByteCount }
        if let stylus { total += JSONCursor.maximumByteCount(ofKey: "stylus") + stylus.maximumByteCount }
        if let pose { total += JSONCursor.maximumByteCount(ofKey: "pose") + pose.maximumByteCount }
        if let preferences { total += JSONCursor.maximumByteCount(ofKey: "preferences") + preferences.maximumByteCount }
        return total
    }

    /// Laid out by hand: the constant text between values (brackets, commas, member names, the
    /// type's and the tool's names) is copied in one piece each; the hot path of every stream.
    public func write(to cursor: inout JSONCursor) {
        cursor.value { cursor in
            cursor.verbatim(type.jsonOpening)
            cursor.int(time)
            if let device { cursor.verbatim(#","device":"#); cursor.string(device) }
            if let deviceInfo { cursor.verbatim(#","deviceInfo":"#); deviceInfo.write(to: &cursor) }
            if let tool { cursor.verbatim(#","tool":{"#); tool.writeMembers(to: &cursor) }
            if let stylus { cursor.verbatim(#","stylus":"#); stylus.write(to: &cursor) }
            if let pose { cursor.verbatim(#","pose":{"x":"#); pose.writeMembers(to: &cursor) }
            if let button { cursor.verbatim(#","button":"#); cursor.string(button.rawValue) }
            if let phase { cursor.verbatim(#","phase":"#); cursor.string(phase.rawValue) }
            if let action { cursor.verbatim(#","action":"#); cursor.string(action.rawValue) }
            if let focus { cursor.verbatim(#","focus":"#); cursor.string(focus.rawValue) }
            if let preferences { cursor.verbatim(#","preferences":"#); preferences.write(to: &cursor) }
            cursor.verbatim("}")
        }
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
            guard let field = Self.field(named: name) else {
                throw InvalidPreferences(field: name, reason: "is not a preference")
            }
            try field.read(value, into: &result)
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

}

extension DeviceInfo {
    public var jsonValue: JSONValue {
        var writer = JSONWriter()
        writer.write(self)
        return (try? JSONReader.parse(writer.bytes)) ?? .null
    }
}
