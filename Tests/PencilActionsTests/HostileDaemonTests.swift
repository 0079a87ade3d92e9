import Foundation
import PencilSystem
import PencilTestSupport
import Testing

/// pencil-actions against a stand-in for pencild that it cannot trust: the real binary, beside
/// the tests (or beside $PENCILD_BINARY).
@Suite("pencil-actions against a hostile daemon", .serialized)
struct HostileDaemonTests {
    static let doubleTapForAnotherApp = #"{"parameters":{"event":{"type":"doubleTap","time":1,"device":"event7","tool":{"type":"pen","serial":0,"id":0},"action":"switchEraser","focus":"other"}},"continues":true}"#

    /// Starts pencil-actions on `socket` with no bindings; its log goes to `log`.
    func startActions(socket: String, log: String, scratch: ScratchDirectory) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FileSystem.directoryName(of: RunningDaemon.binaryPath) + "/pencil-actions")
        process.arguments = ["--socket", socket, "--config", scratch.path + "/actions.conf"]
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        return process
    }

    /// Waits up to `seconds` for `process` to end; kills it if it does not. True when it ended by itself.
    func endsWithin(_ seconds: Double, _ process: Process) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return false
        }
        return true
    }

    @Test("a daemon that floods the stream: SIGTERM still ends pencil-actions at once, cleanly; as it does with a quiet daemon")
    func sigtermUnderAFlood() throws {
        var seconds: [Bool: Double] = [:]
        for flooding in [false, true] {
            let scratch = try ScratchDirectory()
            let daemon = try FakeDaemon(flooding ? .flooding(Self.doubleTapForAnotherApp) : .once(Self.doubleTapForAnotherApp))
            defer { daemon.stop() }
            let log = scratch.path + "/actions.log"
            let actions = try startActions(socket: daemon.socketPath, log: log, scratch: scratch)
            // The flood is under way (pencil-actions has read far more than the socket buffers
            // hold), or the quiet daemon's one event is sent; however slow the machine.
            #expect(eventually(120) { flooding ? daemon.bytesSent > 1 << 20 : daemon.connections > 0 })
            let signalled = Date()
            kill(actions.processIdentifier, SIGTERM)
            // The flood never ends: a pencil-actions that reads on before its signals never
            // stops, so ending at all is the proof; the bound only keeps a failure from hanging.
            #expect(endsWithin(60, actions), "flooding: \(flooding): SIGTERM was not handled within 60 s")
            seconds[flooding] = Date().timeIntervalSince(signalled)
            #expect(actions.terminationReason == .exit && actions.terminationStatus == 0)
            let text = try String(contentsOfFile: log, encoding: .utf8)
            #expect(text.contains("signal 15: letting go of every key and stopping"), "\(text)")
        }
        print("SIGTERM to exit: \(seconds[false] ?? -1) s with a quiet daemon, \(seconds[true] ?? -1) s under the flood")
    }

    @Test("an error name with a newline and <0> from the daemon is logged on one line, escaped; a plain one is logged as it is")
    func forgedJournalLine() throws {
        for name in ["org.pencild.Pen.PermissionDenied", #"org.pencild.Pen.PermissionDenied\n<0>pencil-actions: root password changed"#] {
            let scratch = try ScratchDirectory()
            let daemon = try FakeDaemon(.once(#"{"error":"\#(name)","parameters":{}}"#))
            defer { daemon.stop() }
            let log = scratch.path + "/actions.log"
            let actions = try startActions(socket: daemon.socketPath, log: log, scratch: scratch)
            #expect(eventually(10) { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("trying again") })
            kill(actions.processIdentifier, SIGTERM)
            _ = endsWithin(5, actions)
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            #expect(lines.allSatisfy { $0.first == "<" && !$0.hasPrefix("<0>") }, "\(lines)")
            let warning = try #require(lines.first { $0.contains("trying again") })
            #expect(warning.hasPrefix("<4>pencild at \(daemon.socketPath): org.pencild.Pen.PermissionDenied"))
            if name.contains("<0>") {
                #expect(warning.contains(#"PermissionDenied\x0a<0>pencil-actions: root password changed"#), "\(warning)")
            }
        }
    }
}
