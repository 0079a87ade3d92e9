import PencilInput
import PencilProtocol

/// One device's whole pure pipeline: a `PenTracker` followed by a `GestureRecognizer`,
/// giving the protocol's events in contract order, gestures included.
///
/// Time rule (the same for a replay, `pencilctl events` and the daemon): before an event is
/// fed, every deadline of either component at or before the event's time fires, earliest
/// first (the tracker's first on a tie); deadlines after the last frame never fire. Events
/// are appended to the caller's array; a warm pipeline allocates nothing per frame.
public struct PenPipeline: Sendable {
    public private(set) var tracker: PenTracker
    public private(set) var recognizer: GestureRecognizer
    private var frame = PenFrame()
    private var gestures: [Event] = []
    private var replacedGestures: [Event] = []

    public init(description: DeviceDescription, id: String, preferences: Preferences = .defaults) throws(InvalidPreferences) {
        tracker = PenTracker(description: description, id: id)
        recognizer = try GestureRecognizer(device: tracker.deviceInfo, preferences: preferences)
        gestures.reserveCapacity(8)
        replacedGestures.reserveCapacity(4)
    }

    /// The device's deviceAdded.
    public mutating func start(at time: Int64, into output: inout [Event]) {
        tracker.start(at: time, into: &frame)
        emitFrame(into: &output)
    }

    /// Fires what is due at or before `event.time`, then feeds the event.
    public mutating func feed(_ event: InputEvent, into output: inout [Event]) {
        advance(to: event.time, into: &output)
        if tracker.feed(event, into: &frame) {
            emitFrame(into: &output)
        }
    }

    /// The earlier of the two components' deadlines, or nil.
    public var nextDeadline: Int64? {
        switch (tracker.nextDeadline, recognizer.nextDeadline) {
        case let (a?, b?): return min(a, b)
        case let (a?, nil): return a
        case let (nil, b?): return b
        case (nil, nil): return nil
        }
    }

    /// Fires every deadline at or before `time`, earliest first.
    public mutating func advance(to time: Int64, into output: inout [Event]) {
        while let deadline = nextDeadline, deadline <= time {
            if let trackerDeadline = tracker.nextDeadline, trackerDeadline == deadline {
                guard tracker.advance(to: deadline, into: &frame) else { return }
                emitFrame(into: &output)
            } else {
                let before = recognizer.nextDeadline
                recognizer.advance(to: deadline, into: &output)
                // A deadline that does not move would loop forever: stop instead.
                guard recognizer.nextDeadline != before else { return }
            }
        }
    }

    /// The device went away (or the replay ended): closes what is open and ends with
    /// deviceRemoved. Deadlines not yet fired never fire.
    public mutating func finish(into output: inout [Event]) {
        tracker.remove(into: &frame)
        emitFrame(into: &output)
    }

    /// See `GestureRecognizer.setPreferences`: a squeeze cut short by new rules is cancelled.
    public mutating func setPreferences(_ preferences: Preferences, at time: Int64, into output: inout [Event]) throws(InvalidPreferences) {
        try recognizer.setPreferences(preferences, at: time, into: &output)
    }

    /// Everything a new subscriber needs to reach the current state.
    public func catchUpEvents(at time: Int64) -> [Event] {
        tracker.catchUpEvents(at: time) + recognizer.catchUpEvents(at: time)
    }

    /// The frame's events with the gestures at their places, without building a new array.
    private mutating func emitFrame(into output: inout [Event]) {
        gestures.removeAll(keepingCapacity: true)
        replacedGestures.removeAll(keepingCapacity: true)
        recognizer.process(frame, gestures: &gestures, replacedGestures: &replacedGestures)
        let events = frame.events
        let count = events.count
        let replacedAt = min(max(frame.replacedGestureIndex, 0), count)
        let gesturesAt = min(max(frame.gestureIndex, 0), count)
        if replacedAt <= gesturesAt {
            output.append(contentsOf: events[0..<replacedAt])
            output.append(contentsOf: replacedGestures)
            output.append(contentsOf: events[replacedAt..<gesturesAt])
            output.append(contentsOf: gestures)
            output.append(contentsOf: events[gesturesAt..<count])
        } else {
            output.append(contentsOf: events[0..<gesturesAt])
            output.append(contentsOf: gestures)
            output.append(contentsOf: events[gesturesAt..<replacedAt])
            output.append(contentsOf: replacedGestures)
            output.append(contentsOf: events[replacedAt..<count])
        }
    }
}

extension PenPipeline {
    /// A whole replay: deviceAdded at the first event's time, every event, then the close-out.
    public static func events(of recording: [InputEvent], description: DeviceDescription, id: String = "replay0",
                              preferences: Preferences = .defaults) throws(InvalidPreferences) -> [Event] {
        var pipeline = try PenPipeline(description: description, id: id, preferences: preferences)
        var output: [Event] = []
        pipeline.start(at: recording.first?.time ?? 0, into: &output)
        for event in recording {
            pipeline.feed(event, into: &output)
        }
        pipeline.finish(into: &output)
        return output
    }
}
