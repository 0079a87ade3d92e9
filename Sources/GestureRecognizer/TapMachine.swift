import PencilProtocol

/// tapButton's machine: clicks that make a double-tap, and, when squeezeButton resolves to
/// longPress, the long hold that is a squeeze. The diagram is in docs/gestures.md; every
/// edge there is one `log.took` here.
///
/// A double-tap needs no timer: the interval is checked at the second press. The only
/// deadline is the long press, armed in `firstPress`.
struct TapMachine: Sendable {
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
    /// The first press of the sequence: meaningful in firstPress, firstPressMoved, clicked
    /// and longPressing.
    var press = Press()

    var isHoldingButton: Bool {
        switch state {
        case .idle, .clicked: return false
        case .firstPress, .firstPressMoved, .held, .longPressing: return true
        }
    }

    var squeezingTool: Tool? {
        state == .longPressing ? press.tool : nil
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
            log.took(.tapIdlePress)
        case .reset(buttonHeld: true):
            state = .held
            log.took(.tapIdleReset)
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
                log.took(.tapFirstPressClick)
            } else {
                state = .idle
                log.took(.tapFirstPressTooLong)
            }
        case .motion:
            // Only the long press cares where the pen goes while held; a click may wander.
            if settings.longPress, !settings.slop.contains(press.pose, context.pose) {
                state = .firstPressMoved
                log.took(.tapFirstPressMoved)
            }
        case .timeout:
            guard settings.longPress else { return bug(input, context, log: &log) }
            events.append(.squeeze(.began, time: context.time, device: context.device, tool: press.tool, pose: context.pose))
            state = .longPressing
            log.took(.tapFirstPressLongPress)
        case .toolLeft, .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            state = .idle
            log.took(.tapFirstPressForgotten)
        case .reset(buttonHeld: true):
            state = .held
            log.took(.tapFirstPressReset)
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
                log.took(.tapMovedClick)
            } else {
                state = .idle
                log.took(.tapMovedTooLong)
            }
        case .motion:
            break
        case .toolLeft, .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            state = .idle
            log.took(.tapMovedForgotten)
        case .reset(buttonHeld: true):
            state = .held
            log.took(.tapMovedReset)
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
                log.took(.tapDoubleTap)
            } else {
                press = Press(time: context.time, pose: context.pose, tool: tool)
                state = .firstPress
                log.took(.tapNewSequence)
            }
        case .toolLeft, .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            state = .idle
            log.took(.tapClickedForgotten)
        case .reset(buttonHeld: true):
            state = .held
            log.took(.tapClickedReset)
        case .release, .motion, .timeout:
            bug(input, context, log: &log)
        }
    }

    private mutating func handleHeld(_ input: GestureInput, _ context: GestureContext, log: inout GestureLog) {
        switch input {
        case .release:
            state = .idle
            log.took(.tapHeldRelease)
        case .motion, .reset(buttonHeld: true):
            break
        case .toolLeft, .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            state = .idle
            log.took(.tapHeldForgotten)
        case .press, .timeout:
            bug(input, context, log: &log)
        }
    }

    private mutating func handleLongPressing(_ input: GestureInput, _ context: GestureContext,
                                             _ settings: GestureSettings, into events: inout [Event], log: inout GestureLog) {
        switch input {
        case .motion:
            events.append(.squeeze(.changed, time: context.time, device: context.device, tool: press.tool, pose: context.pose))
            log.took(.tapSqueezeChanged)
        case .release, .toolLeft:
            events.append(.squeeze(.ended, time: context.time, device: context.device, tool: press.tool, pose: context.pose,
                                   action: settings.action(for: .squeeze)))
            state = .idle
            log.took(.tapSqueezeEnded)
        case .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            events.append(.squeeze(.cancelled, time: context.time, device: context.device, tool: press.tool, pose: context.pose))
            state = .idle
            log.took(.tapSqueezeCancelled)
        case .reset(buttonHeld: true):
            events.append(.squeeze(.cancelled, time: context.time, device: context.device, tool: press.tool, pose: context.pose))
            state = .held
            log.took(.tapSqueezeReset)
        case .press, .timeout:
            bug(input, context, log: &log)
        }
    }

    private func bug(_ input: GestureInput, _ context: GestureContext, log: inout GestureLog) {
        log.bug(.tap, state: state.name, input: input, time: context.time)
    }
}
