import Foundation
@testable import PencilDaemon
import PencilTestSupport
import Testing

@Suite("The configuration file and the command line")
struct ConfigurationTests {
    private func parse(_ text: String, arguments: [String] = []) throws(ConfigurationError) -> Configuration {
        let command = try CommandLineParser.parse(["--config", "pencild.conf"] + arguments,
                                                  defaults: Configuration(mode: .user, socketPath: "/run/user/1000/pencild.sock", stateDirectory: "/state"),
                                                  readFile: { _ in text })
        guard case .run(let configuration) = command else { throw ConfigurationError("not a run") }
        return configuration
    }

    @Test("every key is read, and the command line overrides the file")
    func keys() throws {
        let text = """
        # comment
        [Daemon]
        Socket = /run/pencild/other.sock
        StateDirectory=/var/lib/elsewhere
        LogLevel=debug
        AccessGroup=0
        AllowGrab=no
        ; another comment
        [Limits]
        MaxClients=8
        MaxRequestSize=16K
        MaxQueuedRequests=4
        OutputBufferSize=1M
        LagTimeout=750ms
        RequestTimeout=2s
        AcceptBackoff=100ms
        """
        let configuration = try parse(text, arguments: ["--log-level", "warning"])
        #expect(configuration.socketPath == "/run/pencild/other.sock")
        #expect(configuration.stateDirectory == "/var/lib/elsewhere")
        #expect(configuration.logLevel == .warning)
        #expect(configuration.accessGroup == 0)
        #expect(configuration.allowsGrab == false)
        // The default, for the positive side: grabbing is allowed unless forbidden.
        #expect(try parse("[Daemon]\n").allowsGrab == true)
        #expect(configuration.limits.maximumClients == 8)
        #expect(configuration.limits.maximumRequestSize == 16 * 1024)
        #expect(configuration.limits.maximumQueuedRequests == 4)
        #expect(configuration.limits.outputBufferSize == 1 << 20)
        #expect(configuration.limits.lagTimeout == 750_000)
        #expect(configuration.limits.requestTimeout == 2_000_000)
        #expect(configuration.limits.acceptBackoff == 100_000)
    }

    @Test("--system makes an unprivileged daemon serve every user, the seat's active user deciding; without it a user's own")
    func systemMode() throws {
        #expect(try parse("", arguments: ["--system"]).mode == .system)
        #expect(try parse("").mode == .user)
        #expect(Configuration.defaults(environment: { _ in nil }, uid: 0).mode == .system)
    }

    @Test("ChordKeyInterval= takes 1ms to 100ms, below any desktop's autorepeat delay; longer is refused")
    func chordKeyInterval() throws {
        #expect(try parse("[Daemon]\n").chordKeyInterval == 10_000)
        #expect(try parse("[Daemon]\nChordKeyInterval=1ms\n").chordKeyInterval == 1_000)
        #expect(try parse("[Daemon]\nChordKeyInterval=100ms\n").chordKeyInterval == 100_000)
        for refused in ["101ms", "250ms", "2s", "0.5ms", "0", "soon"] {
            #expect(throws: ConfigurationError.self, "ChordKeyInterval=\(refused)") { try parse("[Daemon]\nChordKeyInterval=\(refused)\n") }
        }
        do {
            _ = try parse("[Daemon]\nChordKeyInterval=2s\n")
        } catch {
            #expect(error.message == "pencild.conf:2: ChordKeyInterval= expects a duration from 1ms to 100ms (a key held longer repeats in the app), not '2s'")
        }
    }

    @Test("a user's pencild without XDG_RUNTIME_DIR has no socket path, never one in /tmp; with it, or PENCILD_SOCKET, or --socket, it has")
    func userSocketWithoutRuntimeDirectory() throws {
        func defaults(_ variables: [String: String]) -> Configuration {
            Configuration.defaults(environment: { variables[$0] }, uid: 1000)
        }
        #expect(defaults(["HOME": "/home/u"]).socketPath == nil)
        #expect(defaults(["HOME": "/home/u", "XDG_RUNTIME_DIR": "relative/run"]).socketPath == nil, "a relative path is ignored, as XDG says")
        // The positive side: each way of naming a place.
        #expect(defaults(["XDG_RUNTIME_DIR": "/run/user/1000"]).socketPath == "/run/user/1000/pencild.sock")
        #expect(defaults(["PENCILD_SOCKET": "/home/u/p.sock"]).socketPath == "/home/u/p.sock")
        let command = try CommandLineParser.parse(["--socket", "/home/u/p.sock"], defaults: defaults([:]), readFile: { _ in "" })
        guard case .run(let configuration) = command else { Issue.record("not a run"); return }
        #expect(configuration.socketPath == "/home/u/p.sock")
        // Root's is the system service's, whatever the environment.
        #expect(Configuration.defaults(environment: { _ in nil }, uid: 0).socketPath == "/run/pencild/pencild.sock")
    }

    @Test("without a socket path and without a socket from systemd pencild refuses to start, saying what to set; with a path it listens there")
    func noSocketPathRefusesToStart() throws {
        let logger = Logger(level: .error, sink: { _ in })
        var configuration = Configuration(mode: .user, socketPath: nil, stateDirectory: "/nonexistent-state")
        #expect(throws: DaemonError.self) { try Daemon.openListener(configuration: configuration, logger: logger) }
        do {
            _ = try Daemon.openListener(configuration: configuration, logger: logger)
        } catch {
            #expect(error.message.contains("XDG_RUNTIME_DIR is not set") && error.message.contains("--socket PATH"), "\(error.message)")
        }
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        configuration.socketPath = directory + "/pencild.sock"
        let (listener, owned) = try Daemon.openListener(configuration: configuration, logger: logger)
        defer { listener.close() }
        #expect(owned == directory + "/pencild.sock")
    }

    @Test("a --config that names a FIFO is refused at once, unread, and says why; a regular file beside it is read")
    func configThatIsAFIFO() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/pencild.conf"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A FIFO with no writer would hold a blocking open (and so start-up) for good.
        #expect(throws: ConfigurationError.self) { try CommandLineParser.parse(["--config", fifo]) }
        do {
            _ = try CommandLineParser.parse(["--config", fifo])
        } catch {
            #expect(error.message == "\(fifo): cannot read: it is not a regular file (a FIFO, a device or a folder): settings are read from a file",
                    "\(error.message)")
        }
        // The control: a regular file is read.
        let file = directory + "/regular.conf"
        try "[Limits]\nMaxClients=7\n".write(toFile: file, atomically: true, encoding: .utf8)
        guard case .run(let configuration) = try CommandLineParser.parse(["--config", file]) else {
            Issue.record("--config with a regular file did not parse to a run")
            return
        }
        #expect(configuration.limits.maximumClients == 7)
    }

    @Test("mistakes are reported with the file and line", arguments: [
        ("[Daemon]\nLogLevel=loud\n", "pencild.conf:2:"),
        ("[Limits]\n\nMaxClients=0\n", "pencild.conf:3:"),
        ("MaxClients=4\n", "pencild.conf:1:"),
        ("[Daemon]\n[Nope]\n", "pencild.conf:2:"),
        ("[Limits]\nLagTimeout=soon\n", "pencild.conf:2:"),
        ("[Limits]\nOutputBufferSize=99999999999999999999K\n", "pencild.conf:2:"),
        ("[Daemon]\nColour=blue\n", "pencild.conf:2:"),
        ("[Daemon\n", "pencild.conf:1:"),
        ("[Daemon]\njust words\n", "pencild.conf:2:"),
        ("[Daemon]\nAllowGrab=sometimes\n", "pencild.conf:2:"),
    ])
    func mistakes(text: String, location: String) {
        #expect(throws: ConfigurationError.self) { try parse(text) }
        do {
            _ = try parse(text)
        } catch {
            #expect(error.message.hasPrefix(location), "\(error.message)")
        }
    }
}
