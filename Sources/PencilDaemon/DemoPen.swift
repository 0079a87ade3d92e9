import GestureRecognizer
import PencilInput
import PencilProtocol
import PencilTime

/// The built-in demo pen (`--demo`): a recording written here, in code, of a person who
/// hovers, draws two strokes and leaves, in a loop. It makes no gesture by itself: one is
/// played on request (`PlayGesture`, `pencilctl try`), so that a person trying an app sees
/// a gesture when they ask for one, not every few seconds.
enum DemoPen {
    static let id = "demo0"
    static let frameInterval: Int64 = 5_000 // 200 Hz, like many pen tablets
    /// A tilt that wobbles a little, as a hand does: a hovering pen keeps sending frames.
    static func tilt(step: Int) -> Int32 { Int32(step % 20) - 10 }

    static let description: DeviceDescription = {
        var description = DeviceDescription(name: "pencild demo pen", bus: 0x03, vendor: 0, product: 0)
        for key in [EventCode.BTN_TOOL_PEN, EventCode.BTN_TOUCH, EventCode.BTN_STYLUS, EventCode.BTN_STYLUS2, EventCode.BTN_STYLUS3] {
            description.enable(type: EventCode.EV_KEY, code: key)
        }
        description.enableAbs(EventCode.ABS_X, AbsInfo(minimum: 0, maximum: 20_000, resolution: 100))
        description.enableAbs(EventCode.ABS_Y, AbsInfo(minimum: 0, maximum: 12_500, resolution: 100))
        description.enableAbs(EventCode.ABS_PRESSURE, AbsInfo(minimum: 0, maximum: 2047))
        description.enableAbs(EventCode.ABS_DISTANCE, AbsInfo(minimum: 0, maximum: 63))
        description.enableAbs(EventCode.ABS_TILT_X, AbsInfo(minimum: -64, maximum: 63, resolution: 57))
        description.enableAbs(EventCode.ABS_TILT_Y, AbsInfo(minimum: -64, maximum: 63, resolution: 57))
        description.enable(type: EventCode.EV_SYN, code: EventCode.SYN_REPORT)
        return description
    }()

    /// One round of the loop, from 1 s on its clock.
    static func loop() -> [InputEvent] {
        var script = Script(time: 1_000_000)
        script.frame([(EventCode.EV_KEY, EventCode.BTN_TOOL_PEN, 1), (EventCode.EV_ABS, EventCode.ABS_X, 4000), (EventCode.EV_ABS, EventCode.ABS_Y, 4000), (EventCode.EV_ABS, EventCode.ABS_DISTANCE, 30)])
        script.move(to: (6000, 5000), frames: 80)
        for stroke in 0..<2 {
            script.press(to: 1200, frames: 10)
            script.move(to: (stroke == 0 ? 12000 : 8000, stroke == 0 ? 6000 : 9000), frames: 120)
            script.press(to: 0, frames: 10)
            script.move(to: (9000, 6000), frames: 40)
        }
        script.move(to: (11000, 8000), frames: 80)
        script.frame([(EventCode.EV_KEY, EventCode.BTN_TOOL_PEN, 0)])
        return script.events
    }

    /// The evdev code of a barrel button the demo pen has; nil for `eraser`, which it lacks.
    static func code(of button: PenButton) -> UInt16? {
        switch button {
        case .stylus: return EventCode.BTN_STYLUS
        case .stylus2: return EventCode.BTN_STYLUS2
        case .stylus3: return EventCode.BTN_STYLUS3
        case .eraser: return nil
        }
    }

    /// Frames on the pen's clock.
    struct Script {
        var events: [InputEvent] = []
        var time: Int64
        var position: (Int32, Int32) = (4000, 4000)
        var pressure: Int32 = 0

        init(time: Int64, position: (Int32, Int32) = (4000, 4000), pressure: Int32 = 0) {
            self.time = time
            self.position = position
            self.pressure = pressure
        }

        mutating func frame(_ changes: [(UInt16, UInt16, Int32)]) {
            for (type, code, value) in changes { events.append(InputEvent(time: time, type: type, code: code, value: value)) }
            events.append(InputEvent(time: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
            time += DemoPen.frameInterval
        }

        mutating func move(to target: (Int32, Int32), frames: Int) {
            let start = position
            for step in 1...frames {
                let x = start.0 + (target.0 - start.0) * Int32(step) / Int32(frames)
                let y = start.1 + (target.1 - start.1) * Int32(step) / Int32(frames)
                position = (x, y)
                frame([(EventCode.EV_ABS, EventCode.ABS_X, x), (EventCode.EV_ABS, EventCode.ABS_Y, y),
                       (EventCode.EV_ABS, EventCode.ABS_TILT_X, DemoPen.tilt(step: step))])
            }
        }

        mutating func press(to target: Int32, frames: Int) {
            let start = pressure
            for step in 1...frames {
                pressure = start + (target - start) * Int32(step) / Int32(frames)
                frame([(EventCode.EV_ABS, EventCode.ABS_PRESSURE, pressure), (EventCode.EV_ABS, EventCode.ABS_DISTANCE, pressure > 0 ? 0 : 10),
                       (EventCode.EV_KEY, EventCode.BTN_TOUCH, pressure > 0 ? 1 : 0)])
            }
        }

        /// The pen held still above the tablet until `end`, one frame each interval.
        mutating func hover(until end: Int64) {
            var step = 0
            while time < end {
                step += 1
                frame([(EventCode.EV_ABS, EventCode.ABS_TILT_X, DemoPen.tilt(step: step))])
            }
        }

        /// A gesture's button changes, each in a frame of its own at its exact time from now
        /// (a click may be shorter than a frame), the pen held still and hovering between
        /// them one frame each interval.
        mutating func play(_ gesture: GestureDemonstration.Script) {
            let start = time
            var hoverTime = start
            var step = 0
            for change in gesture.changes {
                let at = start + change.offset
                while hoverTime < at {
                    step += 1
                    frame(at: hoverTime, [(EventCode.EV_ABS, EventCode.ABS_TILT_X, DemoPen.tilt(step: step))])
                    hoverTime += DemoPen.frameInterval
                }
                if let code = DemoPen.code(of: change.button) { frame(at: at, [(EventCode.EV_KEY, code, change.down ? 1 : 0)]) }
                if hoverTime == at { hoverTime += DemoPen.frameInterval }
            }
            time = max(hoverTime, start + gesture.duration + DemoPen.frameInterval)
        }

        private mutating func frame(at frameTime: Int64, _ changes: [(UInt16, UInt16, Int32)]) {
            for (type, code, value) in changes { events.append(InputEvent(time: frameTime, type: type, code: code, value: value)) }
            events.append(InputEvent(time: frameTime, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
        }
    }
}

/// The demo pen's source: its loop, and the gestures asked for, each played at once (after
/// those asked before it) by cutting the loop where it stands. The pen lifts its tip or
/// comes into range as needed, holds still, makes the gesture, hovers a moment and leaves;
/// the loop starts again a second later. Pure, on its own clock (real time, mapped to host
/// time from the moment it starts), like `RecordingPlayer`.
struct DemoPenPlayer: PenEventSource {
    typealias ReadError = Never

    let description = DemoPen.description
    let speed = PlaybackSpeed.realTime
    private let loop = DemoPen.loop()
    /// A round of the loop lasts this long, the second out of range after it included.
    private let loopLength: Int64
    /// The device time of the loop's first event: the clock at `hostStart`.
    private let deviceStart: DeviceTime
    /// When playing began; nil until the first monitor.
    private var hostStart: HostTime?
    /// The events to come, on the pen's clock; `next` is the first not handed out.
    private var upcoming: [InputEvent]
    private var next = 0
    /// Where the loop's next round begins, once `upcoming` is spent.
    private var nextRound: Int64
    /// The time of the last event handed out.
    private var lastTime: Int64
    /// The pen as the events handed out left it.
    private(set) var pen = Pen()
    /// The gestures of the interlude under way, and where its leaving begins in `upcoming`:
    /// a gesture asked for while the others play goes there.
    private var interlude: (gestures: Int, leaving: Int, position: (Int32, Int32))?

    /// At most this many gestures wait at once.
    static let maximumQueued = 4
    /// The pen holds still this long before a gesture, and between two.
    static let settle: Int64 = 150_000
    /// It hovers this long after the last gesture before it leaves.
    static let linger: Int64 = 300_000

    struct Pen {
        var inProximity = false
        var touching = false
        var position: (x: Int32, y: Int32) = (4000, 4000)
        var pressure: Int32 = 0
        var held: Set<UInt16> = []
    }

    init() {
        let first = loop.first?.time ?? 0
        deviceStart = DeviceTime(microseconds: first)
        loopLength = (loop.last?.time ?? first) - first + 1_000_000
        upcoming = loop
        nextRound = first + loopLength
        lastTime = first - DemoPen.frameInterval
    }

    var isStarted: Bool { hostStart != nil }

    mutating func start(at hostTime: HostTime) {
        guard hostStart == nil else { return }
        hostStart = hostTime
    }

    /// The device time of the next event (the loop never ends).
    var nextEventTime: DeviceTime? {
        next < upcoming.count ? DeviceTime(microseconds: upcoming[next].time) : DeviceTime(microseconds: nextRound)
    }

    /// The host time at which the next event is due; nil until started.
    var nextDueTime: HostTime? { hostStart == nil ? nil : nextEventTime.map(hostTime(for:)) }

    func hostTime(for deviceTime: DeviceTime) -> HostTime {
        guard let hostStart else { return .distantFuture }
        let delay = deviceTime - deviceStart
        return delay > 0 ? hostStart + delay : hostStart
    }

    func deviceTime(at hostTime: HostTime) -> DeviceTime {
        guard let hostStart, hostTime >= hostStart else { return deviceStart - 1 }
        return deviceStart + (hostTime - hostStart)
    }

    mutating func read(at hostTime: HostTime, limit: Int, _ handle: (SourceItem) -> Void) -> SourceStatus {
        guard hostStart != nil else { return .drained }
        var handed = 0
        while true {
            if next >= upcoming.count { beginRound() }
            if handed >= limit { return .more }
            let event = upcoming[next]
            guard self.hostTime(for: DeviceTime(of: event)) <= hostTime else { return .drained }
            next += 1
            handed += 1
            follow(event)
            handle(.event(event))
        }
    }

    /// The loop again, from `nextRound`.
    private mutating func beginRound() {
        let shift = nextRound - (loop.first?.time ?? 0)
        upcoming = loop.map { event in
            var moved = event
            moved.time += shift
            return moved
        }
        next = 0
        nextRound += loopLength
        interlude = nil
    }

    private mutating func follow(_ event: InputEvent) {
        lastTime = event.time
        switch (event.type, event.code) {
        case (EventCode.EV_KEY, EventCode.BTN_TOOL_PEN): pen.inProximity = event.value != 0
        case (EventCode.EV_KEY, EventCode.BTN_TOUCH): pen.touching = event.value != 0
        case (EventCode.EV_KEY, _):
            if event.value != 0 { pen.held.insert(event.code) } else { pen.held.remove(event.code) }
        case (EventCode.EV_ABS, EventCode.ABS_X): pen.position.x = event.value
        case (EventCode.EV_ABS, EventCode.ABS_Y): pen.position.y = event.value
        case (EventCode.EV_ABS, EventCode.ABS_PRESSURE): pen.pressure = event.value
        default: break
        }
    }

    enum Busy: Error, Equatable {
        case tooManyQueued(Int)
    }

    /// Plays `gesture` as soon as it can: after the gestures already asked for, or from the
    /// next frame at host time `now`.
    mutating func play(_ gesture: GestureDemonstration.Script, now: HostTime) throws(Busy) {
        var script: DemoPen.Script
        var queued = 0
        if let interlude, next <= interlude.leaving {
            // Gestures are playing: this one follows them, before the pen leaves.
            guard interlude.gestures < Self.maximumQueued else { throw .tooManyQueued(Self.maximumQueued) }
            queued = interlude.gestures
            let at = interlude.leaving < upcoming.count ? upcoming[interlude.leaving].time : lastTime + DemoPen.frameInterval
            upcoming.removeSubrange(interlude.leaving...)
            script = DemoPen.Script(time: at, position: interlude.position)
        } else {
            // Cut the loop (or the pen's leaving) where it stands.
            let at = max(lastTime + DemoPen.frameInterval, deviceTime(at: now).microseconds)
            upcoming.removeSubrange(next...)
            script = DemoPen.Script(time: at, position: (pen.position.x, pen.position.y), pressure: pen.pressure)
            if pen.touching || pen.pressure > 0 { script.press(to: 0, frames: 10) }
            if !pen.held.isEmpty { script.frame(pen.held.sorted().map { (EventCode.EV_KEY, $0, 0) }) }
            if !pen.inProximity {
                script.frame([(EventCode.EV_KEY, EventCode.BTN_TOOL_PEN, 1), (EventCode.EV_ABS, EventCode.ABS_X, pen.position.x),
                              (EventCode.EV_ABS, EventCode.ABS_Y, pen.position.y), (EventCode.EV_ABS, EventCode.ABS_DISTANCE, 30)])
            }
        }
        script.hover(until: script.time + Self.settle)
        script.play(gesture)
        let leaving = upcoming.count + script.events.count
        script.hover(until: script.time + Self.linger)
        script.frame([(EventCode.EV_KEY, EventCode.BTN_TOOL_PEN, 0)])
        upcoming += script.events
        interlude = (queued + 1, leaving, script.position)
        // The loop begins again a second after the pen left.
        nextRound = script.time + 1_000_000 - DemoPen.frameInterval
    }
}
