// Generated from interfaces/org.pencild.Pen.varlink by scripts/generate-from-interface: do not edit.
import PencilProtocol
import Varlink

/// The interface's errors, each with its parameters as the interface declares them.
enum PenError {
    static func noSuchDevice(_ device: String) -> VarlinkError {
        error(.noSuchDevice, [("device", .string(device))])
    }
    static let permissionDenied = error(.permissionDenied, [])
    static func invalidPreferences(field: String, reason: String) -> VarlinkError {
        error(.invalidPreferences, [("field", .string(field)), ("reason", .string(reason))])
    }
    /// The daemon serves as many clients as it may: in all (limit), or for this user (perUser).
    static func tooManyClients(limit: Int, perUser: Bool) -> VarlinkError {
        error(.tooManyClients, [("limit", .int(Int64(limit))), ("perUser", .bool(perUser))])
    }
    /// The preferences could not be stored (state directory unwritable or full); nothing changed.
    static func preferencesNotSaved(_ reason: String) -> VarlinkError {
        error(.preferencesNotSaved, [("reason", .string(reason))])
    }
    /// PressChord: this daemon cannot press keys (why: no /dev/uinput, a user's pencild, which
    /// has none, a device on another seat, too many chords waiting).
    static func keyboardUnavailable(_ reason: String) -> VarlinkError {
        error(.keyboardUnavailable, [("reason", .string(reason))])
    }
    /// PressChord: a key that is unknown or that the keyboard never sends, and why.
    static func keyNotAllowed(key: String, reason: String) -> VarlinkError {
        error(.keyNotAllowed, [("key", .string(key)), ("reason", .string(reason))])
    }
    /// PlayGesture: the gesture cannot be played, and why: pencild has no demo pen, the device is
    /// not one, the caller's preferences switch the gesture off or need a button the demo pen
    /// lacks, or four gestures are already waiting.
    static func gestureNotPlayable(_ reason: String) -> VarlinkError {
        error(.gestureNotPlayable, [("reason", .string(reason))])
    }
    /// SetTipTool: the pen's tip cannot be switched, and why: it has no mirror, its user has
    /// mirrorSwitchesTool off, or no device was named and not exactly one pen is mirrored.
    static func toolNotSwitchable(_ reason: String) -> VarlinkError {
        error(.toolNotSwitchable, [("reason", .string(reason))])
    }

    private static func error(_ name: PenInterface.ErrorName, _ parameters: [(String, JSONValue)]) -> VarlinkError {
        VarlinkError(name: name.qualifiedName, parameters: .object(parameters))
    }
}
