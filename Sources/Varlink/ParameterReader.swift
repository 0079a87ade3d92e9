import JSON

/// Reads a call's parameters by name and kind, as its method declares them; what a method's
/// generated parameters are read with. An optional parameter may be left out or null; a required
/// one may not. A value of another kind throws the parameter's name.
public struct ParameterReader: Sendable {
    public let parameters: JSONValue

    public init(_ parameters: JSONValue) { self.parameters = parameters }

    /// The parameter, present and not null, as `kind`.
    public func required<Value>(_ name: String, _ kind: ParameterKind<Value>) throws(InvalidParameter) -> Value {
        guard let given = parameters[name], !given.isNull, let value = kind.convert(given) else { throw InvalidParameter(name) }
        return value
    }

    /// The parameter as `kind`, or nil when it is left out or null.
    public func optional<Value>(_ name: String, _ kind: ParameterKind<Value>) throws(InvalidParameter) -> Value? {
        guard let given = parameters[name], !given.isNull else { return nil }
        guard let value = kind.convert(given) else { throw InvalidParameter(name) }
        return value
    }
}

/// The kinds of value a parameter may have, and how each is read from JSON.
public struct ParameterKind<Value>: Sendable {
    let convert: @Sendable (JSONValue) -> Value?

    public init(_ convert: @escaping @Sendable (JSONValue) -> Value?) { self.convert = convert }
}

extension ParameterKind where Value == String {
    public static var string: Self { Self { $0.stringValue } }
}

extension ParameterKind where Value == Bool {
    public static var bool: Self { Self { $0.boolValue } }
}

extension ParameterKind where Value == Int64 {
    public static var int: Self { Self { $0.intValue } }
}

extension ParameterKind where Value == Double {
    public static var float: Self { Self { $0.doubleValue } }
}

extension ParameterKind where Value == [String] {
    /// An array whose every element is a string.
    public static var strings: Self {
        Self { value in
            guard let array = value.arrayValue else { return nil }
            var result: [String] = []
            for element in array {
                guard let text = element.stringValue else { return nil }
                result.append(text)
            }
            return result
        }
    }
}

extension ParameterKind where Value == JSONValue {
    /// Any JSON: a value of one of the interface's own types, which its handler reads.
    public static var json: Self { Self { $0 } }
}
