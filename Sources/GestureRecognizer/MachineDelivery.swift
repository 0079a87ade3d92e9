import PencilInput
import PencilProtocol

/// What each machine hears in one step: one input worked out per machine, for the machines
/// that are on (whose button `GestureMachine.button(in:)` resolves), in the machines' order;
/// and, machine by machine, what they hold and await afterwards. A machine that is off hears
/// nothing, so it holds no button and has no deadline. The recogniser swaps its log and the
/// caller's events in and out, so nothing is copied.
struct MachineDelivery: GestureMachineVisitor {
    enum Rule {
        /// Every machine hears the same input.
        case every(GestureInput)
        /// `reset`, the button held or not as `buttons` has it (lost events, a new tool state).
        case reset(held: ButtonSet)
        /// `reset(buttonHeld: true)` for the machines whose button `buttons` holds; nothing for
        /// the others (a recogniser made while buttons are down).
        case adopt(held: ButtonSet)
        /// What each machine's button did in a frame (`ButtonView`).
        case buttons(ButtonView)
        /// `timeout` for the machines whose deadline is `at`.
        case timeout(at: Int64)
    }

    let rule: Rule
    let context: GestureContext
    let settings: GestureSettings
    var events: [Event] = []
    var log = GestureLog()
    /// The machines' earliest deadline after the step.
    var deadline: Int64?
    /// Some machine holds its button after the step.
    var holdsButton = false

    mutating func visit<Machine: GestureMachine>(_ machine: inout Machine) {
        guard let button = Machine.button(in: settings) else { return }
        defer {
            if let next = machine.deadline(settings), deadline.map({ next < $0 }) ?? true { deadline = next }
            holdsButton = holdsButton || machine.isHoldingButton
        }
        let input: GestureInput?
        switch rule {
        case .every(let every):
            input = every
        case .reset(let held):
            input = .reset(buttonHeld: held.contains(button))
        case .adopt(let held):
            input = held.contains(button) ? .reset(buttonHeld: true) : nil
        case .buttons(let view):
            input = view.input(for: button, holding: machine.isHoldingButton)
        case .timeout(let time):
            input = machine.deadline(settings) == time ? .timeout : nil
        }
        if let input { machine.handle(input, context, settings, into: &events, log: &log) }
    }
}

/// A report frame's buttons as the machines need them: whether each is down, and whether the
/// pose moved while one was held.
struct ButtonView {
    /// The buttons down (none without a tool in proximity).
    var down: ButtonSet
    var resynchronised: Bool
    /// The pose changed; only worked out while some machine holds its button.
    var moved: Bool

    /// What the button did, from what its machine believes and what the frame says; the
    /// tracker's buttonDown/buttonUp follow the same state, so the two agree.
    func input(for button: PenButton, holding: Bool) -> GestureInput? {
        switch (holding, down.contains(button)) {
        case (true, false): return .release
        // A button first seen down after lost events has no press time: it waits for release.
        case (false, true): return resynchronised ? .reset(buttonHeld: true) : .press
        case (true, true): return moved ? .motion : nil
        case (false, false): return nil
        }
    }
}

/// Whether any machine that is on has an input in a frame: most frames give none, and then
/// no context is built.
struct AnyButtonInput: GestureMachineVisitor {
    let view: ButtonView
    let settings: GestureSettings
    var found = false

    mutating func visit<Machine: GestureMachine>(_ machine: inout Machine) {
        guard !found, let button = Machine.button(in: settings) else { return }
        found = view.input(for: button, holding: machine.isHoldingButton) != nil
    }
}

/// The phased gestures in progress, with their tools (a new subscriber's catch-up).
struct PhasedGestures: GestureMachineVisitor {
    var inProgress: [(gesture: Gesture, tool: Tool?)] = []

    mutating func visit<Machine: GestureMachine>(_ machine: inout Machine) {
        if let gesture = machine.phasedGestureInProgress { inProgress.append(gesture) }
    }
}

/// The transitions each machine has taken.
struct MachineTransitions: GestureMachineVisitor {
    var taken: [GestureTransition] = []

    mutating func visit<Machine: GestureMachine>(_ machine: inout Machine) {
        taken += Machine.transitions(in: machine.taken)
    }
}
