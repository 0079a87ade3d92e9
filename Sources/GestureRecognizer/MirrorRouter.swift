import PencilInput
import PencilProtocol

/// What the mirror writes (docs/gestures.md, "What apps receive: gesture clicks withheld"): each
/// frame of the pen, less the clicks that make a gesture, and the clicks that turn out to be
/// none, passed on late.
///
/// Pure, and a stage of `PenPipeline`: it sees each evdev event before the tracker
/// (`observe`), and each frame after it (`process`), and appends the frames the mirror writes
/// to its output, as evdev events ending with SYN_REPORT. The gesture rules are not written
/// again here: the stage runs the deciding user's `GestureRecognizer` and follows what the
/// transitions of the machine whose clicks are held back (`MirrorTreatment`; the tap machine's)
/// mean (`MirrorMeaning`: a double-tap's second press, a long press, a click, a press held too
/// long, one moved away). What it adds are the contract's times for passing a click on
/// late, as deadlines like the recogniser's own:
///
///     held ──release within tapMaxDuration──▶ pending ──doubleTapInterval after its press──▶ press written ──as long
///      │                                        │                                               as it was held──▶ release written
///      │                                        ├──the tool leaving, a new first press──▶ written, press and release
///      │                                        │
///      │                                        └──a second press makes a double-tap──▶ withheld
///      ├──a double-tap's second press, a long press's squeeze──▶ withheld (with its release)
///      ├──tapMaxDuration held (not longPress), or beyond the slop then (longPress)──▶ written late
///      ├──the tip goes down──▶ written just before that frame
///      ├──released between tapMaxDuration and longPressDuration (longPress)──▶ written at its release
///      └──the tool leaves──▶ dropped, with its release
///
/// The buttons of machines whose treatment is `withheld` (squeezeButton, when it is a button of
/// its own) have all their events withheld. Every other event passes unchanged; a frame left
/// with only its SYN_REPORT is not written.
///
/// A double-tap or a squeeze whose action is switchEraser or switchPrevious, while no app holds
/// the user's focus, is performed here (`MirrorToolSwitch`): the tip is reported as the eraser,
/// or back.
public struct MirrorRouter: PenFrameStage, Sendable {
    public typealias Output = [InputEvent]

    /// The deciding user's recogniser: its transitions say what each press was.
    public private(set) var recognizer: GestureRecognizer
    /// The button whose clicks are held back until known (tapButton), and those withheld.
    private var heldBackCode: UInt16?
    private var withheldCodes: [UInt16] = []
    /// The held press may still become a long press (it has not moved away).
    private var heldPressAwaitsLongPress = false

    /// The held-back button's press (tapButton's) the mirror has not written, if any.
    private var heldPress: InputEvent?
    /// A click (press and release) that may still be a double-tap's first.
    private var pendingClick: (press: InputEvent, release: InputEvent)?
    /// The release of a click whose press was written late, at its time: as long after the
    /// press as the person held the button. A compositor gathers a tool's events into frames
    /// of its own (wlroots: those it reads together), and an app given a press and its release
    /// in one frame may see no click at all (Qt does not).
    private var lateRelease: InputEvent?
    /// The held-back button's next release belongs to a press that was withheld for good.
    private var withholdHeldBackRelease = false
    /// The gesture buttons' keys the mirror has written down and not up.
    private var mirrorDown: Set<UInt16> = []

    /// The evdev events of the frame in progress, and the previous frame's storage, swapped
    /// with it at each frame so that routing a frame allocates nothing.
    private var frameEvents: [InputEvent] = []
    private var routedEvents: [InputEvent] = []
    /// After SYN_DROPPED in a recording: events up to the next SYN_REPORT are dropped, as the
    /// tracker drops them.
    private var discarding = false

    /// The tip reported as the eraser, or as itself.
    private var toolSwitch: MirrorToolSwitch
    /// The deciding user's mirrorSwitchesTool.
    private let switchesTool: Bool
    /// An app of the deciding user holds the focus: it acts on gestures itself. Set by the owner
    /// when claims change; a squeeze keeps what it began with.
    public var appHoldsFocus = false
    /// The phased gesture in progress (a squeeze) is performed here (decided when it began).
    private var performingPhased = false
    /// The gesture of the last step (a frame, or the deadlines fired) that this mirror performs,
    /// if any: every stream sees its focus as `pen`.
    public private(set) var performedInStep: EventType?

    /// The tip is reported as the eraser now (docs/gestures.md, "The pen switches tool through
    /// its mirror").
    public var reportsEraser: Bool { toolSwitch.reportsEraser }

    public init(device: DeviceInfo, preferences: Preferences, identity: PenIdentity = .unknown) throws(InvalidPreferences) {
        recognizer = try GestureRecognizer(device: device, preferences: preferences, identity: identity)
        var buttons = MirroredButtons(settings: recognizer.settings)
        GestureMachines.visitTypes(&buttons)
        heldBackCode = buttons.heldBack
        withheldCodes = buttons.withheld
        toolSwitch = MirrorToolSwitch(identity: identity)
        switchesTool = preferences.mirrorSwitchesTool
        frameEvents.reserveCapacity(32)
        routedEvents.reserveCapacity(32)
    }

    /// Takes over `other`'s switch, when this router switches tools too (new preferences of the
    /// same deciding user, the pen idle): the switch lasts until the pen goes.
    public mutating func keepToolSwitch(of other: MirrorRouter) {
        if switchesTool { toolSwitch = other.toolSwitch }
        appHoldsFocus = other.appHoldsFocus
    }

    /// SetTipTool (docs/gestures.md, "The pen switches tool through its mirror", case 10): the
    /// tip reported as the eraser, or as itself, written into `output` at `time` when the tip
    /// is up. False when this mirror switches no tools (its user's mirrorSwitchesTool is off).
    public mutating func setTipTool(eraser: Bool, at time: Int64, into output: inout [InputEvent]) -> Bool {
        guard switchesTool else { return false }
        toolSwitch.request(eraser: eraser)
        toolSwitch.appendDueSwitch(to: &output, time: time)
        return true
    }

    fileprivate static func code(of button: PenButton?) -> UInt16? {
        switch button {
        case .stylus: return EventCode.BTN_STYLUS
        case .stylus2: return EventCode.BTN_STYLUS2
        case .stylus3: return EventCode.BTN_STYLUS3
        // The eraser button's swap is tool keys: it passes through (the tool's own events).
        case .eraser, nil: return nil
        }
    }

    // MARK: PenFrameStage

    public mutating func observe(_ event: InputEvent) {
        if event.type == EventCode.EV_SYN, event.code == EventCode.SYN_DROPPED {
            discarding = true
            frameEvents.removeAll(keepingCapacity: true)
            return
        }
        if discarding {
            if event.type == EventCode.EV_SYN, event.code == EventCode.SYN_REPORT { discarding = false }
            return
        }
        frameEvents.append(event)
    }

    /// The events gathered before the loss are dropped; the state libevdev replays next is the
    /// frame the mirror gets.
    public mutating func beginResynchronisation() {
        frameEvents.removeAll(keepingCapacity: true)
        discarding = false
    }

    public var nextDeadline: Int64? {
        // No array: the pipeline asks before every evdev event.
        var earliest = recognizer.nextDeadline
        if let pending = pendingDeadline, earliest.map({ pending < $0 }) ?? true { earliest = pending }
        if let held = heldPressDeadline, earliest.map({ held < $0 }) ?? true { earliest = held }
        if let release = lateRelease?.time, earliest.map({ release < $0 }) ?? true { earliest = release }
        return earliest
    }

    public mutating func process(_ frame: borrowing PenFrame, into output: inout [InputEvent]) {
        routedEvents.removeAll(keepingCapacity: true)
        performedInStep = nil
        switch frame.kind {
        case .added:
            return
        case .removed:
            // The mirror goes with the pen: whatever is held back or pending is dropped.
            heldPress = nil
            pendingClick = nil
            lateRelease = nil
            return
        case .forcedProximityOut:
            // A timer: no events of the device (those of a frame in progress stay gathered).
            break
        case .report:
            swap(&frameEvents, &routedEvents)
        }
        let taken: MirrorMeaning
        if recognizer.hasEraserSwap {
            taken = step { recognizer, events in recognizer.process(frame, into: &events) }
        } else {
            // The machines alone: the frame's own events are not copied out only to be dropped.
            recognizer.clearMirrorMeanings()
            recognizer.process(frame, gestures: &ignoredEvents, replacedGestures: &ignoredReplacedEvents)
            if !ignoredEvents.isEmpty { noteGestures() }
            ignoredEvents.removeAll(keepingCapacity: true)
            ignoredReplacedEvents.removeAll(keepingCapacity: true)
            taken = recognizer.mirrorMeanings
        }
        let raw = routedEvents
        let start = output.count
        route(raw, frame: frame, taken: taken, into: &output)
        toolSwitch.rewrite(&output, from: start, tool: frame.current.tool, tipDown: frame.current.tipDown, time: frame.time)
    }

    /// Fires every deadline of the stage due by `time`, earliest first (the recogniser's first
    /// on a tie), so that none is left behind for a frame to overtake.
    public mutating func advance(to time: Int64, into output: inout [InputEvent]) {
        performedInStep = nil
        while let deadline = nextDeadline, deadline <= time {
            let before = (recognizer.nextDeadline, pendingClick?.press, heldPress, lateRelease)
            fire(deadline, into: &output)
            // A deadline that did not move would loop forever: a bug, not a hang.
            if before.0 == recognizer.nextDeadline, before.1 == pendingClick?.press, before.2 == heldPress,
               before.3 == lateRelease { return }
        }
    }

    private mutating func fire(_ deadline: Int64, into output: inout [InputEvent]) {
        if recognizer.nextDeadline == deadline {
            // The long press became a squeeze: its press is withheld for good.
            let taken = step { recognizer, events in recognizer.advance(to: deadline, into: &events) }
            if taken.contains(.longPress), heldPress != nil {
                heldPress = nil
                withholdHeldBackRelease = true
            }
        } else if pendingDeadline == deadline, let click = pendingClick {
            // No second press came in time: the click reaches apps now, held as long as it was.
            pendingClick = nil
            writeLate(click.press, at: deadline, into: &output)
            let held = max(click.release.time - click.press.time, 1)
            lateRelease = InputEvent(time: deadline + held, type: click.release.type, code: click.release.code,
                                     value: click.release.value)
        } else if lateRelease?.time == deadline, let release = lateRelease {
            lateRelease = nil
            writeLate(release, at: deadline, into: &output)
        } else if heldPressDeadline == deadline, let press = heldPress {
            // Held on: a drag with the button held, starting late.
            heldPress = nil
            writeLate(press, at: deadline, into: &output)
        }
    }

    // MARK: Deadlines

    private var pendingDeadline: Int64? {
        pendingClick.map { $0.press.time + recognizer.settings.doubleTapInterval }
    }

    /// When a press still held back is passed on: tapMaxDuration after it, unless the long
    /// press may still make it a squeeze (then only once the pen is beyond the slop).
    private var heldPressDeadline: Int64? {
        guard let press = heldPress else { return nil }
        if heldPressAwaitsLongPress { return nil }
        return press.time + recognizer.settings.tapMaxDuration
    }

    // MARK: Routing a frame

    /// Runs the recogniser for one step and returns the transitions it took.
    private mutating func step(_ body: (inout GestureRecognizer, inout [Event]) -> Void) -> MirrorMeaning {
        recognizer.clearMirrorMeanings()
        body(&recognizer, &ignoredEvents)
        if !ignoredEvents.isEmpty { noteGestures() }
        ignoredEvents.removeAll(keepingCapacity: true)
        return recognizer.mirrorMeanings
    }

    /// The gestures of a step that this mirror performs: a one-shot gesture, or a phased one's
    /// end, whose action switches tools, while no app holds the focus.
    private mutating func noteGestures() {
        guard switchesTool else { return }
        for event in ignoredEvents {
            guard let gesture = Gesture(event.type) else { continue }
            guard gesture.isPhased else {
                if performs(event.action) {
                    toolSwitch.request()
                    performedInStep = event.type
                }
                continue
            }
            if event.phase == .began { performingPhased = performs(event.action) }
            if performingPhased {
                performedInStep = event.type
                if event.phase == .ended { toolSwitch.request() }
            }
            if event.phase == .ended || event.phase == .cancelled { performingPhased = false }
        }
    }

    private func performs(_ action: PreferredAction?) -> Bool {
        !appHoldsFocus && (action == .switchEraser || action == .switchPrevious)
    }

    /// The recogniser's own events, which the mirror does not need.
    private var ignoredEvents: [Event] = []
    private var ignoredReplacedEvents: [Event] = []

    private mutating func route(_ raw: [InputEvent], frame: borrowing PenFrame, taken: MirrorMeaning,
                                into output: inout [InputEvent]) {
        var before: [InputEvent] = []
        var dropHeldBackPress = false
        var dropHeldBackRelease = false

        let leaving = frame.previous.tool != nil && (frame.current.tool == nil || frame.replacedTool != nil)
        if let release = lateRelease,
           frame.resynchronised || leaving || raw.contains(where: { $0.type == EventCode.EV_KEY }) {
            // A late click's release not yet due goes before a frame with a key of its own (a
            // press, the tip) or in which its tool leaves: the click ends before what follows it.
            lateRelease = nil
            writeLate(release, at: frame.time, into: &output)
        }
        if frame.resynchronised {
            // The resynchronised state passes as one frame; what was held back is dropped.
            heldPress = nil
            pendingClick = nil
            withholdHeldBackRelease = false
        }
        let heldBackReleased = heldBackCode.map { code in raw.contains { $0.isKey(code, down: false) } } ?? false

        if taken.contains(.gestureMade) {
            // The second press of a double-tap: both clicks are withheld for good.
            pendingClick = nil
            dropHeldBackPress = true
            withholdHeldBackRelease = true
        }
        if taken.contains(.firstPress) {
            // A first press: a click still pending is no double-tap's first, and goes first.
            if let click = pendingClick {
                pendingClick = nil
                before += [click.press, click.release]
            }
            if let press = raw.first(where: { $0.isKey(heldBackCode, down: true) }) {
                heldPress = press
                heldPressAwaitsLongPress = recognizer.settings.longPress
                dropHeldBackPress = true
            }
        }
        if taken.contains(.click) {
            if let press = heldPress, let release = raw.first(where: { $0.isKey(heldBackCode, down: false) }) {
                // A click: pending until it is known not to be a double-tap's first.
                heldPress = nil
                pendingClick = (press, release)
                dropHeldBackRelease = true
            }
        }
        if taken.contains(.neither) {
            // Neither a click nor a squeeze (between tapMaxDuration and longPressDuration
            // under longPress): press and release at its release.
            if let press = heldPress {
                heldPress = nil
                before.append(press)
            }
        }
        if taken.contains(.movedAway) { heldPressAwaitsLongPress = false }
        if taken.contains(.movedAway), let press = heldPress,
           frame.time >= press.time + recognizer.settings.tapMaxDuration {
            // Held and beyond the slop after tapMaxDuration: a drag with the button held.
            heldPress = nil
            before.append(press)
        }
        if frame.current.tipDown, !frame.previous.tipDown, let press = heldPress {
            // The button used as a modifier of the stroke.
            heldPress = nil
            before.append(press)
        }
        if frame.current.tool == nil {
            // A barrel button with no tool in range is nobody's click.
            dropHeldBackPress = true
        }
        if leaving {
            if let click = pendingClick {
                pendingClick = nil
                before += [click.press, click.release]
            }
            if heldPress != nil {
                // Never written: dropped with its release.
                heldPress = nil
                dropHeldBackRelease = true
            }
        }
        if heldBackReleased, withholdHeldBackRelease, !dropHeldBackRelease {
            withholdHeldBackRelease = false
            dropHeldBackRelease = true
        }
        if leaving, let heldBackCode, mirrorDown.contains(heldBackCode), !heldBackReleased || dropHeldBackRelease {
            // A press the mirror wrote (a drag) is released before its tool leaves.
            before.append(InputEvent(time: frame.time, type: EventCode.EV_KEY, code: heldBackCode, value: 0))
            dropHeldBackRelease = true
        }

        for event in before {
            writeLate(event, at: frame.time, into: &output)
        }
        // The frame itself, less the withheld button events.
        let start = output.count
        var kept = 0
        for event in raw {
            if event.type == EventCode.EV_KEY {
                if !frame.resynchronised, withheldCodes.contains(event.code) { continue }
                if let heldBackCode, event.code == heldBackCode {
                    if event.value != 0, dropHeldBackPress { continue }
                    if event.value == 0, dropHeldBackRelease { continue }
                    // A release of a key the mirror never pressed would be a lone release.
                    if event.value == 0, !mirrorDown.contains(heldBackCode) { continue }
                }
            }
            noteKey(event)
            output.append(event)
            if event.type != EventCode.EV_SYN { kept += 1 }
        }
        if kept == 0 { output.removeSubrange(start...) }
    }

    /// A button event passed on late: a frame of its own, with no axis change, at `time`.
    private mutating func writeLate(_ event: InputEvent, at time: Int64, into output: inout [InputEvent]) {
        let key = InputEvent(time: time, type: event.type, code: event.code, value: event.value)
        noteKey(key)
        output.append(key)
        output.append(InputEvent(time: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
    }

    private mutating func noteKey(_ event: InputEvent) {
        guard event.type == EventCode.EV_KEY, event.code == heldBackCode || withheldCodes.contains(event.code) else { return }
        if event.value != 0 { mirrorDown.insert(event.code) } else { mirrorDown.remove(event.code) }
    }
}

/// The evdev codes of the machines' buttons, as the mirror treats them.
private struct MirroredButtons: GestureMachineTypeVisitor {
    let settings: GestureSettings
    var heldBack: UInt16?
    var withheld: [UInt16] = []

    mutating func visit<Machine: GestureMachine>(_: Machine.Type) {
        guard let code = MirrorRouter.code(of: Machine.button(in: settings)) else { return }
        switch Machine.mirror {
        case .withheld: withheld.append(code)
        case .heldBackUntilKnown:
            precondition(heldBack == nil, "two machines hold their clicks back")
            heldBack = code
        }
    }
}

private extension InputEvent {
    func isKey(_ code: UInt16?, down: Bool) -> Bool {
        guard let code, type == EventCode.EV_KEY, self.code == code else { return false }
        return down ? value == 1 : value == 0
    }
}

extension PenPipeline where Stage == MirrorRouter {
    /// What the mirror of a pen writes for a recording, under the deciding user's preferences
    /// (`pencilctl mirror`).
    public static func mirrorFrames(of events: [InputEvent], description: DeviceDescription,
                                    preferences: Preferences = .defaults, identity: PenIdentity = .unknown) throws(InvalidPreferences) -> [InputEvent] {
        let tracker = PenTracker(description: description, id: "mirror", identity: identity)
        var pipeline = PenPipeline(tracker: tracker, stage: try MirrorRouter(device: tracker.deviceInfo, preferences: preferences,
                                                                              identity: identity))
        var output: [InputEvent] = []
        pipeline.start(at: events.first?.time ?? 0, into: &output)
        for event in events { pipeline.feed(event, into: &output) }
        pipeline.finish(into: &output)
        return output
    }
}
