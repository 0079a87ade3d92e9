import CommandLineOptions

/// One pencilctl command: `pencilctl NAME ARGUMENTS...`. Each lives in its own file and is
/// listed in `PencilControl.commands`; its options are a table (`parser`), from which its
/// usage line and `--help` are written.
protocol PencilCommand {
    associatedtype Options
    static var name: String { get }
    static var summary: String { get }
    /// What `--help` says after the usage line, before the options.
    static var about: [String] { get }
    static var parser: OptionParser<Options> { get }
    /// Runs with the arguments after the command's name; returns the exit status.
    static func run(arguments: [String], io: CommandIO) -> Int32
}

extension PencilCommand {
    static var about: [String] { [summary] }

    /// The usage line: "pencilctl events RECORDING [--desc DESC] [--preferences JSON]".
    static var usage: String { parser.usage }

    /// `pencilctl NAME --help`.
    static var help: String { parser.help(about: about) }

    /// Whether `arguments` ask for this command's help.
    static func asksForHelp(_ arguments: [String]) -> Bool { parser.asksForHelp(arguments) }

    /// The options `arguments` give; nil once a mistake in them is reported (exit status 64).
    static func parsed(_ arguments: [String], into initial: Options, io: CommandIO) -> Options? {
        switch parser.parse(arguments, into: initial) {
        case .success(let options): return options
        case .failure(let problem):
            _ = usageError(problem.message, io: io)
            return nil
        }
    }

    /// Reports a mistake in the command's arguments, with its usage line: exit status 64.
    static func usageError(_ problem: String, io: CommandIO) -> Int32 {
        io.errors.line("pencilctl \(name): \(problem)")
        io.errors.line("usage: \(usage)")
        return ExitCode.usage
    }
}
