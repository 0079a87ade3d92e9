import JSON

/// Why a message is not a call.
public enum CallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not JSON: the stream cannot be trusted, the connection is closed.
    case invalidJSON(JSONParseError)
    /// JSON, but not an object: likewise.
    case notAnObject(kind: String)
    /// An object whose field is missing or of the wrong type: answered with InvalidParameter.
    case invalidField(String)

    public var description: String {
        switch self {
        case .invalidJSON(let error): return "invalid JSON at \(error)"
        case .notAnObject(let kind): return "a message must be a JSON object, not \(kind)"
        case .invalidField(let name): return "field '\(name)' is missing or has the wrong type"
        }
    }
}
