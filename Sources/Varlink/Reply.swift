import JSON

/// A varlink error reply: a qualified name and its parameters.
public struct VarlinkError: Error, Equatable, Sendable, CustomStringConvertible {
    public var name: String
    public var parameters: JSONValue

    public init(name: String, parameters: JSONValue = .object([])) {
        self.name = name
        self.parameters = parameters
    }

    public var description: String {
        if case .object(let members) = parameters, members.isEmpty { return name }
        return "\(name) \(parameters.jsonText)"
    }

    // org.varlink.service's standard errors.
    public static func interfaceNotFound(_ interface: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.InterfaceNotFound", parameters: .object([("interface", .string(interface))]))
    }
    public static func methodNotFound(_ method: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.MethodNotFound", parameters: .object([("method", .string(method))]))
    }
    public static func methodNotImplemented(_ method: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.MethodNotImplemented", parameters: .object([("method", .string(method))]))
    }
    public static func invalidParameter(_ parameter: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.InvalidParameter", parameters: .object([("parameter", .string(parameter))]))
    }
    public static let expectedMore = VarlinkError(name: "org.varlink.service.ExpectedMore")
    public static let permissionDenied = VarlinkError(name: "org.varlink.service.PermissionDenied")
}

/// Writes replies: `{"parameters": {...}, "continues": true}` and
/// `{"error": "iface.Error", "parameters": {...}}`, each followed by NUL.
public enum ReplyEncoder {
    /// Appends one reply whose parameters `writeParameters` writes as the members of an object
    /// (with `writer.key(...)` and a value each).
    public static func reply(into writer: inout JSONWriter, continues: Bool = false, _ writeParameters: (inout JSONWriter) -> Void) {
        writer.beginObject()
        writer.key("parameters")
        writer.beginObject()
        writeParameters(&writer)
        writer.endObject()
        if continues { writer.key("continues"); writer.bool(true) }
        writer.endObject()
        writer.bytes.append(0)
    }

    /// Appends `{"parameters":{"event":VALUE},"continues":true}` and the NUL: a stream's reply
    /// around one event, written in one piece (the envelope is constant text) from the event
    /// where it lies, uncopied.
    @inlinable
    public static func continuingReply<Event: JSONFragment>(into writer: inout JSONWriter, event: UnsafePointer<Event>) {
        writer.write(#"{"parameters":{"event":"#, event, "},\"continues\":true}\0")
    }

    public static func reply(into writer: inout JSONWriter, parameters: JSONValue, continues: Bool = false) {
        reply(into: &writer, continues: continues) { writer in
            if case .object(let members) = parameters {
                for (name, value) in members { writer.key(member: name); writer.value(value) }
            }
        }
    }

    public static func error(into writer: inout JSONWriter, _ error: VarlinkError) {
        writer.beginObject()
        writer.key("error"); writer.string(error.name)
        writer.key("parameters"); writer.value(error.parameters)
        writer.endObject()
        writer.bytes.append(0)
    }
}

/// A reply as a client reads it.
public struct VarlinkReply: Sendable {
    public var parameters: JSONValue
    public var continues: Bool
    /// Set on error replies.
    public var error: String?

    public init(json: JSONValue) throws(ReplyError) {
        guard json.objectValue != nil else { throw ReplyError(reason: "a reply must be a JSON object, not \(json.kindName)") }
        if let error = json["error"] {
            guard let name = error.stringValue else { throw ReplyError(reason: "'error' must be a string") }
            self.error = name
        }
        let parameters = json["parameters"] ?? .object([])
        guard parameters.isNull || parameters.objectValue != nil else { throw ReplyError(reason: "'parameters' must be an object") }
        self.parameters = parameters.isNull ? .object([]) : parameters
        continues = json["continues"]?.boolValue ?? false
    }
}

public struct ReplyError: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
