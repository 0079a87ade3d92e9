import PencilProtocol

/// An input a machine's state cannot receive: a bug in pencild (or in the frames it was
/// given), reported rather than trapped. The machine keeps its state.
public struct GestureBug: Error, Equatable, Sendable, CustomStringConvertible {
    /// The machine's name ("tap", "squeeze").
    public var machine: String
    public var state: String
    public var input: String
    public var time: Int64

    public var description: String {
        "gesture bug: \(machine) machine in state \(state) got \(input) at \(time) µs"
    }
}
