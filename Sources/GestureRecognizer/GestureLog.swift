import PencilProtocol

/// What the machines report besides events: what their transitions mean to the mirror, and
/// bugs (the first few kept, all counted).
struct GestureLog: Sendable {
    static let keptBugs = 16

    /// What the transitions taken since the owner cleared them tell the mirror.
    var mirrorMeanings: MirrorMeaning = []
    var bugs: [GestureBug] = []
    var bugCount = 0

    mutating func bug(_ machine: String, state: String, input: GestureInput, time: Int64) {
        bugCount += 1
        if bugs.count < Self.keptBugs {
            bugs.append(GestureBug(machine: machine, state: state, input: input.name, time: time))
        }
    }
}
