/// One option of a command line: its names, the value it takes (if any), its help, and what it
/// does to the options being built. The first name is the one help and usage show; the others
/// (`-v` beside `--verbose`) are accepted too.
public struct Option<Options>: Sendable {
    public let names: [String]
    /// The value's placeholder in help and usage (`FILE`); nil for a flag, which takes none.
    public let valueName: String?
    /// What help says of it, a line each; none leaves it out of help and usage.
    public let help: [String]
    /// May be given more than once; usage shows `...` after it.
    public let repeats: Bool
    let apply: @Sendable (inout Options, String) throws(UsageError) -> Void

    /// An option without a value: `--hold`. `--hold=yes` is a usage error.
    public static func flag(_ names: String..., help: [String] = [], set: @escaping @Sendable (inout Options) -> Void) -> Option {
        Option(names: names, valueName: nil, help: help, repeats: false) { options, _ throws(UsageError) in set(&options) }
    }

    /// An option with a value, given as `--desc FILE` or `--desc=FILE`; `set` checks the value
    /// and throws a `UsageError` that names the option when it is wrong.
    public static func value(_ names: String..., valueName: String, repeats: Bool = false, help: [String] = [],
                             set: @escaping @Sendable (inout Options, String) throws(UsageError) -> Void) -> Option {
        Option(names: names, valueName: valueName, help: help, repeats: repeats, apply: set)
    }

    /// Its name and value as usage and help show it: `--desc DESC`, `--hold`.
    var label: String { valueName.map { "\(names[0]) \($0)" } ?? names[0] }

    /// How usage writes it: `[--desc DESC]`, `[--device ID]...`.
    var usage: String { "[\(label)]" + (repeats ? "..." : "") }
}
