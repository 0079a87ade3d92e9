import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem

/// One pencilctl command: `pencilctl NAME ARGUMENTS...`. Each lives in its own file and is
/// listed in `PencilControl.commands`.
public protocol PencilCommand {
    static var name: String { get }
    /// The usage line after `pencilctl `, e.g. "events RECORDING [--desc DESC]".
    static var usage: String { get }
    static var summary: String { get }
    /// Runs with the arguments after the command's name; returns the exit status.
    static func run(arguments: [String], io: CommandIO) -> Int32
}

extension PencilCommand {
    /// Reports a mistake in the command's arguments, with its usage line: exit status 64.
    static func usageError(_ problem: String, io: CommandIO) -> Int32 {
        io.errors.line("pencilctl \(name): \(problem)")
        io.errors.line("usage: pencilctl \(usage)")
        return ExitCode.usage
    }
}
