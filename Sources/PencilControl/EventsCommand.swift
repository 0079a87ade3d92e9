import CommandLineOptions
import GestureRecognizer
import PencilInput
import PencilProtocol
import PencilWacom

/// `pencilctl events RECORDING [--desc DESC] [--preferences JSON]`: the offline twin of the
/// daemon. Prints, one JSON object a line, the events pencild would report for a recording
/// (deviceAdded first, deviceRemoved last). A missing file exits 66, a malformed one 65,
/// each with `file:line: what is wrong` on stderr and no events printed; usage errors 64.
public enum EventsCommand: PencilCommand {
    public static let name = "events"
    public static let summary = "print the events pencild reports for an evemu recording, one JSON object a line"

    /// The id a replayed device has (docs/protocol.md, Device).
    public static let deviceID = "replay0"

    struct Options: Equatable, RecordingOptions {
        var recording = ""
        var description: String?
        var preferences = Preferences()
    }

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        guard let options = parsed(arguments, into: Options(), io: io) else { return ExitCode.usage }

        let recording: EvemuRecording
        do { recording = try CommandIO.loadPen(options, io: io, consequence: "pencild would ignore it") } catch { return error.status }

        var pipeline: GesturePipeline
        do {
            // The recorded tablet as libwacom knows it, as pencild's replay of it is.
            let device = recording.description
            let identity = WacomDatabase.load()?.identity(of: device) ?? .unknown
            pipeline = try GesturePipeline(description: device, id: deviceID, preferences: options.preferences, identity: identity)
        } catch {
            io.errors.line("pencilctl events: --preferences: \(error)")
            return ExitCode.usage
        }
        var writer = JSONWriter(capacity: 1024)
        var events: [Event] = []
        func printAndClear() {
            for event in events {
                writer.reset()
                writer.write(event)
                writer.bytes.append(UInt8(ascii: "\n"))
                io.output.write(writer.bytes)
            }
            events.removeAll(keepingCapacity: true)
        }
        pipeline.start(at: recording.events.first?.time ?? 0, into: &events)
        for event in recording.events {
            pipeline.feed(event, into: &events)
            printAndClear()
        }
        pipeline.finish(into: &events)
        printAndClear()
        return ExitCode.success
    }

    /// The options of `events` and `mirror`, which take the same.
    static func recordingParser(_ command: String) -> OptionParser<Options> {
        OptionParser(command: "pencilctl \(command)", options: [
            .recordingDescription { $0.description = $1 },
            .value("--preferences", valueName: "JSON", help: ["the user's preferences as the protocol's JSON (others keep their defaults)"]) {
                options, text throws(UsageError) in
                do {
                    options.preferences = try Preferences().merging(try JSONReader.parse(text))
                } catch let error as JSONParseError {
                    throw UsageError("--preferences is not JSON: \(error)")
                } catch {
                    throw UsageError("invalid --preferences: \(error)")
                }
            },
        ], operands: [
            Operand("RECORDING", missing: "no recording given") { $0.recording = $1 },
        ])
    }

    static let parser = recordingParser(name)

    static func parse(_ arguments: [String]) -> Result<Options, UsageError> { parser.parse(arguments, into: Options()) }
}
