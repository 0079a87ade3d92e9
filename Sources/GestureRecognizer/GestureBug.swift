import PencilProtocol

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
