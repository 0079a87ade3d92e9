import PencilProtocol
import PencilSystem
import Varlink

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
