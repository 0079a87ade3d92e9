import CommandLineOptions
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
    /// The bindings that apply while `configPath` does not exist (nil: none, once `--config`
    /// names a file of the person's choosing).
    public var shippedConfigPath: String?
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
    /// The system palette's program: the one installed beside pencil-actions, else
    /// `pencil-palette` from PATH.
    public var paletteProgram = InstalledData.existingPath(of: "palette/pencil-palette") ?? "pencil-palette"
    /// How long a palette may take to be on screen before it is ended (µs).
    public var paletteWait = PaletteProcess.defaultShowMicroseconds

    public init(configPath: String, socketPath: String? = nil, shippedConfigPath: String? = nil) {
        self.configPath = configPath
        self.socketPath = socketPath
        self.shippedConfigPath = shippedConfigPath
    }

    static let parser = OptionParser<ActionsOptions>(command: "pencil-actions", options: [
        .value("--config", valueName: "FILE", help: [
            "the bindings (default: $XDG_CONFIG_HOME/pencild/actions.conf, else the",
            "shipped share/pencil-actions/actions.conf)",
        ]) {
            $0.configPath = $1
            $0.shippedConfigPath = nil
        },
        .value("--shipped-config", valueName: "FILE", help: ["the bindings that apply while the --config file does not exist"]) {
            $0.shippedConfigPath = $1
        },
        .value("--socket", valueName: "PATH", help: [
            "pencild's socket (default: $PENCILD_SOCKET, else",
            "$XDG_RUNTIME_DIR/pencild.sock when it exists, else /run/pencild/pencild.sock)",
        ]) { $0.socketPath = $1 },
        .value("--focus", valueName: "PROVIDER", help: [
            "how to know the focused app for [ACTION @APP] sections: auto (default:",
            "from the session), x11, wlroots, kde, gnome or none",
        ]) { options, text throws(UsageError) in
            guard FocusChoice.names.contains(text) else {
                throw UsageError("--focus: expected one of \(FocusChoice.names.joined(separator: ", ")), not '\(text)'")
            }
            options.focus = text
        },
        .value("--kwin-script", valueName: "FILE", help: [
            "the script KWin runs to report the focus (default: the installed",
            "share/pencil-actions/kwin-focus.js)",
        ]) { $0.kwinScript = $1 },
        .value("--palette", valueName: "PROGRAM", help: [
            "the system palette's program (default: the installed",
            "share/pencil-actions/palette/pencil-palette, else pencil-palette from PATH)",
        ]) { $0.paletteProgram = $1 },
        .value("--palette-wait", valueName: "SECONDS", help: [
            "how long a palette may take to be on screen before it is ended and said",
            "(default: 5; more for a slow machine)",
        ]) { options, text throws(UsageError) in
            guard let seconds = Int64(text), (1...120).contains(seconds) else {
                throw UsageError("--palette-wait: expected seconds from 1 to 120, not '\(text)'")
            }
            options.paletteWait = seconds * 1_000_000
        },
        .value("--key-interval", valueName: "MS", help: ["milliseconds between the key changes of a chord (default: 10)"]) {
            options, text throws(UsageError) in
            guard let milliseconds = Int64(text), (1...1_000).contains(milliseconds) else {
                throw UsageError("--key-interval: expected milliseconds from 1 to 1000, not '\(text)'")
            }
            options.keyInterval = milliseconds * 1_000
        },
        .value("--max-commands", valueName: "N", help: ["command bindings running at once (default: 4)"]) { options, text throws(UsageError) in
            guard let count = Int(text), (1...64).contains(count) else {
                throw UsageError("--max-commands: expected a count from 1 to 64, not '\(text)'")
            }
            options.maximumCommands = count
        },
        .flag("--verbose", "-v", help: ["say what each gesture does"]) { $0.verbose = true },
    ])

    public static var usage: String {
        parser.help(about: [
            "Performs the user's preferred action for a pen's double-tap and squeeze, for apps that do",
            "not subscribe to pencild themselves: a key chord on pencild's keyboard, or a command.",
        ])
    }

    public enum Parsed: Equatable, Sendable {
        case run(ActionsOptions)
        case help
    }

    public static func parse(_ arguments: [String], defaultConfigPath: String, shippedConfigPath: String? = nil) -> Result<Parsed, UsageError> {
        if parser.asksForHelp(arguments) { return .success(.help) }
        return parser.parse(arguments, into: ActionsOptions(configPath: defaultConfigPath, shippedConfigPath: shippedConfigPath)).map { .run($0) }
    }
}
