import PencilProtocol
import PencilSystem
import Varlink

/// Everything that can go wrong talking to pencild: the daemon's own errors, typed, and the
/// connection's.
public enum PencilClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `org.pencild.Pen.InvalidPreferences`: `field` is the first bad one; nothing changed.
    case invalidPreferences(field: String, reason: String)
    /// `org.pencild.Pen.PermissionDenied`: this user may not use pencild (only root, its own
    /// user, the socket's group and users with an active local session may).
    case permissionDenied
    /// `org.pencild.Pen.NoSuchDevice`.
    case noSuchDevice(String)
    /// `org.pencild.Pen.PreferencesNotSaved`: the daemon could not store them; nothing changed.
    case preferencesNotSaved(reason: String)
    /// The daemon does not have this method (an older pencild), or not this interface.
    case notSupported(method: String)
    /// Any other error reply, by its varlink name and its parameters as JSON text.
    case daemonError(name: String, parameters: String)
    /// The socket could not be reached: `errno` is the system's error number.
    case cannotConnect(path: String, errno: Int32, message: String)
    /// The connection ended: the daemon stopped or restarted. An event sequence made with
    /// `onDisconnect: .throw` ends with it, after closing what was open.
    case disconnected(reason: String)
    /// No reply within the client's time limit.
    case timedOut
    /// The daemon sent something that is not the protocol.
    case protocolViolation(String)

    public var description: String {
        switch self {
        case .invalidPreferences(let field, let reason): "invalid preferences: \(field): \(reason)"
        case .permissionDenied: "pencild refused: this user may not use it"
        case .noSuchDevice(let device): "no such device: \(device)"
        case .preferencesNotSaved(let reason): "preferences not saved: \(reason)"
        case .notSupported(let method): "this pencild does not support \(method)"
        case .daemonError(let name, let parameters): "pencild answered \(name) \(parameters)"
        case .cannotConnect(let path, _, let message): "cannot connect to \(path): \(message)"
        case .disconnected(let reason): "disconnected from pencild: \(reason)"
        case .timedOut: "pencild did not answer in time"
        case .protocolViolation(let reason): "pencild sent something unexpected: \(reason)"
        }
    }

    /// True for an error that retrying later may cure (the daemon away or restarting); false
    /// for a refusal, which stays a refusal.
    public var isTransient: Bool {
        switch self {
        case .disconnected, .timedOut, .protocolViolation: true
        case .cannotConnect(_, let errno, _): errno != Errno.permissionDenied.rawValue
        // The daemon's limit on clients: one may leave.
        case .daemonError(let name, _): name == PenInterface.ErrorName.tooManyClients.qualifiedName
        default: false
        }
    }

    /// The typed form of a varlink error reply.
    package init(_ error: VarlinkError, method: String) {
        let parameters = error.parameters
        func text(_ name: String) -> String { parameters[name]?.stringValue ?? "" }
        switch error.name {
        case PenInterface.ErrorName.invalidPreferences.qualifiedName:
            self = .invalidPreferences(field: text("field"), reason: text("reason"))
        case PenInterface.ErrorName.permissionDenied.qualifiedName, VarlinkError.permissionDenied.name:
            self = .permissionDenied
        case PenInterface.ErrorName.noSuchDevice.qualifiedName: self = .noSuchDevice(text("device"))
        case PenInterface.ErrorName.preferencesNotSaved.qualifiedName: self = .preferencesNotSaved(reason: text("reason"))
        case "org.varlink.service.MethodNotFound", "org.varlink.service.MethodNotImplemented",
             "org.varlink.service.InterfaceNotFound":
            self = .notSupported(method: method)
        default: self = .daemonError(name: error.name, parameters: parameters.jsonText)
        }
    }

    /// The typed form of the wire layer's errors.
    package init(_ error: VarlinkClientError, method: String) {
        switch error {
        case .connect(let path, let errno): self = .cannotConnect(path: path, errno: errno.rawValue, message: errno.description)
        case .io(let errno): self = .disconnected(reason: errno.description)
        case .closed: self = .disconnected(reason: "the daemon closed the connection")
        case .timedOut: self = .timedOut
        case .protocolViolation(let reason): self = .protocolViolation(reason)
        case .remote(let remote): self.init(remote, method: method)
        }
    }
}
