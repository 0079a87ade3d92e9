import PencilProtocol

/// A dedicated squeeze button's machine (squeezeButton names a button the device has).
/// The diagram is in docs/gestures.md; every edge there is one `log.took` here.
struct SqueezeMachine: Sendable {
    /// Plain cases, the data beside them (see TapMachine.State).
    enum State: Sendable {
        /// The button is up.
        case idle
        /// The button is held and began has been reported for `tool`.
        case squeezing
        /// The button is held, but its squeeze was cancelled or never seen begin (a reset):
        /// nothing more until it is released.
        case held

        var name: String {
            switch self {
            case .idle: return "idle"
            case .squeezing: return "squeezing"
            case .held: return "held"
            }
        }
    }

    var state: State = .idle
    /// The tool whose squeeze is in progress.
    var tool: Tool?

    var isHoldingButton: Bool {
        switch state {
        case .idle: return false
        case .squeezing, .held: return true
        }
    }

    var squeezingTool: Tool? {
        state == .squeezing ? tool : nil
    }

    mutating func handle(_ input: GestureInput, _ context: GestureContext, _ settings: GestureSettings,
                         into events: inout [Event], log: inout GestureLog) {
        switch state {
        case .idle:
            handleIdle(input, context, into: &events, log: &log)
        case .squeezing:
            handleSqueezing(input, context, settings, into: &events, log: &log)
        case .held:
            handleHeld(input, context, log: &log)
        }
    }

    private mutating func handleIdle(_ input: GestureInput, _ context: GestureContext,
                                     into events: inout [Event], log: inout GestureLog) {
        switch input {
        case .press:
            events.append(.squeeze(.began, time: context.time, device: context.device, tool: context.tool, pose: context.pose))
            tool = context.tool
            state = .squeezing
            log.took(.squeezeIdlePress)
        case .reset(buttonHeld: true):
            state = .held
            log.took(.squeezeIdleReset)
        case .toolLeft, .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            break
        case .release, .motion, .timeout:
            bug(input, context, log: &log)
        }
    }

    private mutating func handleSqueezing(_ input: GestureInput, _ context: GestureContext,
                                          _ settings: GestureSettings, into events: inout [Event], log: inout GestureLog) {
        switch input {
        case .motion:
            events.append(.squeeze(.changed, time: context.time, device: context.device, tool: tool, pose: context.pose))
            log.took(.squeezeChanged)
        case .release, .toolLeft:
            events.append(.squeeze(.ended, time: context.time, device: context.device, tool: tool, pose: context.pose,
                                   action: settings.action(for: .squeeze)))
            state = .idle
            log.took(.squeezeEnded)
        case .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            events.append(.squeeze(.cancelled, time: context.time, device: context.device, tool: tool, pose: context.pose))
            state = .idle
            log.took(.squeezeCancelled)
        case .reset(buttonHeld: true):
            events.append(.squeeze(.cancelled, time: context.time, device: context.device, tool: tool, pose: context.pose))
            state = .held
            log.took(.squeezeReset)
        case .press, .timeout:
            bug(input, context, log: &log)
        }
    }

    private mutating func handleHeld(_ input: GestureInput, _ context: GestureContext, log: inout GestureLog) {
        switch input {
        case .release:
            state = .idle
            log.took(.squeezeHeldRelease)
        case .motion, .reset(buttonHeld: true):
            break
        case .toolLeft, .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            state = .idle
            log.took(.squeezeHeldForgotten)
        case .press, .timeout:
            bug(input, context, log: &log)
        }
    }

    private func bug(_ input: GestureInput, _ context: GestureContext, log: inout GestureLog) {
        log.bug(.squeeze, state: state.name, input: input, time: context.time)
    }
}
