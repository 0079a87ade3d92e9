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

/// Plays a recording on the recording's clock (gestures.md, "Time in a replay"): events keep
/// their recorded times; only *when* they are handed out depends on the speed. The first
/// event is due at the host time the player starts; each later one after its recorded delay,
/// divided by the speed factor.
///
/// Pure: the player reads no clock. The owner passes host time in, and arms a timer for
/// `nextDueTime` (a deadline computed from the recording, never polled).
public struct RecordingPlayer: PenEventSource, Sendable {
    public let description: DeviceDescription
    public let speed: PlaybackSpeed
    private let events: [InputEvent]
    private let hostStart: Int64
    private let recordedStart: Int64
    private var nextIndex = 0
    /// A looping player starts again after its last event, its times moved on by the
    /// recording's length and a second (the daemon's demo pen); it never finishes.
    private let loops: Bool
    private var loopOffset: Int64 = 0
    private let loopLength: Int64

    public init(_ recording: EvemuRecording, speed: PlaybackSpeed, startingAt hostTime: Int64, loops: Bool = false) {
        description = recording.description
        events = recording.events
        self.speed = speed
        hostStart = hostTime
        recordedStart = recording.events.first?.time ?? 0
        self.loops = loops && !recording.events.isEmpty
        loopLength = ((recording.events.last?.time ?? 0) &- recordedStart).addingReportingOverflow(1_000_000).partialValue
    }

    /// All events have been handed out.
    public var isFinished: Bool { !loops && nextIndex >= events.count }

    /// The number of events not yet handed out (in this round, for a looping player).
    public var remainingCount: Int { events.count - nextIndex }

    /// The recorded time of the next event; nil when the recording has ended.
    public var nextEventTime: Int64? {
        if nextIndex < events.count { return events[nextIndex].time &+ loopOffset }
        return loops ? events[0].time &+ loopOffset &+ loopLength : nil
    }

    /// The host time at which the next event is due; nil when the recording has ended.
    public var nextDueTime: Int64? { nextEventTime.map(hostTime(forRecordedTime:)) }

    /// The host time at which something recorded at `recordedTime` is due: for timers of
    /// the recording's clock (a forced proximity-out, a long press) that the owner arms on
    /// the host clock.
    public func hostTime(forRecordedTime recordedTime: Int64) -> Int64 {
        let delay = recordedTime &- recordedStart
        guard delay > 0, speed.factor.isFinite else { return hostStart }
        if speed.factor == 1 { return hostStart.addingReportingOverflow(delay).overflow ? .max : hostStart + delay }
        let scaled = (Double(delay) / speed.factor).rounded(.up)
        guard scaled < Double(Int64.max - hostStart) else { return .max }
        return hostStart + Int64(scaled)
    }

    /// The latest recorded time due by host time `hostTime`: the inverse of
    /// `hostTime(forRecordedTime:)`, for timers that fall between events.
    public func recordedTime(atHostTime hostTime: Int64) -> Int64 {
        guard hostTime >= hostStart else { return recordedStart &- 1 }
        guard speed.factor.isFinite else { return .max }
        let elapsed = (Double(hostTime - hostStart) * speed.factor).rounded(.down)
        guard elapsed < Double(Int64.max) - Double(recordedStart) else { return .max }
        return recordedStart + Int64(elapsed)
    }

    /// Hands out the events due by `hostTime`, at most `limit` of them.
    public mutating func read(at hostTime: Int64, limit: Int, _ handle: (SourceItem) -> Void) -> SourceStatus {
        var handed = 0
        while true {
            if nextIndex >= events.count {
                guard loops else { return .finished }
                nextIndex = 0
                loopOffset = loopOffset &+ loopLength
            }
            if handed >= limit { return .more }
            var event = events[nextIndex]
            event.time = event.time &+ loopOffset
            guard self.hostTime(forRecordedTime: event.time) <= hostTime else { return .drained }
            nextIndex += 1
            handed += 1
            handle(.event(event))
        }
    }
}
