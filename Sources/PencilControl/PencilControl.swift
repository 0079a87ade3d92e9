import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem

/// pencilctl's dispatcher.
public enum PencilControl {
    static var commands: [any PencilCommand.Type] {
        [
            EventsCommand.self,
            MirrorCommand.self,
            DevicesCommand.self,
            MonitorCommand.self,
            WatchCommand.self,
            PrefsCommand.self,
            RecordCommand.self,
            EmulateCommand.self,
            ActionsCommand.self,
            TryCommand.self,
        ]
    }

    /// Runs `pencilctl` with its arguments (without the program name) on the standard streams.
    public static func run(arguments: [String]) -> Int32 {
        let io = CommandIO.standard()
        let status = run(arguments: arguments, io: io)
        io.output.flush()
        io.errors.flush()
        return status
    }

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        guard let name = arguments.first else {
            io.errors.write(usageText)
            return ExitCode.usage
        }
        if name == "help" || name == "--help" || name == "-h" {
            io.output.write(usageText)
            return ExitCode.success
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            io.errors.line("pencilctl: unknown command \"\(name)\"")
            io.errors.write(usageText)
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        if command.asksForHelp(rest) {
            io.output.write(command.help)
            return ExitCode.success
        }
        return command.run(arguments: rest, io: io)
    }

    public static var usageText: String {
        var text = "usage:\n"
        for command in commands {
            text += "  \(command.usage)\n      \(command.summary)\n"
        }
        text += "\"pencilctl COMMAND --help\" says more of each.\n"
        return text
    }
}
