import PencilProtocol

/// What a gesture machine reacts to. The recogniser derives these from a PenFrame for the
/// machine's one button, in this order: deviceRemoved; reset (SYN_DROPPED); toolReplaced;
/// toolLeft; then release, press or motion of the button; `timeout` comes from `advance`.
enum GestureInput: Sendable {
    /// The button went down, with a tool in proximity.
    case press
    /// The button came up, the tool staying in proximity.
    case release
    /// The pose changed while the button stayed held.
    case motion
    /// The machine's deadline was reached.
    case timeout
    /// The tool left proximity (a buttonUp of every held button came with it).
    case toolLeft
    /// Another tool came into proximity and replaced the one the machine followed.
    case toolReplaced
    /// The state was resynchronised after SYN_DROPPED, or the preferences changed: what was
    /// being recognised is forgotten. `buttonHeld`: the button is down after the reset.
    case reset(buttonHeld: Bool)
    /// The device went away.
    case deviceRemoved

    var name: String {
        switch self {
        case .press: return "press"
        case .release: return "release"
        case .motion: return "motion"
        case .timeout: return "timeout"
        case .toolLeft: return "toolLeft"
        case .toolReplaced: return "toolReplaced"
        case .reset(let held): return held ? "reset (held)" : "reset (released)"
        case .deviceRemoved: return "deviceRemoved"
        }
    }
}

extension Event {
    static func squeeze(_ phase: Phase, time: Int64, device: String, tool: Tool?, pose: Pose, action: PreferredAction? = nil) -> Event {
        Event(type: .squeeze, time: time, device: device, tool: tool, pose: pose, phase: phase, action: action, focus: Focus.none)
    }
}
