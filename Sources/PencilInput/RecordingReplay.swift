import PencilProtocol

/// What runs after the pen tracker on each frame: the gesture recogniser adds its events to
/// a frame and may ask to be woken at a deadline (a long press). `PenEventsOnly` adds
/// nothing.
public protocol PenFrameStage {
    /// The frame's events as reported, gestures included (`PenFrame.merging`).
    mutating func events(for frame: PenFrame) -> [Event]
    /// When the stage wants `fire(at:)` if no frame comes first, or nil.
    var nextDeadline: Int64? { get }
    /// The stage's timer fired: the events it reports at `time`, its deadline.
    mutating func fire(at time: Int64) -> [Event]
}

/// The pen events alone, without gestures.
public struct PenEventsOnly: PenFrameStage {
    public init() {}
    public func events(for frame: PenFrame) -> [Event] { frame.events }
    public var nextDeadline: Int64? { nil }
    public func fire(at time: Int64) -> [Event] { [] }
}

/// Runs a whole recording through a tracker and a stage on the recording's clock, as the
/// daemon would report it (gestures.md, "Time in a replay"): deviceAdded at the first
/// event's time; before each event, every timer whose deadline that event's time has reached
/// fires, at its deadline; after the last event the device is removed, and timers that have
/// not fired never do.
public struct RecordingReplay {
    public static func run<Stage: PenFrameStage>(_ recording: EvemuRecording, id: String, stage: inout Stage,
                                                 emit: (Event) -> Void) {
        var tracker = PenTracker(description: recording.description, id: id)
        var frame = PenFrame()
        tracker.start(at: recording.events.first?.time ?? 0, into: &frame)
        stage.events(for: frame).forEach(emit)
        for event in recording.events {
            fireTimers(upTo: event.time, tracker: &tracker, stage: &stage, frame: &frame, emit: emit)
            if tracker.feed(event, into: &frame) {
                stage.events(for: frame).forEach(emit)
            }
        }
        tracker.remove(into: &frame)
        stage.events(for: frame).forEach(emit)
    }

    /// The events of a recording, without gestures (tests and tools).
    public static func penEvents(of recording: EvemuRecording, id: String = "replay0") -> [Event] {
        var stage = PenEventsOnly()
        var events: [Event] = []
        run(recording, id: id, stage: &stage) { events.append($0) }
        return events
    }

    /// Fires the tracker's and the stage's timers due by `time`, earliest first.
    public static func fireTimers<Stage: PenFrameStage>(upTo time: Int64, tracker: inout PenTracker, stage: inout Stage,
                                                        frame: inout PenFrame, emit: (Event) -> Void) {
        // Each firing clears or moves its deadline; the bound only guards against a stage
        // that does neither.
        for _ in 0..<64 {
            let trackerDeadline = tracker.nextDeadline.flatMap { $0 <= time ? $0 : nil }
            let stageDeadline = stage.nextDeadline.flatMap { $0 <= time ? $0 : nil }
            switch (trackerDeadline, stageDeadline) {
            case (nil, nil):
                return
            case let (tracked?, staged) where staged == nil || tracked <= staged!:
                guard tracker.advance(to: tracked, into: &frame) else { return }
                stage.events(for: frame).forEach(emit)
            case let (_, staged?):
                stage.fire(at: staged).forEach(emit)
                if stage.nextDeadline == staged { return }
            default:
                return
            }
        }
    }
}
