import CommandLineOptions
import GestureRecognizer
import PencilClient
import PencilProtocol
import PencilSystem
import Varlink

/// `pencilctl try double-tap|squeeze [--device ID] [--delay SECONDS]`: pencild's demo pen
/// (`pencild --demo`) makes one gesture, the way this user would make it with their
/// preferences (`PlayGesture`), and pencilctl says what pencild recognised: the gesture, the
/// action it carries, and the focus, that is who acts on it. A way to try an app, Krita's
/// plugin or pencil-actions without a pen.
public enum TryCommand: PencilCommand {
    public static let name = "try"
    public static let summary = "make pencild's demo pen (pencild --demo) \(gestureChoice) once, and show what it carries"

    struct Options: Equatable {
        var gesture: Gesture
        var device: String?
        /// Seconds to wait first, to bring the app to try to the front.
        var delay: Double = 0
    }

    /// The longest delay: longer is a mistake.
    static let maximumDelay = 60.0

    static let parser = OptionParser<Options>(command: "pencilctl try", options: [
        .value("--device", valueName: "ID", help: ["the demo pen to use (default: demo0)"]) { options, id throws(UsageError) in
            guard !id.isEmpty else { throw UsageError("--device needs a device id") }
            options.device = id
        },
        .value("--delay", valueName: "SECONDS", help: ["wait first, to bring the app to try to the front"]) { options, text throws(UsageError) in
            guard let seconds = Double(text), (0...maximumDelay).contains(seconds) else {
                throw UsageError("--delay needs a number of seconds from 0 to \(Int(maximumDelay))")
            }
            options.delay = seconds
        },
    ], operands: [
        Operand(gestureWords, missing: "which gesture? \(gestureChoice)") { options, word throws(UsageError) in
            guard let gesture = Gesture.allCases.first(where: { $0.rawValue == word || Self.word($0) == word }) else {
                throw UsageError("unexpected argument \(word) (\(gestureChoice))")
            }
            options.gesture = gesture
        },
    ])

    static func parse(_ arguments: [String]) -> Result<Options, UsageError> {
        parser.parse(arguments, into: Options(gesture: .doubleTap))
    }

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        guard let options = parsed(arguments, into: Options(gesture: .doubleTap), io: io) else { return ExitCode.usage }
        if options.delay > 0 {
            io.errors.line("pencilctl try: the \(word(options.gesture)) comes in \(options.delay) s: bring the app to try to the front")
            io.errors.flush()
            MonotonicClock.sleep(until: MonotonicClock.now() + Int64(options.delay * 1_000_000))
        }
        return play(options, path: DaemonSocket.path(), io: io)
    }

    /// A gesture as a person types it: its name's words in lower case, joined by hyphens
    /// (doubleTap: double-tap).
    static func word(_ gesture: Gesture) -> String {
        var word = ""
        for character in gesture.rawValue {
            if character.isUppercase { word += "-" }
            word += character.lowercased()
        }
        return word
    }

    static let gestureWords = Gesture.allCases.map(word).joined(separator: "|")
    /// "double-tap or squeeze": each gesture, the last after "or".
    static let gestureChoice = {
        let words = Gesture.allCases.map(word)
        return words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }()

    /// Subscribes to the gestures, asks for one, and reports it once it is recognised (or why
    /// it is not, within `timeoutMilliseconds`).
    static func play(_ options: Options, path: String, io: CommandIO, timeoutMilliseconds: Int = 20_000) -> Int32 {
        // The subscription first: the gesture begins as soon as it is asked for.
        let monitor: VarlinkClient
        var stream: VarlinkClient.ReplyStream
        do {
            monitor = try VarlinkClient(path: path, timeoutMilliseconds: timeoutMilliseconds)
            stream = try monitor.stream(PenInterface.Method.monitor.qualifiedName,
                                        .object([("events", .array((Gesture.allCases.map(\.eventType.rawValue) + ["deviceRemoved"]).map(JSONValue.string)))]))
        } catch {
            io.errors.line("pencilctl: " + DaemonSocket.explain(error, path: path))
            return ExitCode.unavailable
        }
        defer { monitor.close() }
        var parameters: [(String, JSONValue)] = [("gesture", .string(options.gesture.rawValue))]
        if let device = options.device { parameters.append(("device", .string(device))) }
        let device: String
        do {
            let reply = try DaemonCall.call(PenInterface.Method.playGesture.qualifiedName, .object(parameters), path: path)
            device = reply["device"]?.stringValue ?? options.device ?? "demo0"
        } catch {
            if case .remote(let remote) = error, remote.name == PenInterface.ErrorName.gestureNotPlayable.qualifiedName {
                io.errors.line("pencilctl try: pencild at \(path) cannot play a \(word(options.gesture)): \(remote.parameters["reason"]?.stringValue ?? "")")
                io.errors.line("(README, \"Try it without a pen\")")
                return ExitCode.unavailable
            }
            if case .remote(let remote) = error, remote.name == PenInterface.ErrorName.noSuchDevice.qualifiedName {
                io.errors.line("pencilctl try: pencild at \(path) has no device \(remote.parameters["device"]?.stringValue ?? "") (pencilctl devices lists them)")
                return ExitCode.unavailable
            }
            io.errors.line("pencilctl: " + DaemonSocket.explain(error, path: path))
            return ExitCode.unavailable
        }
        do {
            var began = false
            while let reply = try stream.next() {
                guard let json = reply["event"], let event = try? Event(json: json), event.device == device else { continue }
                if event.type == .deviceRemoved {
                    io.errors.line("pencilctl try: \(device) went away before its \(word(options.gesture)) was over")
                    return ExitCode.unavailable
                }
                guard event.type == options.gesture.eventType else { continue }
                let name = options.gesture.rawValue
                switch event.phase {
                case nil where !options.gesture.isPhased:
                    io.output.line("\(name) on \(device): \(outcome(of: event))")
                    return ExitCode.success
                case .began?:
                    began = true
                case .ended?:
                    io.output.line("\(name) on \(device)\(began ? "" : " (its beginning was missed)"): \(outcome(of: event))")
                    return ExitCode.success
                case .cancelled?:
                    io.errors.line("pencilctl try: the \(name) on \(device) was cancelled")
                    return ExitCode.software
                default:
                    continue
                }
            }
            io.errors.line("pencilctl try: pencild at \(path) ended the stream before the \(word(options.gesture))")
        } catch {
            if case .timedOut = error {
                io.errors.line("pencilctl try: pencild at \(path) played a \(word(options.gesture)) on \(device), but none was recognised within \(timeoutMilliseconds / 1000) s")
            } else {
                io.errors.line("pencilctl: " + DaemonSocket.explain(error, path: path))
            }
        }
        return ExitCode.unavailable
    }

    /// The action a gesture carries and who acts on it, as a person reads it.
    static func outcome(of event: Event) -> TerminalMessage {
        let action = event.action?.rawValue ?? "none"
        switch event.focus {
        case .this?:
            return "action \(action), focus this"
        case .other?:
            return "action \(action), focus other (an app of yours holds the focus: it acts on it)"
        case Focus.none?:
            return "action \(action), focus none (no app holds your focus: pencil-actions, where it runs, performs \(action))"
        case .pen?:
            return "action \(action), focus pen (no app holds your focus: pencild switched the pen's tool itself, in every app)"
        case nil:
            return "action \(action)"
        }
    }
}
