import CSystemd
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// sd-login's monitor of sessions and seats: its descriptor is readable when one changes.
/// Owns the sd_login_monitor; the descriptor is the monitor's and closes with it.
final class SessionMonitor {
    private let monitor: OpaquePointer
    let descriptor: FileDescriptor

    /// Fails where logind keeps no state (no /run/systemd: a container, a system without logind).
    init() throws(Errno) {
        var created: OpaquePointer?
        let status = sd_login_monitor_new(nil, &created)
        guard status >= 0, let created else { throw Errno(rawValue: status < 0 ? -status : EINVAL) }
        let fd = sd_login_monitor_get_fd(created)
        guard fd >= 0 else {
            _ = sd_login_monitor_unref(created)
            throw Errno(rawValue: -fd)
        }
        monitor = created
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { _ = sd_login_monitor_unref(monitor) }

    /// Takes the pending notifications, so that the descriptor is quiet until the next change.
    func flush() { _ = sd_login_monitor_flush(monitor) }
}
