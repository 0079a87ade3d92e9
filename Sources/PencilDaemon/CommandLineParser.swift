import PencilProtocol
import PencilSystem
import Varlink

public enum CommandLineParser {
    public static let usage = """
    Usage: pencild [OPTIONS]

    Reads tablet pens, recognises hover, double-tap and squeeze, and streams pen and gesture
    events to clients over varlink.

    Options:
      --socket PATH          listen on PATH (default: $PENCILD_SOCKET, else
                             /run/pencild/pencild.sock as root, $XDG_RUNTIME_DIR/pencild.sock as a user;
                             a user's pencild without either refuses to start)
      --state-dir DIR        keep preferences in DIR (default: $STATE_DIRECTORY or /var/lib/pencild
                             as root, $XDG_STATE_HOME/pencild or ~/.local/state/pencild as a user)
      --config FILE          read settings from FILE ([Daemon] and [Limits] sections)
      --log-level LEVEL      error, warning, notice, info or debug (default: info)
      --replay FILE          play an evemu recording as device replay0, replay1... (repeatable)
      --replay-desc FILE     the device description for the previous --replay, when it has no header
      --speed FACTOR|max     replay speed (default: 1, real time)
      --no-wait              start replays at once instead of at the first Monitor
      --wait-monitors N      start replays once N Monitor calls have subscribed (default: 1)
      --exit-after-replay    exit once every replay has ended and every client has its events
      --demo                 add a built-in demo pen that hovers and draws in a loop; it makes a
                             gesture when asked (pencilctl try double-tap, pencilctl try squeeze)
      --no-udev              do not open live devices
      --libwacom-data DIR    read libwacom's tablet and stylus files from DIR (default: the system's)
      --system               serve every local user, as the system service does (implied as root):
                             the user of a seat's active session decides its pens' mirrors
      --mirror-replays       route replays as a mirror would (withholdGestureClicks on) and drop
                             what it would write: the pass-through's cost without a kernel (benchmarks)
      --version              print the version and exit
      --help                 print this help and exit
    """

    /// Parses `arguments` (without the program name). The config file is read here too, so that
    /// the command line overrides it whatever the order.
    public static func parse(_ arguments: [String], defaults: Configuration = .defaults(),
                             readFile: (String) throws -> String = ConfigurationFile.read) throws(ConfigurationError) -> Command {
        var configuration = defaults
        // The config file first, wherever --config stands, so that the command line overrides it.
        if let position = arguments.firstIndex(of: "--config") {
            guard position + 1 < arguments.count else { throw ConfigurationError("--config needs a value") }
            let file = arguments[position + 1]
            let text: String
            do { text = try readFile(file) } catch { throw ConfigurationError("\(file): cannot read: \(error)") }
            try ConfigurationFile.apply(text, fileName: file, to: &configuration)
        }
        var index = 0
        func value(_ option: String) throws(ConfigurationError) -> String {
            index += 1
            guard index < arguments.count else { throw ConfigurationError("\(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--help", "-h": return .help
            case "--version": return .version
            case "--socket": configuration.socketPath = try value(argument)
            case "--state-dir": configuration.stateDirectory = try value(argument)
            case "--config": _ = try value(argument)
            case "--log-level":
                let name = try value(argument)
                guard let level = LogLevel(name: name) else { throw ConfigurationError("--log-level: unknown level '\(name)'") }
                configuration.logLevel = level
            case "--replay": configuration.replays.append(.init(path: try value(argument)))
            case "--replay-desc":
                let path = try value(argument)
                guard !configuration.replays.isEmpty else { throw ConfigurationError("--replay-desc must follow a --replay") }
                configuration.replays[configuration.replays.count - 1].descriptionPath = path
            case "--speed":
                let text = try value(argument)
                if text == "max" {
                    configuration.replaySpeed = nil
                } else {
                    // Bounded so that every recorded delay maps to a host time without overflow.
                    guard let speed = Double(text), speed >= 0.001, speed <= 1_000_000 else {
                        throw ConfigurationError("--speed: expected a number from 0.001 to 1000000, or max, not '\(text)'")
                    }
                    configuration.replaySpeed = speed
                }
            case "--no-wait": configuration.replayWaitsForMonitors = 0
            case "--wait-monitors":
                let text = try value(argument)
                guard let count = Int(text), count >= 0 else { throw ConfigurationError("--wait-monitors: expected a count, not '\(text)'") }
                configuration.replayWaitsForMonitors = count
            case "--exit-after-replay": configuration.exitAfterReplay = true
            case "--demo": configuration.demo = true
            case "--system": configuration.mode = .system
            case "--no-udev": configuration.liveDevices = false
            case "--libwacom-data": configuration.libwacomDataDirectory = try value(argument)
            case "--mirror-replays": configuration.mirrorsReplays = true
            default:
                throw ConfigurationError("unknown option '\(argument)' (see --help)")
            }
            index += 1
        }
        return .run(configuration)
    }
}
