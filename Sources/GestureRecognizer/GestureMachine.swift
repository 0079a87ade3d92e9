import PencilProtocol

/// One gesture's state machine: it follows one barrel button and makes its gesture's events
/// (docs/gestures.md draws each one). A machine lives in a file of its own,
/// `Machines/<Gesture>Machine.swift`, named after the interface's gesture it makes; the list of
/// machines, `GestureMachines`, is generated from the interface, so adding a gesture's machine
/// touches no other Swift file: the recogniser, the mirror, the demo pen and the tests iterate
/// machines.
protocol GestureMachine: Sendable {
    /// The machine's transitions, as docs/gestures.md draws them under "### <Name> machine".
    associatedtype Transition: GestureMachineTransition

    /// Its name in bugs and in docs/gestures.md's heading (lower case: "tap").
    static var name: String { get }
    /// What the mirror does with its button's events.
    static var mirror: MirrorTreatment { get }

    init()

    /// The button it follows under `settings`; nil when it is off.
    static func button(in settings: GestureSettings) -> PenButton?
    /// How a person makes `gesture` with this machine under `settings`; nil when the machine does
    /// not make it (another machine may).
    static func demonstration(of gesture: Gesture, settings: GestureSettings, device: DeviceInfo)
        -> Result<GestureDemonstration.Script, GestureDemonstration.Unplayable>?

    /// The button is down as far as the machine knows (it wants its release).
    var isHoldingButton: Bool { get }
    /// The phased gesture it has begun and not yet ended, and its tool: a subscriber arriving
    /// now catches up with a `began`.
    var phasedGestureInProgress: (gesture: Gesture, tool: Tool?)? { get }
    /// When it must hear `timeout`, unless an input comes first.
    func deadline(_ settings: GestureSettings) -> Int64?
    /// Takes one input: appends the gestures it makes to `events`, records its transition in
    /// `taken` and `log`, or an input its state cannot receive as a bug.
    mutating func handle(_ input: GestureInput, _ context: GestureContext, _ settings: GestureSettings,
                         into events: inout [Event], log: inout GestureLog)
    /// The transitions it has taken, one bit each (raw values): tests read them for coverage.
    var taken: UInt64 { get set }
}

/// The transitions of one machine: `from --> to : label` in its diagram.
protocol GestureMachineTransition: RawRepresentable<Int>, CaseIterable, Sendable {
    var edge: (from: String, to: String, label: String) { get }
    /// What the transition tells the mirror about the button's press and release, for a
    /// machine whose clicks are held back; nil when it tells nothing.
    var mirrorMeaning: MirrorMeaning? { get }
}

extension GestureMachine {
    /// Records `transition`: its bit, and what it means to the mirror.
    mutating func took(_ transition: Transition, _ log: inout GestureLog) {
        taken |= 1 << UInt64(transition.rawValue)
        if let meaning = transition.mirrorMeaning { log.mirrorMeanings.insert(meaning) }
    }

    /// An input the machine's state cannot receive (`state`: its name), kept as a bug.
    func bug(_ input: GestureInput, state: String, _ context: GestureContext, log: inout GestureLog) {
        log.bug(Self.name, state: state, input: input, time: context.time)
    }

    /// The transitions of `taken`, as the public `GestureTransition`.
    static func transitions(in bits: UInt64) -> [GestureTransition] {
        Transition.allCases.filter { bits & (1 << UInt64($0.rawValue)) != 0 }.map { GestureTransition($0, of: Self.self) }
    }
}

/// What the mirror does with the events of a machine's button (docs/gestures.md, "What apps
/// receive: gesture clicks withheld").
enum MirrorTreatment: Sendable {
    /// The button only makes gestures: every press and release is withheld.
    case withheld
    /// The button's clicks also mean clicks: a press is held back until the machine's
    /// transitions tell what it was (`MirrorMeaning`), then withheld or passed on late. One
    /// machine at most treats its button so.
    case heldBackUntilKnown
}

/// What a transition says of the held-back button's press (MirrorRouter acts on it).
struct MirrorMeaning: OptionSet, Sendable {
    let rawValue: UInt8
    /// A press that may begin a gesture: held back.
    static let firstPress = MirrorMeaning(rawValue: 1 << 0)
    /// The held press was released as a click that may still be a gesture's first.
    static let click = MirrorMeaning(rawValue: 1 << 1)
    /// The held press was released, neither a click nor a gesture: written at its release.
    static let neither = MirrorMeaning(rawValue: 1 << 2)
    /// The pen left the slop while the press is held: it is no long press.
    static let movedAway = MirrorMeaning(rawValue: 1 << 3)
    /// The press made a gesture: it and its release are withheld for good, with the click
    /// before it.
    static let gestureMade = MirrorMeaning(rawValue: 1 << 4)
    /// The held press became a long press's gesture: withheld for good, with its release.
    static let longPress = MirrorMeaning(rawValue: 1 << 5)
}

/// One transition of one machine, as docs/gestures.md draws it (tests check the two agree and
/// that each is taken).
public struct GestureTransition: Hashable, Sendable, CustomStringConvertible {
    /// The machine's name ("tap", "squeeze").
    public let machine: String
    /// The transition's name in its machine ("idlePress").
    public let name: String
    public let from: String
    public let to: String
    public let label: String

    init<Machine: GestureMachine>(_ transition: Machine.Transition, of _: Machine.Type) {
        machine = Machine.name
        name = String(describing: transition)
        (from, to, label) = transition.edge
    }

    public var description: String { "\(machine).\(name)" }

    /// Every transition of every machine, machine by machine in the interface's order.
    public static var allCases: [GestureTransition] {
        var all = AllTransitions()
        GestureMachines.visitTypes(&all)
        return all.transitions
    }

    private struct AllTransitions: GestureMachineTypeVisitor {
        var transitions: [GestureTransition] = []
        mutating func visit<Machine: GestureMachine>(_: Machine.Type) {
            transitions += Machine.transitions(in: .max)
        }
    }
}

/// Something done to each machine of a recogniser, in order (GestureMachines.visit).
protocol GestureMachineVisitor {
    mutating func visit<Machine: GestureMachine>(_ machine: inout Machine)
}

/// Something done with each kind of machine, in order (GestureMachines.visitTypes).
protocol GestureMachineTypeVisitor {
    mutating func visit<Machine: GestureMachine>(_ type: Machine.Type)
}
