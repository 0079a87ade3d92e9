import PencilProtocol

/// A dedicated squeeze button's machine (squeezeButton names a button the device has).
/// The diagram is in docs/gestures.md ("Squeeze machine"); every edge there is one `took` here.
struct SqueezeMachine: GestureMachine {
    static let name = "squeeze"
    /// The button is the squeeze's alone.
    static let mirror = MirrorTreatment.withheld

    static func button(in settings: GestureSettings) -> PenButton? { settings.squeezeButton }

    /// Plain cases, the data beside them (see DoubleTapMachine.State).
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
    var taken: UInt64 = 0
    /// The tool whose squeeze is in progress.
    var tool: Tool?

    var isHoldingButton: Bool {
        switch state {
        case .idle: return false
        case .squeezing, .held: return true
        }
    }

    var phasedGestureInProgress: (gesture: Gesture, tool: Tool?)? {
        state == .squeezing ? (.squeeze, tool) : nil
    }

    func deadline(_ settings: GestureSettings) -> Int64? { nil }

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

    private mutating func handleSqueezing(_ input: GestureInput, _ context: GestureContext,
                                          _ settings: GestureSettings, into events: inout [Event], log: inout GestureLog) {
        switch input {
        case .motion:
            events.append(.squeeze(.changed, time: context.time, device: context.device, tool: tool, pose: context.pose))
            took(.changed, &log)
        case .release, .toolLeft:
            events.append(.squeeze(.ended, time: context.time, device: context.device, tool: tool, pose: context.pose,
                                   action: settings.action(for: .squeeze)))
            state = .idle
            took(.ended, &log)
        case .toolReplaced, .deviceRemoved, .reset(buttonHeld: false):
            events.append(.squeeze(.cancelled, time: context.time, device: context.device, tool: tool, pose: context.pose))
            state = .idle
            took(.cancelled, &log)
        case .reset(buttonHeld: true):
            events.append(.squeeze(.cancelled, time: context.time, device: context.device, tool: tool, pose: context.pose))
            state = .held
            took(.reset, &log)
        case .press, .timeout:
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

    private func bug(_ input: GestureInput, _ context: GestureContext, log: inout GestureLog) {
        bug(input, state: state.name, context, log: &log)
    }
}

extension SqueezeMachine {
    enum Transition: Int, GestureMachineTransition {
        case idlePress, idleReset, changed, ended, cancelled, reset, heldRelease, heldForgotten

        var edge: (from: String, to: String, label: String) {
            switch self {
            case .idlePress: return ("idle", "squeezing", "press / squeeze began")
            case .idleReset: return ("idle", "held", "reset, still held")
            case .changed: return ("squeezing", "squeezing", "motion / squeeze changed")
            case .ended: return ("squeezing", "idle", "release, toolLeft / squeeze ended")
            case .cancelled: return ("squeezing", "idle", "toolReplaced, deviceRemoved, reset released / squeeze cancelled")
            case .reset: return ("squeezing", "held", "reset, still held / squeeze cancelled")
            case .heldRelease: return ("held", "idle", "release")
            case .heldForgotten: return ("held", "idle", "toolLeft, toolReplaced, deviceRemoved, reset released")
            }
        }

        var mirrorMeaning: MirrorMeaning? { nil }
    }

    /// The dedicated button held a while; under longPress the tap machine plays the squeeze.
    static func demonstration(of gesture: Gesture, settings: GestureSettings, device: DeviceInfo)
        -> Result<GestureDemonstration.Script, GestureDemonstration.Unplayable>? {
        guard gesture == .squeeze else { return nil }
        guard let squeeze = settings.squeezeButton else {
            return settings.longPress ? nil : .failure(.switchedOff(preference: "squeezeButton"))
        }
        return .success(GestureDemonstration.Script(changes: [
            GestureDemonstration.ButtonChange(offset: 0, button: squeeze, down: true),
            GestureDemonstration.ButtonChange(offset: GestureDemonstration.buttonHold, button: squeeze, down: false),
        ]))
    }
}
