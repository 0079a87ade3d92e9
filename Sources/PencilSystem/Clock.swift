#if canImport(Glibc)
import Glibc
#endif

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

/// CLOCK_REALTIME seconds, for naming files that were moved aside (never for deadlines).
public enum WallClock {
    public static func secondsSinceEpoch() -> Int64 {
        var time = timespec()
        _ = clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec)
    }
}
