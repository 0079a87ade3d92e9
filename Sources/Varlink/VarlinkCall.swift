import JSON

/// A method call as a client sent it: `{"method": "iface.Method", "parameters": {...},
/// "more": bool, "oneway": bool}`.
public struct VarlinkCall: Sendable {
    /// The fully qualified method, e.g. `org.pencild.Pen.Monitor`.
    public var method: String
    public var parameters: JSONValue
    /// The client accepts several replies (`continues`).
    public var more: Bool
    /// The client wants no reply at all.
    public var oneway: Bool
    /// The client asks to leave varlink for another protocol; pencild supports none.
    public var upgrade: Bool

    public init(method: String, parameters: JSONValue = .object([]), more: Bool = false, oneway: Bool = false, upgrade: Bool = false) {
        self.method = method
        self.parameters = parameters
        self.more = more
        self.oneway = oneway
        self.upgrade = upgrade
    }

    /// The interface part of `method` (everything before the last dot).
    public var interface: String {
        guard let dot = method.lastIndex(of: ".") else { return "" }
        return String(method[..<dot])
    }

    /// The method's own name (after the last dot).
    public var methodName: String {
        guard let dot = method.lastIndex(of: ".") else { return method }
        return String(method[method.index(after: dot)...])
    }

    /// Reads one message. `maxDepth` bounds nesting so a hostile message cannot exhaust the stack.
    public static func parse<C: Collection<UInt8>>(_ bytes: C, maxDepth: Int = JSONReader.defaultMaxDepth) throws(CallError) -> VarlinkCall {
        let value: JSONValue
        do {
            value = try JSONReader.parse(bytes, maxDepth: maxDepth)
        } catch {
            throw .invalidJSON(error)
        }
        return try VarlinkCall(json: value)
    }

    public init(json value: JSONValue) throws(CallError) {
        guard value.objectValue != nil else { throw .notAnObject(kind: value.kindName) }
        guard let method = value["method"]?.stringValue else { throw .invalidField("method") }
        let parts = method.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }) else { throw .invalidField("method") }
        var parameters = JSONValue.object([])
        if let given = value["parameters"], !given.isNull {
            guard given.objectValue != nil else { throw .invalidField("parameters") }
            parameters = given
        }
        func flag(_ name: String) throws(CallError) -> Bool {
            guard let given = value[name], !given.isNull else { return false }
            guard let flag = given.boolValue else { throw .invalidField(name) }
            return flag
        }
        self.init(method: method, parameters: parameters, more: try flag("more"), oneway: try flag("oneway"), upgrade: try flag("upgrade"))
    }

    /// The message as a client sends it, NUL included.
    public var encoded: [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("method"); writer.string(method)
        writer.key("parameters"); writer.value(parameters)
        if more { writer.key("more"); writer.bool(true) }
        if oneway { writer.key("oneway"); writer.bool(true) }
        if upgrade { writer.key("upgrade"); writer.bool(true) }
        writer.endObject()
        writer.bytes.append(0)
        return writer.bytes
    }
}
