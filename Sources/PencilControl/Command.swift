import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem

/// sysexits codes the commands exit with.
public enum ExitCode {
    public static let success: Int32 = 0
    public static let usage: Int32 = 64
    public static let dataError: Int32 = 65
    public static let noInput: Int32 = 66
    public static let unavailable: Int32 = 69
    public static let software: Int32 = 70
}

/// Where a command writes: a descriptor (buffered; flushed at the end and when asked), or
/// memory for tests. Lines for a person are `TerminalMessage`s, whose values are escaped where
/// they are put in; what is written raw (JSON, evemu, a screen) is made safe by its writer.
public final class CommandOutput {
    private let descriptor: FileDescriptor?
    private var buffer: [UInt8] = []
    /// Everything written, when capturing.
    public private(set) var captured: [UInt8] = []

    private init(descriptor: FileDescriptor?) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    public static func standardOutput() -> CommandOutput { CommandOutput(descriptor: FileDescriptor(rawValue: 1)) }
    public static func standardError() -> CommandOutput { CommandOutput(descriptor: FileDescriptor(rawValue: 2)) }
    public static func capturing() -> CommandOutput { CommandOutput(descriptor: nil) }

    public var capturedText: String { String(decoding: captured, as: UTF8.self) }

    public func write(_ bytes: [UInt8]) {
        guard descriptor != nil else {
            captured.append(contentsOf: bytes)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func write(_ text: String) { write(Array(text.utf8)) }

    /// Writes a line for a person: the message, and a newline.
    public func line(_ message: TerminalMessage) { write(message.text + "\n") }

    /// Writes a line whose text is safe already (a JSON document, a line whose untrusted
    /// parts were escaped where they were put in), and a newline.
    public func rawLine(_ text: String) { write(text + "\n") }

    /// Hands what is buffered to the descriptor. A reader that went away (EPIPE) is not an
    /// error of the command's: what is left is dropped.
    public func flush() {
        guard let descriptor, !buffer.isEmpty else { return }
        try? descriptor.writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}

/// A command's standard output and standard error.
public struct CommandIO {
    public var output: CommandOutput
    public var errors: CommandOutput

    public init(output: CommandOutput, errors: CommandOutput) {
        self.output = output
        self.errors = errors
    }

    public static func standard() -> CommandIO { CommandIO(output: .standardOutput(), errors: .standardError()) }
    public static func capturing() -> CommandIO { CommandIO(output: .capturing(), errors: .capturing()) }
}

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

/// pencilctl's dispatcher.
public enum PencilControl {
    public static var commands: [any PencilCommand.Type] {
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
        return command.run(arguments: Array(arguments.dropFirst()), io: io)
    }

    public static var usageText: String {
        var text = "usage:\n"
        for command in commands {
            text += "  pencilctl \(command.usage)\n      \(command.summary)\n"
        }
        return text
    }
}

/// A command's failure already reported on stderr, with the exit status it ends with.
public struct ReportedFailure: Error, Equatable {
    public var status: Int32
}

extension CommandIO {
    /// Loads an evemu recording (with an optional separate description), reporting a
    /// missing file (66) or a malformed one (65) on stderr as `file:line: what is wrong`.
    static func loadRecording(_ path: String, description: String?, io: CommandIO) -> Result<EvemuRecording, ReportedFailure> {
        do {
            return .success(try EvemuRecording.load(path: path, descriptionPath: description))
        } catch {
            io.errors.line("\(error)")
            return .failure(ReportedFailure(status: error.exitCode))
        }
    }
}
