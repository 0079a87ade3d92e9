/// The two clocks a pen's events live on, as types, so that a time of one cannot be used as a
/// time of the other without a conversion that says how.
///
/// - `HostTime`: this machine's CLOCK_MONOTONIC. The daemon's loop reads it, arms its timer
///   for it, and measures clients' timeouts on it.
/// - `DeviceTime`: a pen's clock. Its frames are stamped on it, and gesture deadlines are set
///   on it (docs/gestures.md, "Time in a replay"). A live device's clock is the host's, because the
///   reader sets evdev's clock to CLOCK_MONOTONIC (`HostTime(sameInstantAs:)` says so where it
///   is relied on). A replay's is the recording's: `RecordingPlayer` converts, at its speed.
///
/// Reading the clock (`HostTime.now()`) is PencilSystem's: this module makes no system call, so
/// the pure modules that use these types cannot read a clock.
///
/// Both count microseconds in an Int64. `InputEvent.time` and `Event.time` stay plain integers
/// (they are what a file or the wire carries); they are device times (`DeviceTime(of:)`).
public protocol ClockTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    var microseconds: Int64 { get }
    init(microseconds: Int64)
}

extension ClockTime {
    public static func < (left: Self, right: Self) -> Bool { left.microseconds < right.microseconds }

    /// The latest time the type can hold: "never" for a deadline.
    public static var distantFuture: Self { Self(microseconds: .max) }

    /// `time` moved on by `microseconds`, saturating rather than wrapping at the ends of the range.
    public static func + (time: Self, microseconds: Int64) -> Self {
        let (sum, overflow) = time.microseconds.addingReportingOverflow(microseconds)
        return Self(microseconds: overflow ? (microseconds > 0 ? .max : .min) : sum)
    }

    public static func - (time: Self, microseconds: Int64) -> Self { time + (microseconds == .min ? .max : -microseconds) }

    /// Microseconds from `earlier` to `later`, saturating.
    public static func - (later: Self, earlier: Self) -> Int64 {
        let (difference, overflow) = later.microseconds.subtractingReportingOverflow(earlier.microseconds)
        return overflow ? (later > earlier ? .max : .min) : difference
    }

    public var description: String { "\(microseconds) µs" }
}

/// A moment on this machine's CLOCK_MONOTONIC, in microseconds.
public struct HostTime: ClockTime {
    public let microseconds: Int64
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// The host time of a live device's moment: evdev stamps a live device's frames with
    /// CLOCK_MONOTONIC (the reader asks it to), so the two clocks are one.
    public init(sameInstantAs liveDeviceTime: DeviceTime) { microseconds = liveDeviceTime.microseconds }
}

/// A moment on a pen's clock, in microseconds: a frame's timestamp, a gesture's deadline.
public struct DeviceTime: ClockTime {
    public let microseconds: Int64
    public init(microseconds: Int64) { self.microseconds = microseconds }

    /// A live device's moment for a host time (see `HostTime(sameInstantAs:)`).
    public init(sameInstantAs hostTime: HostTime) { microseconds = hostTime.microseconds }
}
