import PencilProtocol
import Varlink

/// The interface's errors with their parameters as the interface declares them
/// (interfaces/org.pencild.Pen.varlink): one place that spells each error's shape.
enum PenError {
    static func noSuchDevice(_ device: String) -> VarlinkError {
        error(.noSuchDevice, [("device", .string(device))])
    }
    static let permissionDenied = error(.permissionDenied, [])
    static func invalidPreferences(field: String, reason: String) -> VarlinkError {
        error(.invalidPreferences, [("field", .string(field)), ("reason", .string(reason))])
    }
    static func tooManyClients(limit: Int, perUser: Bool) -> VarlinkError {
        error(.tooManyClients, [("limit", .int(Int64(limit))), ("perUser", .bool(perUser))])
    }
    static func preferencesNotSaved(_ reason: String) -> VarlinkError {
        error(.preferencesNotSaved, [("reason", .string(reason))])
    }
    static func keyboardUnavailable(_ reason: String) -> VarlinkError {
        error(.keyboardUnavailable, [("reason", .string(reason))])
    }
    static func keyNotAllowed(key: String, reason: String) -> VarlinkError {
        error(.keyNotAllowed, [("key", .string(key)), ("reason", .string(reason))])
    }

    static func gestureNotPlayable(_ reason: String) -> VarlinkError {
        error(.gestureNotPlayable, [("reason", .string(reason))])
    }

    private static func error(_ name: PenInterface.ErrorName, _ parameters: [(String, JSONValue)]) -> VarlinkError {
        VarlinkError(name: name.qualifiedName, parameters: .object(parameters))
    }
}
