import PencilProtocol

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
