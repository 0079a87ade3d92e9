import CSystemd
import PencilSystem

/// systemd integration: sockets passed by socket activation, readiness and status through
/// sd_notify, and the watchdog interval.
public enum ServiceManager {
    /// The first descriptor systemd passes (SD_LISTEN_FDS_START).
    static let firstPassedDescriptor: Int32 = 3

    /// Descriptors passed by socket activation (LISTEN_FDS for this pid), marked close-on-exec;
    /// the variables are removed so children do not see them.
    public static func passedDescriptors() -> [FileDescriptor] {
        let count = sd_listen_fds(1)
        guard count > 0 else { return [] }
        return (0..<count).map { offset in
            let fd = FileDescriptor(rawValue: firstPassedDescriptor + offset)
            try? fd.setCloseOnExec()
            return fd
        }
    }

    /// Sends `state` (e.g. "READY=1\nSTATUS=...") to $NOTIFY_SOCKET; does nothing without one.
    public static func notify(_ state: String) {
        _ = sd_notify(0, state)
    }

    /// The watchdog interval in microseconds when systemd expects WATCHDOG=1 from this process.
    public static func watchdogInterval() -> Int64? {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return Int64(microseconds)
    }
}
