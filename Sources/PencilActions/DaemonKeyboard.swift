import PencilDevices
import PencilProtocol
import Varlink

/// What pencild said to a chord.
public enum DaemonChordOutcome: Equatable, Sendable {
    case pressed
    /// pencild will not press it (a key it never sends, or the caller does not hold the seat):
    /// no other keyboard should press it either.
    case refused(String)
    /// pencild has no keyboard (a user's pencild, an older pencild, pencild away): another
    /// keyboard may.
    case unavailable(String)
}

/// Chords through pencild's keyboard (PressChord): the system service holds /dev/uinput and
/// presses them only for the user at the seat, so pencil-actions needs no uinput of its own.
/// One short connection per chord: gestures are a person's pace, and an idle connection would
/// only be closed by the daemon.
public struct DaemonKeyboard: Sendable {
    public let socketPath: String
    public let timeoutMilliseconds: Int

    public init(socketPath: String, timeoutMilliseconds: Int = 1_000) {
        self.socketPath = socketPath
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// The call's parameters for `chord` on `device` (nil: the daemon's default seat).
    public static func parameters(_ chord: KeyChord, device: String?) -> JSONValue {
        var members: [(String, JSONValue)] = [("keys", .array(chord.keys.map { .string(KeyNames.name(of: $0)) }))]
        if let device { members.append(("device", .string(device))) }
        return .object(members)
    }

    public func press(_ chord: KeyChord, device: String?) -> DaemonChordOutcome {
        do {
            _ = try VarlinkClient.call(path: socketPath, timeoutMilliseconds: timeoutMilliseconds,
                                       PenInterface.Method.pressChord.qualifiedName, Self.parameters(chord, device: device))
            return .pressed
        } catch {
            return Self.outcome(of: error)
        }
    }

    /// How a failed call is taken: refusals are final, anything else leaves another keyboard.
    public static func outcome(of error: VarlinkClientError) -> DaemonChordOutcome {
        guard case .remote(let remote) = error else { return .unavailable("\(error)") }
        switch remote.name {
        case PenInterface.ErrorName.keyNotAllowed.qualifiedName:
            let key = remote.parameters["key"]?.stringValue ?? "?"
            let reason = remote.parameters["reason"]?.stringValue ?? ""
            return .refused("pencild does not press \(key): \(reason)")
        case PenInterface.ErrorName.permissionDenied.qualifiedName:
            return .refused("pencild presses keys only for the user of the seat's active session")
        case PenInterface.ErrorName.keyboardUnavailable.qualifiedName:
            return .unavailable("pencild has no keyboard: \(remote.parameters["reason"]?.stringValue ?? "")")
        default:
            // MethodNotFound from a pencild before PressChord, or any other error.
            return .unavailable("pencild: \(remote)")
        }
    }
}
