import CommandLineOptions
import GestureRecognizer
import PencilInput
import PencilProtocol
import PencilWacom

/// `pencilctl mirror RECORDING [--desc DESC] [--preferences JSON]`: what the mirror of a pen
/// writes for a recording, offline (docs/gestures.md, "What apps receive: gesture clicks
/// withheld"): an evemu recording of the mirror, whose frames are the pen's less the clicks
/// that make a gesture, and the clicks that turn out to be none, passed on late. The
/// preferences are the deciding user's. Exit codes as `pencilctl events`.
public enum MirrorCommand: PencilCommand {
    public static let name = "mirror"
    public static let summary = "print, as an evemu recording, what the mirror would write for a recording (gesture clicks withheld)"

    static let parser = EventsCommand.recordingParser(name)

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        guard let options = parsed(arguments, into: EventsCommand.Options(), io: io) else { return ExitCode.usage }
        let recording: EvemuRecording
        do { recording = try CommandIO.loadPen(options, io: io, consequence: "pencild would make no mirror of it") } catch { return error.status }
        let device = recording.description
        let identity = WacomDatabase.load()?.identity(of: device) ?? .unknown
        let frames: [InputEvent]
        do {
            frames = try PenPipeline.mirrorFrames(of: recording.events, description: device, preferences: options.preferences,
                                                  identity: identity)
        } catch {
            io.errors.line("pencilctl mirror: --preferences: \(error)")
            return ExitCode.usage
        }
        io.output.write(EvemuWriter.recording(device, frames, comments: [
            "pencilctl mirror: what pencild's mirror of this pen writes, gesture clicks withheld",
        ]))
        return ExitCode.success
    }
}
