import PencilInput
import PencilProtocol

/// Recognises double-taps and squeezes on one device under one user's preferences
/// (docs/gestures.md "Double-tap" and "Squeeze"), frame by frame after a `PenTracker`.
///
/// Pure: no clock and no I/O. Time comes with the frames; the long press is a deadline the
/// owner reads from `nextDeadline` and delivers with `advance(to:into:)` before feeding any
/// frame at or after it. Events are appended to arrays the caller owns and reuses, so a warm
/// recogniser allocates nothing per frame.
///
/// The machines do the work, one per gesture (`GestureMachines`; docs/gestures.md has their
/// diagrams): `DoubleTapMachine` for tapButton (double-tap, and the squeeze under longPress)
/// and `SqueezeMachine` for a dedicated squeeze button. Each follows one button and hears only
/// that button's inputs. Inputs a machine's state cannot receive are kept in `bugs`.
public struct GestureRecognizer: Sendable {
    public let device: DeviceInfo
    public private(set) var preferences: Preferences
    var settings: GestureSettings
    var machines = GestureMachines()
    /// The machines' earliest deadline, kept beside them: the pipeline asks for the next
    /// deadline before every evdev event, and only a machine's input changes it.
    private var machineDeadline: Int64?
    /// Some machine holds its button: the pen's pose is kept for its later events.
    private var holdsButton = false
    /// The pen as the last frame left it: a timer's squeeze carries its pose (kept up to date
    /// while a machine holds its button).
    var pen = PenState()
    var log = GestureLog()
    var scratch = GestureScratch()
    /// What libwacom knows of the device: the styli of the events the eraser swap makes.
    let identity: PenIdentity
    /// Under `eraserButton` `button` on a pen whose eraser is a button: the swap as a button.
    /// Kept after the preference is turned off until it is idle, so the stream is never left
    /// with a pen the device no longer reports.
    var eraserSwap: EraserButtonSwap? {
        didSet {
            hasEraserSwap = eraserSwap != nil
            eraserSwapDeadline = eraserSwap?.deadline
        }
    }
    /// Whether there is a swap, kept for the same reason: most pens have none.
    private(set) var hasEraserSwap = false
    /// The swap's deadline, kept beside it: the pipeline asks for the next deadline before
    /// every evdev event, and reading it through the optional would copy the whole swap.
    private(set) var eraserSwapDeadline: Int64?

    /// `state` is the pen as it stands now, for a recogniser made while a tool is already in
    /// proximity: buttons held then belong to no gesture and wait for their release.
    public init(device: DeviceInfo, preferences: Preferences = .defaults, state: PenState = PenState(),
                identity: PenIdentity = .unknown) throws(InvalidPreferences) {
        try preferences.validate()
        self.device = device
        self.preferences = preferences
        self.identity = identity
        settings = GestureSettings(preferences: preferences, device: device)
        adopt(state)
        if settings.eraserIsButton {
            // Observers do not run in an initialiser: the flag is set here.
            eraserSwap = EraserButtonSwap(device: device.id, identity: identity, state: state)
            hasEraserSwap = true
        }
    }

    private mutating func adopt(_ state: PenState) {
        pen = state
        guard state.tool != nil else { return }
        let context = GestureContext(time: 0, device: device.id, tool: state.tool, pose: state.pose)
        var none: [Event] = []
        deliver(.adopt(held: state.buttons), context, into: &none)
    }

    // MARK: Frames

    /// Adds the gestures of `frame`: those of its current tool to `gestures` (which belong at
    /// `frame.gestureIndex`), a replaced tool's cancelled squeeze to `replacedGestures` (at
    /// `frame.replacedGestureIndex`). Both arrays are appended to, never cleared.
    public mutating func process(_ frame: borrowing PenFrame, gestures: inout [Event], replacedGestures: inout [Event]) {
        // The owner (PenPipeline) delivers every deadline at or before the frame's time first.
        assert(nextDeadline.map { $0 > frame.time } ?? true, "a due deadline was not delivered before the frame")
        switch frame.kind {
        case .added:
            break
        case .removed:
            let context = GestureContext(time: frame.time, device: device.id, tool: frame.previous.tool, pose: frame.current.pose)
            deliverToAll(.deviceRemoved, context, into: &gestures)
        case .report, .forcedProximityOut:
            processReport(frame, gestures: &gestures, replacedGestures: &replacedGestures)
        }
        pen.tool = frame.current.tool
        pen.tipDown = frame.current.tipDown
        pen.buttons = frame.current.buttons
        // Only a held button needs the pose later (a timer's began, a catch-up); copying it
        // on every frame would be most of the recogniser's work.
        if holdsButton {
            pen.pose = frame.current.pose
        }
    }

    private mutating func processReport(_ frame: borrowing PenFrame, gestures: inout [Event], replacedGestures: inout [Event]) {
        let down = frame.current.tool == nil ? [] : frame.current.buttons
        if frame.resynchronised {
            // The last pose known before the events were lost is the one a cancel carries.
            let context = GestureContext(time: frame.time, device: device.id, tool: frame.previous.tool, pose: frame.previous.pose)
            if frame.replacedTool != nil {
                deliver(.reset(held: down), context, into: &replacedGestures)
            } else {
                deliver(.reset(held: down), context, into: &gestures)
            }
        }
        if let replaced = frame.replacedTool {
            let context = GestureContext(time: frame.time, device: device.id, tool: replaced, pose: frame.previous.pose)
            deliverToAll(.toolReplaced, context, into: &replacedGestures)
        }
        guard frame.current.tool != nil else {
            if frame.previous.tool != nil {
                // Closing events carry the last pose before the leaving frame, which the
                // tracker keeps in `current.pose`.
                let context = GestureContext(time: frame.time, device: device.id, tool: frame.previous.tool, pose: frame.current.pose)
                deliverToAll(.toolLeft, context, into: &gestures)
            }
            return
        }
        // Most frames give no machine anything to do: decide that before building a context.
        let view = ButtonView(down: down, resynchronised: frame.resynchronised,
                              moved: holdsButton && frame.current.pose != frame.previous.pose)
        var any = AnyButtonInput(view: view, settings: settings)
        machines.visit(&any)
        guard any.found else { return }
        let context = GestureContext(time: frame.time, device: device.id, tool: frame.current.tool, pose: frame.current.pose)
        deliver(.buttons(view), context, into: &gestures)
    }

    private mutating func deliverToAll(_ input: GestureInput, _ context: GestureContext, into events: inout [Event]) {
        deliver(.every(input), context, into: &events)
    }

    /// Each machine that is on hears its input under `rule`, in the machines' order:
    /// docs/gestures.md orders doubleTap before squeeze within a frame.
    private mutating func deliver(_ rule: MachineDelivery.Rule, _ context: GestureContext, into events: inout [Event]) {
        var delivery = MachineDelivery(rule: rule, context: context, settings: settings)
        // Swapped in and out: the machines append to the caller's array and this log.
        swap(&delivery.events, &events)
        swap(&delivery.log, &log)
        machines.visit(&delivery)
        swap(&delivery.events, &events)
        swap(&delivery.log, &log)
        machineDeadline = delivery.deadline
        holdsButton = delivery.holdsButton
    }

    // MARK: Time

    /// When the long press becomes a squeeze, or a pen held back by the eraser swap is known
    /// to have left, unless a frame changes that first; nil when neither is pending.
    public var nextDeadline: Int64? {
        guard let swap = eraserSwapDeadline else { return machineDeadline }
        return machineDeadline.map { min($0, swap) } ?? swap
    }

    /// Fires the earliest deadline if `time` has reached it: the long press's squeeze `began`
    /// at the deadline's time with the pose of the last frame, or the held pen's leave; its
    /// events are appended to `events`.
    public mutating func advance(to time: Int64, into events: inout [Event]) {
        guard let deadline = nextDeadline, deadline <= time else { return }
        if let swapDeadline = eraserSwapDeadline, swapDeadline == deadline {
            var swap = eraserSwap.take()!
            swap.expire()
            processSwapFrames(of: &swap, into: &events)
            return
        }
        let context = GestureContext(time: deadline, device: device.id, tool: pen.tool, pose: pen.pose)
        deliver(.timeout(at: deadline), context, into: &events)
    }

    /// The pen as this user's stream has it, when the eraser swap makes it differ from the
    /// device's (a new subscriber catches up to this).
    public var presentedState: PenState? {
        guard let swap = eraserSwap, swap.state != .idle else { return nil }
        return swap.presented
    }

    // MARK: Subscribers and preferences

    /// docs/protocol.md, Monitor: a phased gesture in progress (a squeeze), as a `began` at `time`, for a subscriber
    /// that arrives while it is held (after the tracker's catch-up events).
    public func catchUpEvents(at time: Int64) -> [Event] {
        guard holdsButton else { return [] }
        var phased = PhasedGestures()
        var machines = machines
        machines.visit(&phased)
        return phased.inProgress.map { gesture, tool in
            Event(type: gesture.eventType, time: time, device: device.id, tool: tool, pose: pen.pose, phase: .began, focus: Focus.none)
        }
    }

    /// Applies new preferences at `time`. When only the actions change, whatever is in
    /// progress goes on and reports the new actions from now on. Otherwise what was being
    /// recognised under the old rules stops: a squeeze in progress is `cancelled` (appended
    /// to `events`), a pending double-tap is forgotten, and buttons held now belong to no
    /// gesture until they are released.
    public mutating func setPreferences(_ newPreferences: Preferences, at time: Int64, into events: inout [Event]) throws(InvalidPreferences) {
        try newPreferences.validate()
        let newSettings = GestureSettings(preferences: newPreferences, device: device)
        defer {
            preferences = newPreferences
            if settings.eraserIsButton, eraserSwap == nil {
                eraserSwap = EraserButtonSwap(device: device.id, identity: identity, state: pen)
            } else if !settings.eraserIsButton, eraserSwap?.state == .idle {
                eraserSwap = nil
            }
        }
        if newSettings.recognisesSameGestures(as: settings) {
            settings = newSettings
            return
        }
        let context = GestureContext(time: time, device: device.id, tool: pen.tool, pose: pen.pose)
        deliverToAll(.reset(buttonHeld: false), context, into: &events)
        settings = newSettings
        earlierTransitions.formUnion(transitionsTaken)
        machines = GestureMachines()
        machineDeadline = nil
        holdsButton = false
        adopt(pen)
    }

    // MARK: Diagnostics

    /// Inputs a machine could not take in its state (the first few; `bugCount` counts all).
    /// Each is a bug to log; recognition went on without it.
    public var bugs: [GestureBug] { log.bugs }
    public var bugCount: Int { log.bugCount }

    /// Returns the bugs kept so far and forgets them, for an owner that logs them.
    public mutating func takeBugs() -> [GestureBug] {
        defer { log.bugs.removeAll() }
        return log.bugs
    }

    /// Forgets what the transitions taken so far told the mirror (it asks of one step).
    mutating func clearMirrorMeanings() { log.mirrorMeanings = [] }
    /// What the transitions taken since tell the mirror.
    var mirrorMeanings: MirrorMeaning { log.mirrorMeanings }

    /// The diagram's transitions this recogniser has taken (tests use it for coverage).
    public var transitionsTaken: Set<GestureTransition> {
        var gathered = MachineTransitions()
        var machines = machines
        machines.visit(&gathered)
        return earlierTransitions.union(gathered.taken)
    }
    /// Those taken by machines that new preferences replaced.
    private var earlierTransitions: Set<GestureTransition> = []
}
