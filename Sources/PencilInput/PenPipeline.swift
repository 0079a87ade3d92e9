import PencilProtocol

/// What follows the PenTracker on every frame: the gesture recogniser adds double-taps and
/// squeezes at the frame's places and may ask to be woken at a deadline (a long press).
/// `PenEventsOnly` adds nothing. A stage's `Output` is where its events go: a list of events
/// for one reader, or one list per user in the daemon.
public protocol PenFrameStage {
    associatedtype Output = [Event]
    /// Appends the frame's events to `output`, with the stage's own at their places.
    mutating func process(_ frame: borrowing PenFrame, into output: inout Output)
    /// When the stage wants `advance(to:into:)` if no frame comes first, or nil.
    var nextDeadline: Int64? { get }
    /// The stage's timer fired: appends what it reports at its deadline.
    mutating func advance(to time: Int64, into output: inout Output)
    /// What a new subscriber needs from the stage, after the tracker's catch-up events.
    func catchUpEvents(at time: Int64) -> [Event]
    /// Each evdev event as it comes, before the tracker sees it: for a stage that passes the
    /// device's own events on (the mirror of docs/gestures.md, "What apps receive").
    mutating func observe(_ event: InputEvent)
    /// A live source lost events (SYN_DROPPED) and replays the device's state next.
    mutating func beginResynchronisation()
}

extension PenFrameStage {
    public func catchUpEvents(at time: Int64) -> [Event] { [] }
    @inline(__always)
    public mutating func observe(_ event: InputEvent) {}
    public mutating func beginResynchronisation() {}
}

/// The pen events alone, without gestures.
public struct PenEventsOnly: PenFrameStage {
    public init() {}
    public func process(_ frame: borrowing PenFrame, into output: inout [Event]) {
        output.append(contentsOf: frame.events)
    }
    public var nextDeadline: Int64? { nil }
    public func advance(to time: Int64, into output: inout [Event]) {}
}

/// One device's pure pipeline: a PenTracker and the stage after it, giving the protocol's
/// events in contract order. The daemon, `pencilctl events`, replays and tests all run
/// devices through it: the timer rule below exists here and nowhere else.
///
/// The time rule, the same for a replay, `pencilctl events` and the daemon: before an event
/// is fed, every deadline of the tracker or the stage at or before the event's time fires,
/// earliest first (the tracker's first on a tie), at its deadline; deadlines after the last
/// frame never fire. Events are appended to the caller's array: a warm pipeline whose stage
/// allocates nothing allocates nothing per frame.
public struct PenPipeline<Stage: PenFrameStage> {
    public private(set) var tracker: PenTracker
    /// The stage, settable so that its owner can change it between frames (new preferences).
    public var stage: Stage
    private var frame = PenFrame()
    /// The latest deadline the stage fired at: a close-out is never stamped earlier.
    private var latestStageTimer: Int64?

    public init(tracker: PenTracker, stage: Stage) {
        self.tracker = tracker
        self.stage = stage
    }

    /// The device's deviceAdded.
    public mutating func start(at time: Int64, into output: inout Stage.Output) {
        tracker.start(at: time, into: &frame)
        stage.process(frame, into: &output)
    }

    /// Fires what is due at or before `event.time`, then feeds the event.
    public mutating func feed(_ event: InputEvent, into output: inout Stage.Output) {
        advance(to: event.time, into: &output)
        stage.observe(event)
        if tracker.feed(event, into: &frame) {
            stage.process(frame, into: &output)
        }
    }

    /// Names the device's mirror (nil: none) for its deviceAdded and ListDevices.
    public mutating func setMirrorName(_ name: String?) {
        tracker.mirrorName = name
    }

    /// Live sources: libevdev is about to replay the device's real state after SYN_DROPPED.
    public mutating func beginResynchronisation() {
        tracker.beginResynchronisation()
        stage.beginResynchronisation()
    }

    /// The earlier of the tracker's and the stage's deadlines, or nil.
    public var nextDeadline: Int64? {
        switch (tracker.nextDeadline, stage.nextDeadline) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }

    /// Fires every deadline at or before `time`, earliest first, each at its deadline.
    public mutating func advance(to time: Int64, into output: inout Stage.Output) {
        while let deadline = nextDeadline, deadline <= time {
            if tracker.nextDeadline == deadline {
                guard tracker.advance(to: deadline, into: &frame) else { return }
                stage.process(frame, into: &output)
            } else {
                stage.advance(to: deadline, into: &output)
                latestStageTimer = deadline
                // A deadline that does not move would loop forever: a stage bug, not a hang.
                guard stage.nextDeadline != deadline else { return }
            }
        }
    }

    /// The device went away (or the replay ended): closes what is open and ends with
    /// deviceRemoved. Deadlines not yet fired never fire.
    public mutating func finish(into output: inout Stage.Output) {
        tracker.remove(latestTimer: latestStageTimer, into: &frame)
        stage.process(frame, into: &output)
    }

    /// Everything a new subscriber needs to reach the current state.
    public func catchUpEvents(at time: Int64) -> [Event] {
        tracker.catchUpEvents(at: time) + stage.catchUpEvents(at: time)
    }

}

extension PenPipeline where Stage.Output == [Event] {
    /// A whole recording: deviceAdded at the first event's time, every event, then the
    /// close-out, as the daemon reports a replay (docs/gestures.md, "Time in a replay").
    public static func events(of events: [InputEvent], pipeline: consuming PenPipeline) -> [Event] {
        var pipeline = pipeline
        var output: [Event] = []
        output.reserveCapacity(events.count / 2)
        pipeline.start(at: events.first?.time ?? 0, into: &output)
        for event in events {
            pipeline.feed(event, into: &output)
        }
        pipeline.finish(into: &output)
        return output
    }
}

extension PenPipeline where Stage == PenEventsOnly {
    public init(description: DeviceDescription, id: String) {
        self.init(tracker: PenTracker(description: description, id: id), stage: PenEventsOnly())
    }

    /// The pen events of a recording, without gestures (tests and tools).
    public static func penEvents(of recording: EvemuRecording, id: String = "replay0") -> [Event] {
        events(of: recording.events, pipeline: PenPipeline(description: recording.description, id: id))
    }
}

extension PenFrame {
    /// Appends the frame's events to `output` with `gestures` at `gestureIndex` and
    /// `replacedGestures` at `replacedGestureIndex`, building no array of its own.
    public func appendEvents(gestures: [Event], replacedGestures: [Event], into output: inout [Event]) {
        if gestures.isEmpty, replacedGestures.isEmpty {
            // Most frames: the pen's events alone, in one append.
            output.append(contentsOf: events)
            return
        }
        let count = events.count
        let replacedAt = min(max(replacedGestureIndex, 0), count)
        let gesturesAt = min(max(gestureIndex, 0), count)
        let (firstAt, first, secondAt, second) = replacedAt <= gesturesAt
            ? (replacedAt, replacedGestures, gesturesAt, gestures)
            : (gesturesAt, gestures, replacedAt, replacedGestures)
        output.append(contentsOf: events[0..<firstAt])
        output.append(contentsOf: first)
        output.append(contentsOf: events[firstAt..<secondAt])
        output.append(contentsOf: second)
        output.append(contentsOf: events[secondAt..<count])
    }
}
