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
    static func loadRecording(_ path: String, description: String?, io: CommandIO) -> Result<EvemuRecording, ReportedFailure> {
        do {
            return .success(try EvemuRecording.load(path: path, descriptionPath: description))
        } catch {
            io.errors.line("\(error)")
            return .failure(ReportedFailure(status: error.exitCode))
        }
    }

    /// The recording at `path`, when it is a pen's: anything else is reported with `refusal`
    /// (given why the device is no pen) and exits 65.
    static func loadPen(_ path: String, description: String?, io: CommandIO,
                        refusal: (String) -> TerminalMessage) -> Result<EvemuRecording, ReportedFailure> {
        loadRecording(path, description: description, io: io).flatMap { recording in
            guard case .notAPen(let reason) = PenDeviceClassifier.classify(recording.description) else { return .success(recording) }
            io.errors.line(refusal(reason))
            return .failure(ReportedFailure(status: ExitCode.dataError))
        }
    }
}
