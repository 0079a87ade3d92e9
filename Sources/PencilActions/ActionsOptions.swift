import PencilClient
import PencilProtocol
import PencilSystem
import Varlink
#if canImport(Glibc)
import Glibc
#endif

/// How pencil-actions runs: its command line, parsed.
public struct ActionsOptions: Equatable, Sendable {
    public var configPath: String
    /// nil: as pencilctl finds it ($PENCILD_SOCKET, the user's, then the system's).
    public var socketPath: String?
    /// Microseconds between two frames of a chord.
    public var keyInterval: Int64 = 10_000
    /// Command bindings running at once.
    public var maximumCommands = 4
    public var verbose = false
    /// Which desktop tells pencil-actions the focused app: "auto" chooses from the session.
    public var focus = "auto"
    /// The KWin script to load (nil: the installed one).
    public var kwinScript: String?

    public init(configPath: String, socketPath: String? = nil) {
        self.configPath = configPath
        self.socketPath = socketPath
    }

    public static let usage = """
        usage: pencil-actions [--config FILE] [--socket PATH] [--focus PROVIDER] [--kwin-script FILE] [--key-interval MS] [--max-commands N] [--verbose]

        Performs the user's preferred action for a pen's double-tap and squeeze, for apps that do
        not subscribe to pencild themselves: a key chord on pencild's keyboard, or a command.

          --config FILE        the bindings (default: $XDG_CONFIG_HOME/pencild/actions.conf)
          --socket PATH        pencild's socket (default: $PENCILD_SOCKET, else
                               $XDG_RUNTIME_DIR/pencild.sock when it exists, else /run/pencild/pencild.sock)
          --focus PROVIDER     how to know the focused app for [ACTION @APP] sections: auto (default:
                               from the session), x11, wlroots, kde, gnome or none
          --kwin-script FILE   the script KWin runs to report the focus (default: the installed
                               share/pencil-actions/kwin-focus.js)
          --key-interval MS    milliseconds between the key changes of a chord (default: 10)
          --max-commands N     command bindings running at once (default: 4)
          --verbose            say what each gesture does
          --help               print this help and exit
        """

    public enum Parsed: Equatable, Sendable {
        case run(ActionsOptions)
        case help
    }

    public static func parse(_ arguments: [String], defaultConfigPath: String) -> Result<Parsed, ActionsUsageError> {
        var options = ActionsOptions(configPath: defaultConfigPath)
        var index = 0
        func value(_ option: String) -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--help", "-h": return .success(.help)
            case "--verbose", "-v": options.verbose = true
            case "--config", "--socket", "--focus", "--kwin-script", "--key-interval", "--max-commands":
                guard let text = value(argument) else { return .failure(ActionsUsageError(message: "\(argument) needs a value")) }
                switch argument {
                case "--config": options.configPath = text
                case "--socket": options.socketPath = text
                case "--kwin-script": options.kwinScript = text
                case "--focus":
                    guard FocusChoice.names.contains(text) else {
                        return .failure(ActionsUsageError(message: "--focus: expected one of \(FocusChoice.names.joined(separator: ", ")), not '\(text)'"))
                    }
                    options.focus = text
                case "--key-interval":
                    guard let milliseconds = Int64(text), (1...1_000).contains(milliseconds) else {
                        return .failure(ActionsUsageError(message: "--key-interval: expected milliseconds from 1 to 1000, not '\(text)'"))
                    }
                    options.keyInterval = milliseconds * 1_000
                default:
                    guard let count = Int(text), (1...64).contains(count) else {
                        return .failure(ActionsUsageError(message: "--max-commands: expected a count from 1 to 64, not '\(text)'"))
                    }
                    options.maximumCommands = count
                }
            default:
                return .failure(ActionsUsageError(message: "unknown option '\(argument)'"))
            }
            index += 1
        }
        return .success(.run(options))
    }
}
