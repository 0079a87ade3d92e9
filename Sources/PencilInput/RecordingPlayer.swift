import PencilTime

/// How fast a recording plays: a factor of real time, or as fast as the reader reads.
public struct PlaybackSpeed: Equatable, Sendable {
    /// Recorded seconds per host second; infinite for as fast as possible.
    public let factor: Double

    public static let realTime = PlaybackSpeed(checkedFactor: 1)
    public static let asFastAsPossible = PlaybackSpeed(checkedFactor: .infinity)

    /// nil unless `factor` is positive (infinity plays as fast as possible).
    public init?(factor: Double) {
        guard factor > 0, !factor.isNaN else { return nil }
        self.factor = factor
    }

    private init(checkedFactor: Double) { factor = checkedFactor }
}

/// Plays a recording on the recording's clock (docs/gestures.md, "Time in a replay"): events keep
/// their recorded times, which are the replayed device's times (`DeviceTime`); only *when*
/// they are handed out (`HostTime`) depends on the speed. The first event is due at the host
/// time the player starts; each later one after its recorded delay, divided by the speed
/// factor. The two conversions between the clocks are here and nowhere else.
///
/// Pure: the player reads no clock. The owner passes host time in, and arms a timer for
/// `nextDueTime` (a deadline computed from the recording, never polled).
public struct RecordingPlayer: PenEventSource, Sendable {
    /// A replay cannot fail to read.
    public typealias ReadError = Never

    public let description: DeviceDescription
    public let speed: PlaybackSpeed
    private let events: [InputEvent]
    private let hostStart: HostTime
    /// The device time of the recording's first event: the device clock at `hostStart`.
    private let deviceStart: DeviceTime
    private var nextIndex = 0

    public init(_ recording: EvemuRecording, speed: PlaybackSpeed, startingAt hostTime: HostTime) {
        description = recording.description
        events = recording.events
        self.speed = speed
        hostStart = hostTime
        let firstTime = recording.events.first?.time ?? 0
        deviceStart = DeviceTime(microseconds: firstTime)
    }

    /// All events have been handed out.
    public var isFinished: Bool { nextIndex >= events.count }

    /// The number of events not yet handed out.
    public var remainingCount: Int { events.count - nextIndex }

    /// The device time of the next event; nil when the recording has ended.
    public var nextEventTime: DeviceTime? {
        nextIndex < events.count ? DeviceTime(microseconds: events[nextIndex].time) : nil
    }

    /// The host time at which the next event is due; nil when the recording has ended.
    public var nextDueTime: HostTime? { nextEventTime.map(hostTime(for:)) }

    /// The host time at which the replayed device's `deviceTime` comes: for timers on the
    /// recording's clock (a forced proximity-out, a long press) that the owner arms on the
    /// host clock.
    public func hostTime(for deviceTime: DeviceTime) -> HostTime {
        let delay = deviceTime - deviceStart
        guard delay > 0, speed.factor.isFinite else { return hostStart }
        if speed.factor == 1 { return hostStart + delay }
        let scaled = (Double(delay) / speed.factor).rounded(.up)
        guard scaled < Double(HostTime.distantFuture - hostStart) else { return .distantFuture }
        return hostStart + Int64(scaled)
    }

    /// The latest device time due by `hostTime`: the inverse of `hostTime(for:)`, for timers
    /// that fall between events.
    public func deviceTime(at hostTime: HostTime) -> DeviceTime {
        guard hostTime >= hostStart else { return deviceStart - 1 }
        guard speed.factor.isFinite else { return .distantFuture }
        let elapsed = (Double(hostTime - hostStart) * speed.factor).rounded(.down)
        guard elapsed < Double(DeviceTime.distantFuture - deviceStart) else { return .distantFuture }
        return deviceStart + Int64(elapsed)
    }

    /// Hands out the events due by `hostTime`, at most `limit` of them.
    public mutating func read(at hostTime: HostTime, limit: Int, _ handle: (SourceItem) -> Void) -> SourceStatus {
        var handed = 0
        while true {
            guard nextIndex < events.count else { return .finished }
            if handed >= limit { return .more }
            let event = events[nextIndex]
            guard self.hostTime(for: DeviceTime(of: event)) <= hostTime else { return .drained }
            nextIndex += 1
            handed += 1
            handle(.event(event))
        }
    }
}
