import JSON
import PencilSystem

public enum VarlinkClientError: Error, Sendable, CustomStringConvertible {
    case connect(path: String, Errno)
    case io(Errno)
    /// The daemon closed the connection.
    case closed
    /// No reply within the client's timeout.
    case timedOut
    /// The daemon sent something that is not varlink.
    case protocolViolation(String)
    /// The daemon answered with an error.
    case remote(VarlinkError)

    public var description: String {
        switch self {
        case .connect(let path, let error): return "cannot connect to \(path): \(error)"
        case .io(let error): return "connection failed: \(error)"
        case .closed: return "the daemon closed the connection"
        case .timedOut: return "no reply in time"
        case .protocolViolation(let reason): return "not a varlink reply: \(reason)"
        case .remote(let error): return error.description
        }
    }
}
