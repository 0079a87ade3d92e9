import PencilProtocol
import PencilSystem
import Varlink

/// Bounds on what clients may use. Every one is configurable (`[Limits]` in the config file).
public struct Limits: Equatable, Sendable {
    /// Clients connected at once; more are answered with TooManyClients and closed. Everyone
    /// but root shares what is left after `maximumClientsPerUser` places kept for root.
    public var maximumClients = 128
    /// Clients of one uid connected at once (root included).
    public var maximumClientsPerUser = 32
    /// Microseconds a connection that does not stream may stay silent before it is closed.
    public var idleTimeout: Int64 = 180_000_000
    /// Longest request, in bytes; a longer one closes the connection.
    public var maximumRequestSize = 64 * 1024
    /// Requests read from one client whose replies are not yet written; past it the daemon stops
    /// reading from that client until it reads its replies.
    public var maximumQueuedRequests = 16
    /// Output waiting for one client. A client with more than half of it waiting is behind:
    /// replays at full speed wait for it, and it is disconnected when it stays behind for
    /// `lagTimeout`. Past the whole of it, its motion is coalesced; at four times it, it is
    /// disconnected at once.
    public var outputBufferSize = 256 * 1024
    /// Microseconds a client may stay behind (more than half its output bound waiting).
    public var lagTimeout: Int64 = 2_000_000
    /// Microseconds a client may take to finish a message it has started.
    public var requestTimeout: Int64 = 5_000_000
    /// Microseconds to stop accepting after the daemon ran out of descriptors.
    public var acceptBackoff: Int64 = 250_000
    /// New clients accepted per turn of the loop: a connect flood waits in the kernel's
    /// backlog, never in front of the pens and the clients already served.
    public var acceptsPerTurn = 16

    public init() {}

    /// What each client's connection is held to.
    var connection: ServerConnection.Limits {
        ServerConnection.Limits(maximumRequestSize: maximumRequestSize, maximumQueuedRequests: maximumQueuedRequests,
                                outputBufferSize: outputBufferSize, requestTimeout: requestTimeout,
                                lagTimeout: lagTimeout, idleTimeout: idleTimeout)
    }
}

/// Where the daemon listens and keeps its state, and what it plays.
public struct Configuration: Sendable {
    /// system: the daemon serves every local user (root, or the system service's unprivileged
    /// user with --system), and the user of a seat's active session decides its pens' mirrors;
    /// user: one user's own daemon, whose user decides.
    public enum Mode: String, Sendable { case system, user }

    public struct Replay: Equatable, Sendable {
        public var path: String
        /// A description (`.desc`) for a recording without a header.
        public var descriptionPath: String?
        public init(path: String, descriptionPath: String? = nil) {
            self.path = path
            self.descriptionPath = descriptionPath
        }
    }

    public var mode: Mode
    /// Where to listen when systemd passes no socket; nil for a user's daemon without
    /// `XDG_RUNTIME_DIR`, which then refuses to start (`Daemon.openListener`) rather than
    /// listen in a directory every local user can write, such as /tmp, where another user
    /// could take the name first and answer the user's clients.
    public var socketPath: String?
    public var stateDirectory: String
    public var logLevel: LogLevel = .info
    public var limits = Limits()
    public var replays: [Replay] = []
    /// Playback speed; nil plays as fast as possible.
    public var replaySpeed: Double? = 1
    /// Replays start once this many Monitor calls have subscribed (0: at once).
    public var replayWaitsForMonitors = 1
    public var exitAfterReplay = false
    public var demo = false
    /// Live devices through udev (off with `--no-udev`, e.g. for replays in tests).
    public var liveDevices = true
    /// Where libwacom's tablet and stylus files are read from; nil for the system's.
    public var libwacomDataDirectory: String?
    /// Whether pens may be grabbed and mirrored for users who withhold gesture clicks
    /// ([Daemon] AllowGrab=); an administrator can forbid it.
    public var allowsGrab = true
    /// Time between two frames of a chord on pencild's keyboard ([Daemon] ChordKeyInterval=),
    /// microseconds: some apps miss a key that goes up in the frame after it went down.
    public var chordKeyInterval: Int64 = 10_000
    /// What `ChordKeyInterval=` may be: 1 ms to 100 ms. A chord's key is held for one interval,
    /// and the display server repeats a key held past its autorepeat delay (by default 400 ms
    /// in Weston, 500 in GNOME, 600 in KDE and sway, 660 in X; 250 ms is the kernel's own and
    /// a common personal choice): at 100 ms a chord is one press, with room to spare.
    public static let chordKeyIntervals: ClosedRange<Int64> = 1_000...100_000
    /// Replays go through the mirror's routing too, whose frames are dropped (`make bench`
    /// measures what the pass-through costs a frame; replays have no uinput device).
    public var mirrorsReplays = false
    /// The group whose members may connect, beside root, the daemon's user and active local
    /// sessions; nil: the socket file's group.
    public var accessGroup: UInt32?

    public init(mode: Mode, socketPath: String?, stateDirectory: String) {
        self.mode = mode
        self.socketPath = socketPath
        self.stateDirectory = stateDirectory
    }

    /// The defaults of docs/protocol.md for the process's user and environment.
    public static func defaults(environment: (String) -> String? = ProcessIdentity.environment, uid: UInt32 = ProcessIdentity.userID) -> Configuration {
        let mode: Mode = uid == 0 ? .system : .user
        var socket: String?
        var state: String
        switch mode {
        case .system:
            socket = "/run/pencild/pencild.sock"
            state = environment("STATE_DIRECTORY").flatMap { $0.split(separator: ":").first.map(String.init) } ?? "/var/lib/pencild"
        case .user:
            // The XDG base directory specification ignores a relative path.
            if let runtime = environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") {
                socket = runtime + "/pencild.sock"
            }
            if let stateHome = environment("XDG_STATE_HOME"), stateHome.hasPrefix("/") {
                state = stateHome + "/pencild"
            } else {
                let home = environment("HOME") ?? ProcessIdentity.homeDirectory(of: uid) ?? "/tmp"
                state = home + "/.local/state/pencild"
            }
        }
        if let override = environment("PENCILD_SOCKET"), !override.isEmpty { socket = override }
        return Configuration(mode: mode, socketPath: socket, stateDirectory: state)
    }
}

/// A mistake in the command line or the configuration file, with where it is.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What the command line asks for.
public enum Command: Sendable {
    case run(Configuration)
    case help
    case version
}

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

/// The configuration file: systemd's INI style, `[Daemon]` and `[Limits]` sections of
/// `Key=Value` lines, `#` and `;` comments. docs/configuration.md is the reference.
public enum ConfigurationFile {
    public static func read(_ path: String) throws -> String {
        String(decoding: try FileSystem.readFile(path, maximumBytes: 1024 * 1024), as: UTF8.self)
    }

    public static func apply(_ text: String, fileName: String, to configuration: inout Configuration) throws(ConfigurationError) {
        var section = ""
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.trimmingWhitespace()
            func fail(_ message: String) -> ConfigurationError { ConfigurationError("\(fileName):\(lineNumber): \(message)") }
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw fail("a section header must end with ']'") }
                section = String(line.dropFirst().dropLast())
                guard section == "Daemon" || section == "Limits" else { throw fail("unknown section [\(section)] (expected [Daemon] or [Limits])") }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { throw fail("expected Key=Value") }
            let key = String(line[..<equals]).trimmingWhitespace()
            let value = String(line[line.index(after: equals)...]).trimmingWhitespace()
            guard !section.isEmpty else { throw fail("\(key)= must be inside a [Daemon] or [Limits] section") }
            func count(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
                guard let number = Int(value), range.contains(number) else { throw fail("\(key)= expects a whole number from \(range.lowerBound) to \(range.upperBound), not '\(value)'") }
                return number
            }
            func bytes(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
                guard let number = parseSize(value), range.contains(number) else { throw fail("\(key)= expects a size (bytes, or with K or M) from \(range.lowerBound) to \(range.upperBound), not '\(value)'") }
                return number
            }
            func duration() throws(ConfigurationError) -> Int64 {
                guard let microseconds = parseDuration(value), microseconds > 0, microseconds <= 3_600_000_000 else { throw fail("\(key)= expects a duration such as 500ms or 2s (at most 1h), not '\(value)'") }
                return microseconds
            }
            switch (section, key) {
            case ("Daemon", "Socket"): configuration.socketPath = value
            case ("Daemon", "StateDirectory"): configuration.stateDirectory = value
            case ("Daemon", "LogLevel"):
                guard let level = LogLevel(name: value) else { throw fail("LogLevel= expects error, warning, notice, info or debug, not '\(value)'") }
                configuration.logLevel = level
            case ("Daemon", "AccessGroup"):
                guard let gid = ProcessIdentity.groupID(named: value) ?? UInt32(value) else { throw fail("AccessGroup=: no group '\(value)'") }
                configuration.accessGroup = gid
            case ("Daemon", "AllowGrab"):
                switch value.lowercased() {
                case "yes", "true", "on", "1": configuration.allowsGrab = true
                case "no", "false", "off", "0": configuration.allowsGrab = false
                default: throw fail("AllowGrab= expects yes or no, not '\(value)'")
                }
            case ("Daemon", "ChordKeyInterval"):
                guard let microseconds = parseDuration(value), Configuration.chordKeyIntervals.contains(microseconds) else {
                    throw fail("ChordKeyInterval= expects a duration from 1ms to 100ms (a key held longer repeats in the app), not '\(value)'")
                }
                configuration.chordKeyInterval = microseconds
            case ("Limits", "MaxClients"): configuration.limits.maximumClients = try count(2...32_768)
            case ("Limits", "MaxClientsPerUser"): configuration.limits.maximumClientsPerUser = try count(1...32_768)
            case ("Limits", "IdleTimeout"): configuration.limits.idleTimeout = try duration()
            case ("Limits", "MaxRequestSize"): configuration.limits.maximumRequestSize = try bytes(1024...(16 << 20))
            case ("Limits", "MaxQueuedRequests"): configuration.limits.maximumQueuedRequests = try count(1...4096)
            case ("Limits", "OutputBufferSize"): configuration.limits.outputBufferSize = try bytes(4096...(64 << 20))
            case ("Limits", "LagTimeout"): configuration.limits.lagTimeout = try duration()
            case ("Limits", "RequestTimeout"): configuration.limits.requestTimeout = try duration()
            case ("Limits", "AcceptBackoff"): configuration.limits.acceptBackoff = try duration()
            default: throw fail("unknown key \(key)= in [\(section)]")
            }
        }
    }

    /// "65536", "64K", "1M".
    static func parseSize(_ text: String) -> Int? {
        let multipliers: [Character: Int] = ["K": 1024, "M": 1024 * 1024]
        if let last = text.last, let multiplier = multipliers[Character(last.uppercased())] {
            return Int(text.dropLast()).flatMap { $0.multipliedReportingOverflow(by: multiplier).overflow ? nil : $0 * multiplier }
        }
        return Int(text)
    }

    /// "250ms", "2s", "1min", "500us", or plain seconds: microseconds.
    static func parseDuration(_ text: String) -> Int64? {
        let units: [(String, Double)] = [("us", 1), ("ms", 1_000), ("min", 60_000_000), ("s", 1_000_000), ("h", 3_600_000_000)]
        // Int64(exactly:) after rounding: 1e19 or 1e300h is out of range, an error, never a trap.
        func microseconds(_ number: Double?, _ scale: Double) -> Int64? {
            guard let number, number.isFinite, number >= 0 else { return nil }
            return Int64(exactly: (number * scale).rounded(.down))
        }
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            return microseconds(Double(text.dropLast(suffix.count)), scale)
        }
        return microseconds(Double(text), 1_000_000)
    }
}
