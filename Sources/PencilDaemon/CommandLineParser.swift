import CommandLineOptions
import PencilProtocol
import PencilSystem
import Varlink

public enum CommandLineParser {
    /// What the options build: the configuration, and whether only the version was asked for.
    struct Parsed {
        var configuration: Configuration
        var version = false
    }

    static let parser = OptionParser<Parsed>(command: "pencild", options: [
        .value("--socket", valueName: "PATH", help: [
            "listen on PATH (default: $PENCILD_SOCKET, else",
            "/run/pencild/pencild.sock as root, $XDG_RUNTIME_DIR/pencild.sock as a user;",
            "a user's pencild without either refuses to start)",
        ]) { $0.configuration.socketPath = $1 },
        .value("--state-dir", valueName: "DIR", help: [
            "keep preferences in DIR (default: $STATE_DIRECTORY or /var/lib/pencild",
            "as root, $XDG_STATE_HOME/pencild or ~/.local/state/pencild as a user)",
        ]) { $0.configuration.stateDirectory = $1 },
        // Read before every other option, in `parse`, so that the command line overrides it.
        .value("--config", valueName: "FILE", help: ["read settings from FILE ([Daemon] and [Limits] sections)"]) { _, _ in },
        .value("--log-level", valueName: "LEVEL", help: ["error, warning, notice, info or debug (default: info)"]) { options, name throws(UsageError) in
            guard let level = LogLevel(name: name) else { throw UsageError("--log-level: unknown level '\(name)'") }
            options.configuration.logLevel = level
        },
        .value("--replay", valueName: "FILE", repeats: true, help: ["play an evemu recording as device replay0, replay1... (repeatable)"]) {
            $0.configuration.replays.append(.init(path: $1))
        },
        .value("--replay-desc", valueName: "FILE", repeats: true, help: ["the device description for the previous --replay, when it has no header"]) {
            options, path throws(UsageError) in
            guard !options.configuration.replays.isEmpty else { throw UsageError("--replay-desc must follow a --replay") }
            options.configuration.replays[options.configuration.replays.count - 1].descriptionPath = path
        },
        .value("--speed", valueName: "FACTOR|max", help: ["replay speed (default: 1, real time)"]) { options, text throws(UsageError) in
            if text == "max" {
                options.configuration.replaySpeed = nil
                return
            }
            // Bounded so that every recorded delay maps to a host time without overflow.
            guard let speed = Double(text), speed >= 0.001, speed <= 1_000_000 else {
                throw UsageError("--speed: expected a number from 0.001 to 1000000, or max, not '\(text)'")
            }
            options.configuration.replaySpeed = speed
        },
        .flag("--no-wait", help: ["start replays at once instead of at the first Monitor"]) { $0.configuration.replayWaitsForMonitors = 0 },
        .value("--wait-monitors", valueName: "N", help: ["start replays once N Monitor calls have subscribed (default: 1)"]) {
            options, text throws(UsageError) in
            guard let count = Int(text), count >= 0 else { throw UsageError("--wait-monitors: expected a count, not '\(text)'") }
            options.configuration.replayWaitsForMonitors = count
        },
        .flag("--exit-after-replay", help: ["exit once every replay has ended and every client has its events"]) {
            $0.configuration.exitAfterReplay = true
        },
        .flag("--demo", help: [
            "add a built-in demo pen that hovers and draws in a loop; it makes a",
            "gesture when asked (pencilctl try double-tap, pencilctl try squeeze)",
        ]) { $0.configuration.demo = true },
        .flag("--no-udev", help: ["do not open live devices"]) { $0.configuration.liveDevices = false },
        .value("--libwacom-data", valueName: "DIR", help: ["read libwacom's tablet and stylus files from DIR (default: the system's)"]) {
            $0.configuration.libwacomDataDirectory = $1
        },
        .flag("--system", help: [
            "serve every local user, as the system service does (implied as root):",
            "the user of a seat's active session decides its pens' mirrors",
        ]) { $0.configuration.mode = .system },
        .flag("--mirror-replays", help: [
            "route replays as a mirror would (withholdGestureClicks on) and drop",
            "what it would write: the pass-through's cost without a kernel (benchmarks)",
        ]) { $0.configuration.mirrorsReplays = true },
        .flag("--version", help: ["print the version and exit"]) { $0.version = true },
    ])

    public static var usage: String {
        parser.help(about: [
            "Reads tablet pens, recognises hover, double-tap and squeeze, and streams pen and gesture",
            "events to clients over varlink.",
        ])
    }

    /// Parses `arguments` (without the program name). The config file is read here too, so that
    /// the command line overrides it whatever the order.
    public static func parse(_ arguments: [String], defaults: Configuration = .defaults(),
                             readFile: (String) throws -> String = ConfigurationFile.read) throws(ConfigurationError) -> Command {
        if parser.asksForHelp(arguments) { return .help }
        var configuration = defaults
        switch parser.values(of: "--config", in: arguments) {
        case .failure(let problem):
            throw ConfigurationError("\(problem.message) (see --help)")
        case .success(let files):
            for file in files {
                let text: String
                do { text = try readFile(file) } catch { throw ConfigurationError("\(file): cannot read: \(error)") }
                try ConfigurationFile.apply(text, fileName: file, to: &configuration)
            }
        }
        switch parser.parse(arguments, into: Parsed(configuration: configuration)) {
        case .failure(let problem):
            throw ConfigurationError("\(problem.message) (see --help)")
        case .success(let parsed):
            return parsed.version ? .version : .run(parsed.configuration)
        }
    }
}
