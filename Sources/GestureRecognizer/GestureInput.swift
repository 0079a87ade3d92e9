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

/// Where an input happened: the time, and the tool and pose its gesture events carry.
struct GestureContext {
    var time: Int64
    var device: String
    var tool: Tool?
    var pose: Pose
}

/// An input a machine's state cannot receive: a bug in pencild (or in the frames it was
/// given), reported rather than trapped. The machine keeps its state.
public struct GestureBug: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Machine: String, Sendable { case tap, squeeze }
    public var machine: Machine
    public var state: String
    public var input: String
    public var time: Int64

    public var description: String {
        "gesture bug: \(machine.rawValue) machine in state \(state) got \(input) at \(time) µs"
    }
}

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

/// What the machines report besides events: the transitions taken (a bit set, so recording
/// costs nothing) and bugs (the first few kept, all counted).
struct GestureLog: Sendable {
    static let keptBugs = 16

    var transitions: UInt64 = 0
    var bugs: [GestureBug] = []
    var bugCount = 0

    mutating func took(_ transition: GestureTransition) {
        transitions |= 1 << UInt64(transition.rawValue)
    }

    mutating func bug(_ machine: GestureBug.Machine, state: String, input: GestureInput, time: Int64) {
        bugCount += 1
        if bugs.count < Self.keptBugs {
            bugs.append(GestureBug(machine: machine, state: state, input: input.name, time: time))
        }
    }
}

extension Event {
    static func squeeze(_ phase: Phase, time: Int64, device: String, tool: Tool?, pose: Pose, action: PreferredAction? = nil) -> Event {
        Event(type: .squeeze, time: time, device: device, tool: tool, pose: pose, phase: phase, action: action, focus: Focus.none)
    }
}
