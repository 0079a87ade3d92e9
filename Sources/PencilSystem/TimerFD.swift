#if canImport(Glibc)
import CLinux
import Glibc
#endif

/// A CLOCK_MONOTONIC timerfd armed at absolute deadlines (microseconds). The loop keeps it armed
/// only while some deadline is pending, so an idle daemon never wakes up.
public final class TimerFD {
    public let descriptor: FileDescriptor
    /// The deadline the timer is armed at, nil when disarmed.
    public private(set) var armedDeadline: Int64?

    public init() throws(Errno) {
        let fd = try retryingOnInterrupt { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { descriptor.close() }

    /// Arms the timer at `deadline`, or disarms it when nil. A deadline in the past fires at
    /// once. Does nothing when already armed there.
    public func arm(at deadline: HostTime?) throws(Errno) {
        try arm(at: deadline?.microseconds)
    }

    /// Arms the timer at `deadline` (CLOCK_MONOTONIC µs), or disarms it when nil.
    public func arm(at deadline: Int64?) throws(Errno) {
        guard deadline != armedDeadline else { return }
        var spec = itimerspec()
        if let deadline {
            // An all-zero it_value would disarm: the earliest deadline is 1 µs.
            let clamped = max(deadline, 1)
            spec.it_value.tv_sec = Int(clamped / 1_000_000)
            spec.it_value.tv_nsec = Int(clamped % 1_000_000) * 1_000
        }
        _ = try retryingOnInterrupt { timerfd_settime(descriptor.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
        armedDeadline = deadline
    }

    /// Reads the expiry count so the descriptor stops being readable; the timer is then disarmed.
    public func acknowledge() {
        var expirations: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &expirations) { Glibc.read(descriptor.rawValue, $0.baseAddress, 8) }
        armedDeadline = nil
    }
}
