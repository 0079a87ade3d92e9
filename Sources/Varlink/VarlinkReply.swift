import JSON

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
