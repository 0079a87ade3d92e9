import JSON

/// One field of the preferences: its name in the interface, what kind of value it holds, and how
/// it is read from JSON and written to it. `Preferences.fields` lists every field, generated from
/// the interface file; the writer, the reader and `pencilctl prefs` go through that list, so a new
/// preference needs no code of its own there.
public struct PreferenceField: Sendable {
    public enum Kind: Sendable, Equatable {
        /// One of these names.
        case names([String])
        /// A whole number of milliseconds, within `Preferences.durationRange`.
        case milliseconds
        /// A number of millimetres.
        case millimetres
        /// true or false.
        case flag
    }

    public let name: String
    public let kind: Kind
    /// The name as the writer copies it.
    let key: StaticString
    private let readValue: @Sendable (inout Preferences, JSONValue, String) throws(InvalidPreferences) -> Void
    private let writeValue: @Sendable (Preferences, inout JSONCursor) -> Void
    private let jsonValue: @Sendable (Preferences) -> JSONValue

    private init(_ key: StaticString, kind: Kind, readValue: @escaping @Sendable (inout Preferences, JSONValue, String) throws(InvalidPreferences) -> Void,
                 writeValue: @escaping @Sendable (Preferences, inout JSONCursor) -> Void,
                 jsonValue: @escaping @Sendable (Preferences) -> JSONValue) {
        self.key = key
        self.name = key.description
        self.kind = kind
        self.readValue = readValue
        self.writeValue = writeValue
        self.jsonValue = jsonValue
    }

    /// The field's value in `preferences`, as JSON.
    public func value(in preferences: Preferences) -> JSONValue { jsonValue(preferences) }

    /// Sets the field from its JSON value; a value of another kind is refused with the field's name.
    public func read(_ value: JSONValue, into preferences: inout Preferences) throws(InvalidPreferences) {
        try readValue(&preferences, value, name)
    }

    /// Writes the field as a member: its key and value.
    public func write(_ preferences: Preferences, to cursor: inout JSONCursor) {
        cursor.key(key)
        writeValue(preferences, &cursor)
    }

    public static func names<Value: RawRepresentable & CaseIterable & Sendable>(
        _ name: StaticString, _ path: WritableKeyPath<Preferences, Value> & Sendable
    ) -> PreferenceField where Value.RawValue == String {
        PreferenceField(name, kind: .names(Value.allCases.map(\.rawValue)), readValue: { preferences, value, field throws(InvalidPreferences) in
            guard let text = value.stringValue, let named = Value(rawValue: text) else {
                let allowed = Value.allCases.map(\.rawValue).joined(separator: ", ")
                throw InvalidPreferences(field: field, reason: "must be one of \(allowed)")
            }
            preferences[keyPath: path] = named
        }, writeValue: { preferences, cursor in cursor.string(preferences[keyPath: path].rawValue) },
           jsonValue: { .string($0[keyPath: path].rawValue) })
    }

    public static func milliseconds(_ name: StaticString, _ path: WritableKeyPath<Preferences, Int> & Sendable) -> PreferenceField {
        PreferenceField(name, kind: .milliseconds, readValue: { preferences, value, field throws(InvalidPreferences) in
            guard case .int(let given) = value, let milliseconds = Int(exactly: given) else {
                throw InvalidPreferences(field: field, reason: "must be a whole number of milliseconds, not \(value.kindName)")
            }
            let range = Preferences.durationRange
            guard range.contains(milliseconds) else {
                throw InvalidPreferences(field: field, reason: "must be between \(range.lowerBound) and \(range.upperBound) milliseconds, not \(milliseconds)")
            }
            preferences[keyPath: path] = milliseconds
        }, writeValue: { preferences, cursor in cursor.int(Int64(preferences[keyPath: path])) },
           jsonValue: { .int(Int64($0[keyPath: path])) })
    }

    public static func millimetres(_ name: StaticString, _ path: WritableKeyPath<Preferences, Double> & Sendable) -> PreferenceField {
        PreferenceField(name, kind: .millimetres, readValue: { preferences, value, field throws(InvalidPreferences) in
            guard let millimetres = value.doubleValue else {
                throw InvalidPreferences(field: field, reason: "must be a number of millimetres, not \(value.kindName)")
            }
            preferences[keyPath: path] = millimetres
        }, writeValue: { preferences, cursor in cursor.number(preferences[keyPath: path], .millimeters) },
           jsonValue: { .double($0[keyPath: path]) })
    }

    public static func flag(_ name: StaticString, _ path: WritableKeyPath<Preferences, Bool> & Sendable) -> PreferenceField {
        PreferenceField(name, kind: .flag, readValue: { preferences, value, field throws(InvalidPreferences) in
            guard let flag = value.boolValue else {
                throw InvalidPreferences(field: field, reason: "must be true or false, not \(value.kindName)")
            }
            preferences[keyPath: path] = flag
        }, writeValue: { preferences, cursor in cursor.bool(preferences[keyPath: path]) },
           jsonValue: { .bool($0[keyPath: path]) })
    }
}

extension Preferences {
    /// The field the interface names `name`; nil for a name that is no preference.
    public static func field(named name: String) -> PreferenceField? { fields.first { $0.name == name } }
}
