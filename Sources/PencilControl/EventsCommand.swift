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
    public static let usage = "events RECORDING [--desc DESC] [--preferences JSON]"
    public static let summary = "print the events pencild reports for an evemu recording, one JSON object a line"

    /// The id a replayed device has (docs/protocol.md, Device).
    public static let deviceID = "replay0"

    struct Options: Equatable {
        var recording: String
        var description: String?
        var preferences: Preferences
    }

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .success(let parsed):
            options = parsed
        case .failure(let problem):
            return usageError(problem.message, io: io)
        }

        let recording: EvemuRecording
        switch CommandIO.loadRecording(options.recording, description: options.description, io: io) {
        case .success(let loaded): recording = loaded
        case .failure(let failure): return failure.status
        }
        if case .notAPen(let reason) = PenDeviceClassifier.classify(recording.description) {
            io.errors.line("\(options.recording): not a pen device (\(reason)): pencild would ignore it")
            return ExitCode.dataError
        }

        var pipeline: GesturePipeline
        do {
            // The recorded tablet as libwacom knows it, as pencild's replay of it is.
            let device = recording.description
            let identity = WacomDatabase.load()?.identity(node: nil, bus: device.bus, vendor: device.vendor, product: device.product) ?? .unknown
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

    struct UsageProblem: Error, Equatable {
        var message: String
    }

    static func parse(_ arguments: [String]) -> Result<Options, UsageProblem> {
        var recording: String?
        var description: String?
        var preferencesText: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--desc", "--preferences":
                index += 1
                guard index < arguments.count else { return .failure(UsageProblem(message: "\(argument) needs a value")) }
                if argument == "--desc" { description = arguments[index] } else { preferencesText = arguments[index] }
            case _ where argument.hasPrefix("--desc="):
                description = String(argument.dropFirst("--desc=".count))
            case _ where argument.hasPrefix("--preferences="):
                preferencesText = String(argument.dropFirst("--preferences=".count))
            case _ where argument.hasPrefix("-") && argument != "-":
                return .failure(UsageProblem(message: "unknown option \(argument)"))
            default:
                if let first = recording {
                    return .failure(UsageProblem(message: "one recording at a time (got \(first) and \(argument))"))
                }
                recording = argument
            }
            index += 1
        }
        guard let recording else { return .failure(UsageProblem(message: "no recording given")) }

        var preferences = Preferences()
        if let preferencesText {
            do {
                let json = try JSONReader.parse(preferencesText)
                preferences = try preferences.merging(json)
            } catch let error as JSONParseError {
                return .failure(UsageProblem(message: "--preferences is not JSON: \(error)"))
            } catch {
                return .failure(UsageProblem(message: "invalid --preferences: \(error)"))
            }
        }
        return .success(Options(recording: recording, description: description, preferences: preferences))
    }
}
