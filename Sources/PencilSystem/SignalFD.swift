#if canImport(Glibc)
import CLinux
import Glibc
#endif

/// Signals delivered as readable events on a descriptor, so the event loop handles them like
/// any other input and no handler runs at an arbitrary point.
public final class SignalFD {
    public let descriptor: FileDescriptor

    /// Blocks `signals` for the calling thread (and the threads it starts) and opens a signalfd for them.
    public init(signals: [Int32]) throws(Errno) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        let result = pthread_sigmask(SIG_BLOCK, &set, nil)
        if result != 0 { throw Errno(rawValue: result) }
        let fd = try retryingOnInterrupt { signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { descriptor.close() }

    /// The next pending signal's number, or nil when none is pending.
    public func nextSignal() -> Int32? {
        var info = signalfd_siginfo()
        let count = withUnsafeMutableBytes(of: &info) { Glibc.read(descriptor.rawValue, $0.baseAddress, $0.count) }
        guard count == MemoryLayout<signalfd_siginfo>.size else { return nil }
        return Int32(bitPattern: info.ssi_signo)
    }

    /// Ignores SIGPIPE for the process: writes to closed sockets report EPIPE instead.
    public static func ignoreBrokenPipe() {
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
    }
}
