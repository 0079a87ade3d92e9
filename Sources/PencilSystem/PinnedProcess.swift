#if canImport(Glibc)
import CLinux
import Glibc
#endif

/// The process at the other end of a connection: a pidfd names that process and no other, so a
/// pid that comes back for another process later never inherits what the first one was refused
/// (docs/robustness.md, "The seat's keyboard"). SO_PEERPIDFD (Linux 6.5) gives the process that
/// called connect(), whenever it is asked, so a connection needs no descriptor of its own until
/// it is; before Linux 6.5, pidfd_open at accept pins the process that holds the pid then, the
/// caller unless it exited between its connect and the accept.
public struct PinnedProcess: Sendable {
    public let pid: Int32
    /// nil: the process could not be pinned (it was gone by the accept), so it counts as gone.
    public let descriptor: FileDescriptor?

    public init(pid: Int32, descriptor: FileDescriptor?) {
        self.pid = pid
        self.descriptor = descriptor
    }

    /// The process that connected `socket` (SO_PEERPIDFD), whose SO_PEERCRED pid is `pid`; it
    /// counts as gone where the kernel cannot say (`peerOfSocketIsKnown`).
    public static func peer(of socket: FileDescriptor, pid: Int32) -> PinnedProcess {
        var fd: Int32 = -1
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(socket.rawValue, SOL_SOCKET, peerPidfdOption, &fd, &length) == 0, fd >= 0 else {
            return PinnedProcess(pid: pid, descriptor: nil)
        }
        return PinnedProcess(pid: pid, descriptor: FileDescriptor(rawValue: fd))
    }

    /// SO_PEERPIDFD.
    static let peerPidfdOption: Int32 = 77

    /// Whether this kernel keeps the process that connected a socket (Linux 6.5 and later):
    /// asked of an accepted `socket` once. Where it does not, a connection's process is pinned
    /// at accept (`process(_:)`).
    public static func peerOfSocketIsKnown(_ socket: FileDescriptor) -> Bool {
        var fd: Int32 = -1
        var length = socklen_t(MemoryLayout<Int32>.size)
        if getsockopt(socket.rawValue, SOL_SOCKET, peerPidfdOption, &fd, &length) == 0 {
            if fd >= 0 { Glibc.close(fd) }
            return true
        }
        return Errno.current != .protocolNotAvailable
    }

    /// The process that holds `pid` now.
    public static func process(_ pid: Int32) -> PinnedProcess {
        guard pid > 0 else { return PinnedProcess(pid: pid, descriptor: nil) }
        let fd = pencild_pidfd_open(pid)
        guard fd >= 0 else { return PinnedProcess(pid: pid, descriptor: nil) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return PinnedProcess(pid: pid, descriptor: FileDescriptor(rawValue: fd))
    }

    /// Whether the pinned process still runs: while it does, its pid is its own. A question to
    /// ask on both sides of a lookup by pid, so that the answer is about this process.
    public var isRunning: Bool {
        guard let descriptor else { return false }
        // Signal 0 checks without sending; EPERM would still mean it runs (not for root).
        return pencild_pidfd_send_signal(descriptor.rawValue, 0) == 0 || Errno.current == .notPermitted
    }

    public func close() { descriptor?.close() }
}
