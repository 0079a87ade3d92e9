/// The arguments of a command line that are not options (a recording, a gesture, KEY=VALUE),
/// in order: how many there may be, and what each does to the options being built.
public struct Operand<Options>: Sendable {
    /// Its placeholder in usage: `RECORDING`.
    public let name: String
    public let count: ClosedRange<Int>
    /// What to say when fewer than `count` were given.
    public let missing: String
    let apply: @Sendable (inout Options, String) throws(UsageError) -> Void

    /// `count` operands named `name`; each goes through `set` in the order given.
    public init(_ name: String, count: ClosedRange<Int> = 1...1, missing: String? = nil,
                set: @escaping @Sendable (inout Options, String) throws(UsageError) -> Void) {
        self.name = name
        self.count = count
        self.missing = missing ?? "\(name) is missing"
        self.apply = set
    }

    /// How usage writes it: `RECORDING`, `[test ACTION]`, `KEY=VALUE...`.
    var usage: String {
        switch (count.lowerBound, count.upperBound) {
        case (0, Int.max): return "[\(name)...]"
        case (0, _): return "[\(name)]"
        case (_, Int.max): return "\(name)..."
        default: return name
        }
    }
}
