import CSystemd
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// Whether pencil-actions' session is the active one on its seat (sd-login), and a descriptor
/// that is readable when that may have changed. pencil-actions performs nothing while another
/// user's session holds the seat. Owns its sd_login_monitor.
public final class SessionActivity {
    private let monitor: OpaquePointer?
    /// Readable when logind's sessions change; nil where logind keeps no state.
    public let descriptor: FileDescriptor?

    public init() {
        var created: OpaquePointer?
        if sd_login_monitor_new(nil, &created) >= 0, let created, sd_login_monitor_get_fd(created) >= 0 {
            monitor = created
            descriptor = FileDescriptor(rawValue: sd_login_monitor_get_fd(created))
        } else {
            if let created { _ = sd_login_monitor_unref(created) }
            monitor = nil
            descriptor = nil
        }
    }

    deinit { if let monitor { _ = sd_login_monitor_unref(monitor) } }

    /// Takes the pending notifications.
    public func acknowledge() { if let monitor { _ = sd_login_monitor_flush(monitor) } }

    /// The process's own session when it has one (started from a desktop), else its user's
    /// state (a user service has no session): active only when one of the user's sessions is
    /// the active one on a seat. Where logind keeps no seats, nothing is known to be inactive.
    public static func isActive(pid: Int32 = 0, uid: UInt32 = getuid()) -> Bool {
        guard sd_get_seats(nil) > 0 else { return true }
        var session: UnsafeMutablePointer<CChar>?
        if sd_pid_get_session(pid, &session) >= 0, let session {
            defer { free(session) }
            return sd_session_is_active(session) > 0
        }
        var state: UnsafeMutablePointer<CChar>?
        guard sd_uid_get_state(uid, &state) >= 0, let state else { return false }
        defer { free(state) }
        return String(cString: state) == "active"
    }
}
