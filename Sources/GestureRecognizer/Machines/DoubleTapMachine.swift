import PencilProtocol

/// tapButton's machine: clicks that make a double-tap, and, when squeezeButton resolves to
/// longPress, the long hold that is a squeeze. The diagram is in docs/gestures.md ("Tap
/// machine"); every edge there is one `took` here.
///
/// A double-tap needs no timer: the interval is checked at the second press. The only
/// deadline is the long press, armed in `firstPress`.
struct DoubleTapMachine: GestureMachine {
    static let name = "tap"
    /// The button also clicks: a press waits until it is known to be no gesture's.
    static let mirror = MirrorTreatment.heldBackUntilKnown

    static func button(in settings: GestureSettings) -> PenButton? { settings.tapButton }

    /// The first press of a sequence.
    struct Press: Sendable {
        var time: Int64 = 0
        var pose = Pose()
        var tool = Tool(type: .pen)
    }

    /// Plain cases, the data beside them: checking the state on every frame then copies
    /// nothing.
    enum State: Sendable {
        /// No sequence: the button is up and no click is waiting for a second press.
        case idle
        /// The button is held as the first press of a sequence (under longPress, the timer
        /// runs). `press` holds it.
        case firstPress
        /// As firstPress, but the pen left the slop around the press: no long press any more.
        case firstPressMoved
        /// A click is complete (`press` was its press); the next press may be its second.
        case clicked
        /// The button is held by a press that belongs to no gesture: a double-tap's second
        /// press, or a press that was down when the recogniser reset.
        case held
        /// The long hold became a squeeze of `press.tool` (began has been reported).
        case longPressing

        var name: String {
            switch self {
            case .idle: return "idle"
            case .firstPress: return "firstPress"
            case .firstPressMoved: return "firstPressMoved"
            case .clicked: return "clicked"
            case .held: return "held"
            case .longPressing: return "longPressing"
            }
        }
    }

    var state: State = .idle
    var taken: UInt64 = 0
    /// The first press of the sequence: meaningful in firstPress, firstPressMoved, clicked
    /// and longPressing.
    var press = Press()

    var isHoldingButton: Bool {
        switch state {
        case .idle, .clicked: return false
        case .firstPress, .firstPressMoved, .held, .longPressing: return true
        }
    }

    var phasedGestureInProgress: (gesture: Gesture, tool: Tool?)? {
        state == .longPressing ? (.squeeze, press.tool) : nil
    }

    func deadline(_ settings: GestureSettings) -> Int64? {
        guard settings.longPress, state == .firstPress else { return nil }
        return press.time + settings.longPressDuration
    }

    mutating func handle(_ input: GestureInput, _ context: GestureContext, _ settings: GestureSettings,
                         into events: inout [Event], log: inout GestureLog) {
        switch state {
        case .idle:
            handleIdle(input, context, log: &log)
        case .firstPress:
            handleFirstPress(input, context, settings, into: &events, log: &log)
        case .firstPressMoved:
            handleFirstPressMoved(input, context, settings, log: &log)
        case .clicked:
            handleClicked(input, context, settings, into: &events, log: &log)
        case .held:
            handleHeld(input, context, log: &log)
        case .longPressing:
            handleLongPressing(input, context, settings, into: &events, log: &log)
        }
    }

    private mutating func handleIdle(_ input: GestureInput, _ context: GestureContext, log: inout GestureLog) {
        switch input {
        case .press:
            guard let tool = context.tool else { return bug(input, context, log: &log) }
            press = Press(time: context.time, pose: context.pose, tool: tool)
            state = .firstPress
            took(.idlePress, &log)
        case .reset(buttonHeld: true):
            state = .held
            took(.idleReset, &log)
        case .toolLeft, .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            break
        case .release, .motion, .timeout:
            bug(input, context, log: &log)
        }
    }

    private mutating func handleFirstPress(_ input: GestureInput, _ context: GestureContext,
                                           _ settings: GestureSettings, into events: inout [Event], log: inout GestureLog) {
        switch input {
        case .release:
            if context.time - press.time <= settings.tapMaxDuration {
                state = .clicked
                took(.firstPressClick, &log)
            } else {
                state = .idle
                took(.firstPressTooLong, &log)
            }
        case .motion:
            // Only the long press cares where the pen goes while held; a click may wander.
            if settings.longPress, !settings.slop.contains(press.pose, context.pose) {
                state = .firstPressMoved
                took(.firstPressMoved, &log)
            }
        case .timeout:
            guard settings.longPress else { return bug(input, context, log: &log) }
            events.append(.squeeze(.began, time: context.time, device: context.device, tool: press.tool, pose: context.pose))
            state = .longPressing
            took(.firstPressLongPress, &log)
        case .toolLeft, .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            state = .idle
            took(.firstPressForgotten, &log)
        case .reset(buttonHeld: true):
            state = .held
            took(.firstPressReset, &log)
        case .press:
            bug(input, context, log: &log)
        }
    }

    private mutating func handleFirstPressMoved(_ input: GestureInput, _ context: GestureContext,
                                                _ settings: GestureSettings, log: inout GestureLog) {
        switch input {
        case .release:
            if context.time - press.time <= settings.tapMaxDuration {
                state = .clicked
                took(.movedClick, &log)
            } else {
                state = .idle
                took(.movedTooLong, &log)
            }
        case .motion:
            break
        case .toolLeft, .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            state = .idle
            took(.movedForgotten, &log)
        case .reset(buttonHeld: true):
            state = .held
            took(.movedReset, &log)
        case .press, .timeout:
            bug(input, context, log: &log)
        }
    }

    private mutating func handleClicked(_ input: GestureInput, _ context: GestureContext,
                                        _ settings: GestureSettings, into events: inout [Event], log: inout GestureLog) {
        switch input {
        case .press:
            guard let tool = context.tool else { return bug(input, context, log: &log) }
            if context.time - press.time <= settings.doubleTapInterval,
               settings.slop.contains(press.pose, context.pose),
               press.tool.isSameTool(as: tool) {
                events.append(Event(type: .doubleTap, time: context.time, device: context.device, tool: tool,
                                    pose: context.pose, action: settings.action(for: .doubleTap), focus: Focus.none))
                state = .held
                took(.doubleTap, &log)
            } else {
                press = Press(time: context.time, pose: context.pose, tool: tool)
                state = .firstPress
                took(.newSequence, &log)
            }
        case .toolLeft, .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            state = .idle
            took(.clickedForgotten, &log)
        case .reset(buttonHeld: true):
            state = .held
            took(.clickedReset, &log)
        case .release, .motion, .timeout:
            bug(input, context, log: &log)
        }
    }

    private mutating func handleHeld(_ input: GestureInput, _ context: GestureContext, log: inout GestureLog) {
        switch input {
        case .release:
            state = .idle
            took(.heldRelease, &log)
        case .motion, .reset(buttonHeld: true):
            break
        case .toolLeft, .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            state = .idle
            took(.heldForgotten, &log)
        case .press, .timeout:
            bug(input, context, log: &log)
        }
    }

    private mutating func handleLongPressing(_ input: GestureInput, _ context: GestureContext,
                                             _ settings: GestureSettings, into events: inout [Event], log: inout GestureLog) {
        switch input {
        case .motion:
            events.append(.squeeze(.changed, time: context.time, device: context.device, tool: press.tool, pose: context.pose))
            took(.squeezeChanged, &log)
        case .release, .toolLeft:
            events.append(.squeeze(.ended, time: context.time, device: context.device, tool: press.tool, pose: context.pose,
                                   action: settings.action(for: .squeeze)))
            state = .idle
            took(.squeezeEnded, &log)
        case .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            events.append(.squeeze(.cancelled, time: context.time, device: context.device, tool: press.tool, pose: context.pose))
            state = .idle
            took(.squeezeCancelled, &log)
        case .reset(buttonHeld: true):
            events.append(.squeeze(.cancelled, time: context.time, device: context.device, tool: press.tool, pose: context.pose))
            state = .held
            took(.squeezeReset, &log)
        case .press, .timeout:
            bug(input, context, log: &log)
        }
    }

    private func bug(_ input: GestureInput, _ context: GestureContext, log: inout GestureLog) {
        bug(input, state: state.name, context, log: &log)
    }
}

extension DoubleTapMachine {
    enum Transition: Int, GestureMachineTransition {
        case idlePress, idleReset
        case firstPressClick, firstPressTooLong, firstPressMoved, firstPressLongPress, firstPressForgotten, firstPressReset
        case movedClick, movedTooLong, movedForgotten, movedReset
        case doubleTap, newSequence, clickedForgotten, clickedReset
        case heldRelease, heldForgotten
        case squeezeChanged, squeezeEnded, squeezeCancelled, squeezeReset

        var edge: (from: String, to: String, label: String) {
            let forgotten = "toolLeft, toolReplaced, deviceRemoved, reset released"
            let reset = "reset, still held"
            switch self {
            case .idlePress: return ("idle", "firstPress", "press")
            case .idleReset: return ("idle", "held", reset)
            case .firstPressClick: return ("firstPress", "clicked", "release within tapMaxDuration")
            case .firstPressTooLong: return ("firstPress", "idle", "release after tapMaxDuration")
            case .firstPressMoved: return ("firstPress", "firstPressMoved", "motion beyond slop, under longPress")
            case .firstPressLongPress: return ("firstPress", "longPressing", "timeout / squeeze began")
            case .firstPressForgotten: return ("firstPress", "idle", forgotten)
            case .firstPressReset: return ("firstPress", "held", reset)
            case .movedClick: return ("firstPressMoved", "clicked", "release within tapMaxDuration")
            case .movedTooLong: return ("firstPressMoved", "idle", "release after tapMaxDuration")
            case .movedForgotten: return ("firstPressMoved", "idle", forgotten)
            case .movedReset: return ("firstPressMoved", "held", reset)
            case .doubleTap: return ("clicked", "held", "press as second press / doubleTap")
            case .newSequence: return ("clicked", "firstPress", "press not a second press")
            case .clickedForgotten: return ("clicked", "idle", forgotten)
            case .clickedReset: return ("clicked", "held", reset)
            case .heldRelease: return ("held", "idle", "release")
            case .heldForgotten: return ("held", "idle", forgotten)
            case .squeezeChanged: return ("longPressing", "longPressing", "motion / squeeze changed")
            case .squeezeEnded: return ("longPressing", "idle", "release, toolLeft / squeeze ended")
            case .squeezeCancelled: return ("longPressing", "idle", "toolReplaced, deviceRemoved, reset released / squeeze cancelled")
            case .squeezeReset: return ("longPressing", "held", "reset, still held / squeeze cancelled")
            }
        }

        var mirrorMeaning: MirrorMeaning? {
            switch self {
            case .idlePress, .newSequence: return .firstPress
            case .firstPressClick, .movedClick: return .click
            case .firstPressTooLong, .movedTooLong: return .neither
            case .firstPressMoved: return .movedAway
            case .doubleTap: return .gestureMade
            case .firstPressLongPress: return .longPress
            default: return nil
            }
        }
    }

    /// The longest click a double-tap is played with, and its press-to-press interval, when
    /// the preferences allow them; shorter preferences get half of what they allow.
    static let clickHold: Int64 = 80_000
    static let clickInterval: Int64 = 200_000

    /// A double-tap: two short clicks; a squeeze under longPress: the button held past
    /// longPressDuration.
    static func demonstration(of gesture: Gesture, settings: GestureSettings, device: DeviceInfo)
        -> Result<GestureDemonstration.Script, GestureDemonstration.Unplayable>? {
        typealias Change = GestureDemonstration.ButtonChange
        switch gesture {
        case .doubleTap:
            guard let tap = settings.tapButton else { return .failure(.switchedOff(preference: "tapButton")) }
            guard device.buttons.contains(tap) else { return .failure(.missingButton(tap, preference: "tapButton")) }
            // The second press within doubleTapInterval of the first; each click released
            // before the next press, shorter than tapMaxDuration, and (under longPress)
            // released long before it would become a squeeze.
            let interval = min(clickInterval, settings.doubleTapInterval / 2)
            var hold = min(clickHold, settings.tapMaxDuration / 2, interval / 2)
            if settings.longPress { hold = min(hold, settings.longPressDuration / 2) }
            return .success(GestureDemonstration.Script(changes: [
                Change(offset: 0, button: tap, down: true),
                Change(offset: hold, button: tap, down: false),
                Change(offset: interval, button: tap, down: true),
                Change(offset: interval + hold, button: tap, down: false),
            ]))
        case .squeeze:
            guard settings.longPress, let tap = settings.tapButton else { return nil }
            guard device.buttons.contains(tap) else { return .failure(.missingButton(tap, preference: "tapButton")) }
            return .success(GestureDemonstration.Script(changes: [
                Change(offset: 0, button: tap, down: true),
                Change(offset: settings.longPressDuration + GestureDemonstration.buttonHold, button: tap, down: false),
            ]))
        default:
            return nil
        }
    }
}
