import PencilProtocol

/// The transitions of both machines, exactly as docs/gestures.md draws them:
/// `from --> to : label`. Each handler records the transition it takes.
public enum GestureTransition: Int, CaseIterable, Sendable {
    case tapIdlePress
    case tapIdleReset
    case tapFirstPressClick
    case tapFirstPressTooLong
    case tapFirstPressMoved
    case tapFirstPressLongPress
    case tapFirstPressForgotten
    case tapFirstPressReset
    case tapMovedClick
    case tapMovedTooLong
    case tapMovedForgotten
    case tapMovedReset
    case tapDoubleTap
    case tapNewSequence
    case tapClickedForgotten
    case tapClickedReset
    case tapHeldRelease
    case tapHeldForgotten
    case tapSqueezeChanged
    case tapSqueezeEnded
    case tapSqueezeCancelled
    case tapSqueezeReset
    case squeezeIdlePress
    case squeezeIdleReset
    case squeezeChanged
    case squeezeEnded
    case squeezeCancelled
    case squeezeReset
    case squeezeHeldRelease
    case squeezeHeldForgotten

    public var machine: GestureBug.Machine { rawValue < GestureTransition.squeezeIdlePress.rawValue ? .tap : .squeeze }

    /// (from, to, label) as in the diagram.
    public var edge: (from: String, to: String, label: String) {
        switch self {
        case .tapIdlePress: return ("idle", "firstPress", "press")
        case .tapIdleReset: return ("idle", "held", "reset, still held")
        case .tapFirstPressClick: return ("firstPress", "clicked", "release within tapMaxDuration")
        case .tapFirstPressTooLong: return ("firstPress", "idle", "release after tapMaxDuration")
        case .tapFirstPressMoved: return ("firstPress", "firstPressMoved", "motion beyond slop, under longPress")
        case .tapFirstPressLongPress: return ("firstPress", "longPressing", "timeout / squeeze began")
        case .tapFirstPressForgotten: return ("firstPress", "idle", "toolLeft, toolReplaced, deviceRemoved, reset released")
        case .tapFirstPressReset: return ("firstPress", "held", "reset, still held")
        case .tapMovedClick: return ("firstPressMoved", "clicked", "release within tapMaxDuration")
        case .tapMovedTooLong: return ("firstPressMoved", "idle", "release after tapMaxDuration")
        case .tapMovedForgotten: return ("firstPressMoved", "idle", "toolLeft, toolReplaced, deviceRemoved, reset released")
        case .tapMovedReset: return ("firstPressMoved", "held", "reset, still held")
        case .tapDoubleTap: return ("clicked", "held", "press as second press / doubleTap")
        case .tapNewSequence: return ("clicked", "firstPress", "press not a second press")
        case .tapClickedForgotten: return ("clicked", "idle", "toolLeft, toolReplaced, deviceRemoved, reset released")
        case .tapClickedReset: return ("clicked", "held", "reset, still held")
        case .tapHeldRelease: return ("held", "idle", "release")
        case .tapHeldForgotten: return ("held", "idle", "toolLeft, toolReplaced, deviceRemoved, reset released")
        case .tapSqueezeChanged: return ("longPressing", "longPressing", "motion / squeeze changed")
        case .tapSqueezeEnded: return ("longPressing", "idle", "release, toolLeft / squeeze ended")
        case .tapSqueezeCancelled: return ("longPressing", "idle", "toolReplaced, deviceRemoved, reset released / squeeze cancelled")
        case .tapSqueezeReset: return ("longPressing", "held", "reset, still held / squeeze cancelled")
        case .squeezeIdlePress: return ("idle", "squeezing", "press / squeeze began")
        case .squeezeIdleReset: return ("idle", "held", "reset, still held")
        case .squeezeChanged: return ("squeezing", "squeezing", "motion / squeeze changed")
        case .squeezeEnded: return ("squeezing", "idle", "release, toolLeft / squeeze ended")
        case .squeezeCancelled: return ("squeezing", "idle", "toolReplaced, deviceRemoved, reset released / squeeze cancelled")
        case .squeezeReset: return ("squeezing", "held", "reset, still held / squeeze cancelled")
        case .squeezeHeldRelease: return ("held", "idle", "release")
        case .squeezeHeldForgotten: return ("held", "idle", "toolLeft, toolReplaced, deviceRemoved, reset released")
        }
    }
}
