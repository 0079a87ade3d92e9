#if canImport(Glibc)
import Glibc
#endif
// Every caller of `HostTime.now()` works with the time types too.
@_exported import PencilTime

/// CLOCK_MONOTONIC in microseconds: the daemon's only clock. The event loop reads it and hands
/// the time down; nothing below the loop reads a clock.
public enum MonotonicClock {
    public static func now() -> Int64 {
        var time = timespec()
        // clock_gettime(CLOCK_MONOTONIC) cannot fail with a valid pointer.
        _ = clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1_000
    }
}

extension HostTime {
    /// Now, on CLOCK_MONOTONIC: for the daemon's loop, the one place that reads it.
    public static func now() -> HostTime { HostTime(microseconds: MonotonicClock.now()) }
}

/// CLOCK_REALTIME seconds, for naming files that were moved aside (never for deadlines).
public enum WallClock {
    public static func secondsSinceEpoch() -> Int64 {
        var time = timespec()
        _ = clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec)
    }
}

extension MonotonicClock {
    /// Sleeps until CLOCK_MONOTONIC reaches `deadline` (µs): an absolute deadline, so a run of
    /// sleeps does not drift, and one already past returns at once. Signals that interrupt it
    /// do not shorten it.
    public static func sleep(until deadline: Int64) {
        guard deadline > 0 else { return }
        var target = timespec(tv_sec: Int(deadline / 1_000_000), tv_nsec: Int(deadline % 1_000_000) * 1_000)
        // clock_nanosleep returns the error number itself (not -1 and errno); only EINTR is possible
        // with a valid clock and time.
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
    }
}
