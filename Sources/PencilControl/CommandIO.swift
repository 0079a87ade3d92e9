import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem

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

extension CommandIO {
    /// Loads an evemu recording (with an optional separate description), reporting a
    /// missing file (66) or a malformed one (65) on stderr as `file:line: what is wrong`.
    static func loadRecording(_ path: String, description: String?, io: CommandIO) throws(ReportedFailure) -> EvemuRecording {
        do {
            return try EvemuRecording.load(path: path, descriptionPath: description)
        } catch {
            io.errors.line("\(error)")
            throw ReportedFailure(status: error.exitCode)
        }
    }

    /// The recording `options` name, when it is a pen's: anything else is refused on stderr as
    /// `PATH: not a pen device (why): consequence` (after `prefix`) and exits 65.
    static func loadPen(_ options: some RecordingOptions, io: CommandIO, prefix: String = "",
                        consequence: String) throws(ReportedFailure) -> EvemuRecording {
        let recording = try loadRecording(options.recording, description: options.description, io: io)
        guard case .notAPen(let reason) = PenDeviceClassifier.classify(recording.description) else { return recording }
        io.errors.line("\(prefix)\(options.recording): not a pen device (\(reason)): \(consequence)")
        throw ReportedFailure(status: ExitCode.dataError)
    }
}

/// A command's options that name an evemu recording and, optionally, its separate description.
protocol RecordingOptions {
    var recording: String { get }
    var description: String? { get }
}
