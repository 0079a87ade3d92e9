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
/// Two machines do the work (docs/gestures.md has their diagrams): `TapMachine` for
/// tapButton (double-tap, and the squeeze under longPress) and `SqueezeMachine` for a
/// dedicated squeeze button. Inputs a machine's state cannot receive are kept in `bugs`.
public struct GestureRecognizer: Sendable {
    public let device: DeviceInfo
    public private(set) var preferences: Preferences
    var settings: GestureSettings
    var tap = TapMachine()
    var squeeze = SqueezeMachine()
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
        if let button = settings.tapButton, state.buttons.contains(button) {
            tap.handle(.reset(buttonHeld: true), context, settings, into: &none, log: &log)
        }
        if let button = settings.squeezeButton, state.buttons.contains(button) {
            squeeze.handle(.reset(buttonHeld: true), context, settings, into: &none, log: &log)
        }
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
            deliverToBoth(.deviceRemoved, context, into: &gestures)
        case .report, .forcedProximityOut:
            processReport(frame, gestures: &gestures, replacedGestures: &replacedGestures)
        }
        pen.tool = frame.current.tool
        pen.tipDown = frame.current.tipDown
        pen.buttons = frame.current.buttons
        // Only a held button needs the pose later (a timer's began, a catch-up); copying it
        // on every frame would be most of the recogniser's work.
        if tap.isHoldingButton || squeeze.isHoldingButton {
            pen.pose = frame.current.pose
        }
    }

    private mutating func processReport(_ frame: borrowing PenFrame, gestures: inout [Event], replacedGestures: inout [Event]) {
        let tapDown = isDown(settings.tapButton, frame)
        let squeezeDown = isDown(settings.squeezeButton, frame)

        if frame.resynchronised {
            // The last pose known before the events were lost is the one a cancel carries.
            let context = GestureContext(time: frame.time, device: device.id, tool: frame.previous.tool, pose: frame.previous.pose)
            if frame.replacedTool != nil {
                deliver(.reset(buttonHeld: tapDown), .reset(buttonHeld: squeezeDown), context, into: &replacedGestures)
            } else {
                deliver(.reset(buttonHeld: tapDown), .reset(buttonHeld: squeezeDown), context, into: &gestures)
            }
        }
        if let replaced = frame.replacedTool {
            let context = GestureContext(time: frame.time, device: device.id, tool: replaced, pose: frame.previous.pose)
            deliverToBoth(.toolReplaced, context, into: &replacedGestures)
        }
        guard frame.current.tool != nil else {
            if frame.previous.tool != nil {
                // Closing events carry the last pose before the leaving frame, which the
                // tracker keeps in `current.pose`.
                let context = GestureContext(time: frame.time, device: device.id, tool: frame.previous.tool, pose: frame.current.pose)
                deliverToBoth(.toolLeft, context, into: &gestures)
            }
            return
        }
        // Most frames give no machine anything to do: decide that before building a context.
        let tapInput = settings.tapButton == nil ? nil
            : buttonInput(holding: tap.isHoldingButton, down: tapDown, frame: frame)
        let squeezeInput = settings.squeezeButton == nil ? nil
            : buttonInput(holding: squeeze.isHoldingButton, down: squeezeDown, frame: frame)
        guard tapInput != nil || squeezeInput != nil else { return }
        let context = GestureContext(time: frame.time, device: device.id, tool: frame.current.tool, pose: frame.current.pose)
        if let tapInput {
            tap.handle(tapInput, context, settings, into: &gestures, log: &log)
        }
        if let squeezeInput {
            squeeze.handle(squeezeInput, context, settings, into: &gestures, log: &log)
        }
    }

    private func isDown(_ button: PenButton?, _ frame: borrowing PenFrame) -> Bool {
        guard let button, frame.current.tool != nil else { return false }
        return frame.current.buttons.contains(button)
    }

    /// What the button did, from what its machine believes and what the frame says; the
    /// tracker's buttonDown/buttonUp follow the same state, so the two agree.
    private func buttonInput(holding: Bool, down: Bool, frame: borrowing PenFrame) -> GestureInput? {
        switch (holding, down) {
        case (true, false): return .release
        // A button first seen down after lost events has no press time: it waits for release.
        case (false, true): return frame.resynchronised ? .reset(buttonHeld: true) : .press
        case (true, true): return frame.current.pose != frame.previous.pose ? .motion : nil
        case (false, false): return nil
        }
    }

    private mutating func deliverToBoth(_ input: GestureInput, _ context: GestureContext, into events: inout [Event]) {
        deliver(input, input, context, into: &events)
    }

    /// The tap machine first: docs/gestures.md orders doubleTap before squeeze within a frame.
    private mutating func deliver(_ tapInput: GestureInput, _ squeezeInput: GestureInput, _ context: GestureContext, into events: inout [Event]) {
        if settings.tapButton != nil {
            tap.handle(tapInput, context, settings, into: &events, log: &log)
        }
        if settings.squeezeButton != nil {
            squeeze.handle(squeezeInput, context, settings, into: &events, log: &log)
        }
    }

    // MARK: Time

    /// When the long press becomes a squeeze, or a pen held back by the eraser swap is known
    /// to have left, unless a frame changes that first; nil when neither is pending.
    public var nextDeadline: Int64? {
        let longPress = tap.deadline(settings)
        guard let swap = eraserSwapDeadline else { return longPress }
        return longPress.map { min($0, swap) } ?? swap
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
        tap.handle(.timeout, context, settings, into: &events, log: &log)
    }

    /// The pen as this user's stream has it, when the eraser swap makes it differ from the
    /// device's (a new subscriber catches up to this).
    public var presentedState: PenState? {
        guard let swap = eraserSwap, swap.state != .idle else { return nil }
        return swap.presented
    }

    // MARK: Subscribers and preferences

    /// docs/protocol.md, Monitor: a squeeze in progress, as a `began` at `time`, for a subscriber
    /// that arrives while it is held (after the tracker's catch-up events).
    public func catchUpEvents(at time: Int64) -> [Event] {
        guard tap.state == .longPressing || squeeze.state == .squeezing else { return [] }
        let tool = tap.squeezingTool ?? squeeze.squeezingTool
        return [.squeeze(.began, time: time, device: device.id, tool: tool, pose: pen.pose)]
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
        deliverToBoth(.reset(buttonHeld: false), context, into: &events)
        settings = newSettings
        tap = TapMachine()
        squeeze = SqueezeMachine()
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

    /// Forgets the transitions taken so far (the mirror asks what one step took).
    mutating func clearTransitions() { log.transitions = 0 }
    /// The transitions taken since, one bit each (GestureTransition's raw values).
    var transitionBits: UInt64 { log.transitions }

    /// The diagram's transitions this recogniser has taken (tests use it for coverage).
    public var transitionsTaken: Set<GestureTransition> {
        Set(GestureTransition.allCases.filter { log.transitions & (1 << UInt64($0.rawValue)) != 0 })
    }
}
