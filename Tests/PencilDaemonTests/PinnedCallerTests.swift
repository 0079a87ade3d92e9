@testable import PencilDaemon
import Foundation
import JSON
import PencilSystem
import PencilTestSupport
import Testing

/// The process behind a connection is the one that opened it (docs/robustness.md, "The seat's
/// keyboard", findings 13 to 15): a pid that comes back for another process inherits nothing,
/// PlayGesture takes PressChord's rule on the system service, and a focus claim ends with the
/// process that made it, whoever keeps its connection. The real daemon, clients as other uids
/// in control groups named as logind's scopes and user services.
@Suite("Who stands behind a connection (needs root)", .serialized)
struct PinnedCallerTests {
    static let needs = LocalAttackerTests.needs

    /// A client that connects and prints its pid; each line on its standard input is then a
    /// call (`[method, parameters]`) whose reply it prints, or "fork": the process that
    /// connected exits and a child of it keeps the connection and goes on reading the lines.
    /// The connecting process is a child of the one the test starts, which reaps it and says
    /// "gone", so that its pid is free at once.
    static let forkingClient = """
        import json, os, signal, socket, sys
        connector = os.fork()
        if connector:
            os.waitpid(connector, 0)
            # One write each: the two processes share the pipe, and a print may write in parts.
            os.write(1, b"gone\\n")
            signal.pause()
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sys.argv[1])
        print(os.getpid(), flush=True)
        for line in sys.stdin:
            if line.strip() == "fork":
                if os.fork():
                    os._exit(0)
                sys.stdout.flush()
                os.write(1, b"forked\\n")
                continue
            method, parameters = json.loads(line)
            s.sendall(json.dumps({"method": method, "parameters": parameters}).encode() + b"\\0")
            reply = b""
            while not reply.endswith(b"\\0"):
                chunk = s.recv(4096)
                if not chunk:
                    break
                reply += chunk
            print(reply.rstrip(b"\\0").decode(), flush=True)
        """

    /// A stream of the double-taps: prints each one's focus as it comes.
    static let doubleTapReader = """
        import json, socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sys.argv[1])
        call = {"method": "org.pencild.Pen.Monitor", "parameters": {"events": ["doubleTap"]}, "more": True}
        s.sendall(json.dumps(call).encode() + b"\\0")
        print("reading", flush=True)
        pending = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            pending += chunk
            while b"\\0" in pending:
                message, pending = pending.split(b"\\0", 1)
                event = json.loads(message).get("parameters", {}).get("event", {})
                if event.get("type") == "doubleTap":
                    print(event.get("focus"), flush=True)
        """

    /// A client process: `script` in the system's Python as `uid`, in `group` where one is
    /// given, with the daemon's socket as its argument; its standard input and output are pipes.
    final class Client {
        let process = Process()
        let input = Pipe(), output = Pipe()

        init(_ script: String, as uid: UInt32, in group: TestCgroup?, _ daemon: RunningDaemon) throws {
            let join = group.map { $0.joinCommand + " && " } ?? ""
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(join)exec \(LocalAttackerTests.setpriv) --reuid=\(uid) --regid=\(uid) --clear-groups \"$@\"", "sh",
                                 LocalAttackerTests.systemPython, "-c", script, daemon.socketPath]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

        private var pending: [UInt8] = []

        /// The next line it printed; "" if none came within 30 s (a failing check, not a hang).
        func line() -> String {
            let fd = output.fileHandleForReading.fileDescriptor
            let deadline = Date().addingTimeInterval(30)
            while !pending.contains(0x0a) {
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let left = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
                guard left > 0 else { return "" }
                // A signal (a child reaped) interrupts poll and read: ask again.
                let polled = poll(&ready, 1, left)
                if polled < 0, errno == EINTR { continue }
                guard polled > 0 else { return "" }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(fd, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return "" }
                pending += buffer[0..<count]
            }
            let end = pending.firstIndex(of: 0x0a)!
            defer { pending.removeSubrange(...end) }
            return String(decoding: pending[..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }

        /// The reply to `method` with `parameters` (JSON text).
        func call(_ method: String, _ parameters: String) throws -> JSONValue {
            send("[\"org.pencild.Pen.\(method)\", \(parameters)]")
            let text = line()
            do { return try JSONReader.parse(text) } catch { throw HarnessError("\(method): not a reply: '\(text)'") }
        }

        /// After "fork": the connecting process has exited and been reaped, and its child reads on.
        func waitForFork() -> Bool {
            // Both lines, in either order; anything else read on the way is reported.
            var lines: [String] = []
            let deadline = Date().addingTimeInterval(30)
            while !(lines.contains("gone") && lines.contains("forked")), Date() < deadline, lines.count < 8 {
                let next = line()
                if !next.isEmpty { lines.append(next) }
            }
            if !(lines.contains("gone") && lines.contains("forked")) { Issue.record("after fork, read \(lines)") }
            return lines.contains("gone") && lines.contains("forked")
        }

        func end() {
            try? input.fileHandleForWriting.close()
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// A process (`sleep`, as `uid`) in `group` that has pid `pid`: the kernel's next pid is set
    /// just below it, as a busy machine would reach it in time. nil when other processes kept
    /// taking it first.
    static func takeOver(pid: Int32, as uid: UInt32, in group: TestCgroup) throws -> Process? {
        for _ in 0..<200 {
            try "\(pid - 1)".write(toFile: "/proc/sys/kernel/ns_last_pid", atomically: false, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(group.joinCommand) && exec \(LocalAttackerTests.setpriv) --reuid=\(uid) --regid=\(uid) --clear-groups sleep 600"]
            try process.run()
            if process.processIdentifier == pid { return process }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return nil
    }

    static func errorName(_ reply: JSONValue) -> String? { PressChordTests.errorName(reply) }

    @Test("a pid that comes back in the seat's session inherits nothing: the connection is the process that opened it",
          .requires(needs))
    func reusedPid() throws {
        let seated = try SeatedDaemon(active: 1000, users: [0, 1000], arguments: ["--system"])
        defer { seated.stop() }
        let daemon = seated.daemon
        let seatSession = try TestCgroup("user.slice/user-1000.slice/session-pt2.scope")
        let otherSession = try TestCgroup("user.slice/user-1000.slice/session-pt9.scope")
        defer { seatSession.remove(); otherSession.remove() }
        let chord = #"{"keys": ["leftctrl", "z"]}"#

        // The control: a client of the seat's session that is still there passes every check,
        // on a connection its child carries on (the connecting process waits for it).
        let present = try Client(Self.forkingClient, as: 1000, in: seatSession, daemon)
        defer { present.end() }
        _ = present.line()
        PressChordTests.expectPassedChecks(try present.call("PressChord", chord))

        // From another session of the same user: refused, as ever.
        let client = try Client(Self.forkingClient, as: 1000, in: otherSession, daemon)
        defer { client.end() }
        let pid = try #require(Int32(client.line()))
        #expect(Self.errorName(try client.call("PressChord", chord)) == "PermissionDenied")
        // The process that connected exits; its child keeps the connection; the pid comes back
        // for a process of the seat's session.
        client.send("fork")
        #expect(client.waitForFork())
        let heir = try #require(try Self.takeOver(pid: pid, as: 1000, in: seatSession), "pid \(pid) did not come back")
        defer { kill(heir.processIdentifier, SIGKILL); heir.waitUntilExit() }
        // Once its shell has moved itself into the seat's session, the pid is that session's.
        let deadline = Date().addingTimeInterval(10)
        while !ControlGroups.contains(pid: pid, path: "user.slice/user-1000.slice/session-pt2.scope"), Date() < deadline { usleep(10_000) }
        #expect(ControlGroups.contains(pid: pid, path: "user.slice/user-1000.slice/session-pt2.scope"))
        #expect(Self.errorName(try client.call("PressChord", chord)) == "PermissionDenied")
        #expect(daemon.log.contains("pid \(pid) has exited since it connected"))
    }

    @Test("on the system service, gestures are played only for who may press chords: the seat's session and pencil-actions.service, not another session, another unit of the user, or root from none",
          .requires(needs))
    func playGestureRule() throws {
        let seated = try SeatedDaemon(active: 1000, users: [0, 1000], arguments: ["--system", "--demo"])
        defer { seated.stop() }
        let daemon = seated.daemon
        let groups = try [
            "seat": TestCgroup("user.slice/user-1000.slice/session-pt2.scope"),
            "other": TestCgroup("user.slice/user-1000.slice/session-pt9.scope"),
            "actions": TestCgroup("user.slice/user-1000.slice/user@1000.service/app.slice/\(SeatCaller.userUnit)"),
            // What `systemd-run --user` from an SSH login makes.
            "run": TestCgroup("user.slice/user-1000.slice/user@1000.service/app.slice/run-u42.service"),
        ]
        defer { groups.values.forEach { $0.remove() } }
        func play(as uid: UInt32, in group: String?) throws -> JSONValue {
            let client = try Client(Self.forkingClient, as: uid, in: group.flatMap { groups[$0] }, daemon)
            defer { client.end() }
            _ = client.line()
            return try client.call("PlayGesture", #"{"gesture": "doubleTap"}"#)
        }
        #expect(try play(as: 1000, in: "seat")["parameters"]?["device"] == .string("demo0"))
        #expect(try play(as: 1000, in: "actions")["parameters"]?["device"] == .string("demo0"))
        #expect(Self.errorName(try play(as: 1000, in: "other")) == "PermissionDenied")
        #expect(Self.errorName(try play(as: 1000, in: "run")) == "PermissionDenied")
        #expect(Self.errorName(try play(as: 1000, in: nil)) == "PermissionDenied")
        // Root reads every seat's pens, yet does not hold this one.
        #expect(Self.errorName(try play(as: 0, in: nil)) == "PermissionDenied")
        #expect(daemon.log.contains("gesture refused: uid 0 does not hold seat0"))
    }

    @Test("a focus claim ends when the process that made it exits, though a child of it keeps the connection open",
          .requires(needs))
    func claimEndsWithItsProcess() throws {
        let seated = try SeatedDaemon(active: 1000, users: [0, 1000], arguments: ["--system", "--demo"])
        defer { seated.stop() }
        let daemon = seated.daemon
        let seatSession = try TestCgroup("user.slice/user-1000.slice/session-pt2.scope")
        defer { seatSession.remove() }

        let reader = try Client(Self.doubleTapReader, as: 1000, in: seatSession, daemon)
        defer { reader.end() }
        #expect(reader.line() == "reading")
        let player = try Client(Self.forkingClient, as: 1000, in: seatSession, daemon)
        defer { player.end() }
        _ = player.line()
        let claimer = try Client(Self.forkingClient, as: 1000, in: seatSession, daemon)
        defer { claimer.end() }
        _ = claimer.line()
        #expect(try claimer.call("SetFocus", #"{"focused": true}"#)["error"] == nil)

        // The control: while the claimer runs, its user's other stream hears "other".
        #expect(try player.call("PlayGesture", #"{"gesture": "doubleTap"}"#)["error"] == nil)
        #expect(reader.line() == "other")

        claimer.send("fork")
        #expect(claimer.waitForFork())
        let deadline = Date().addingTimeInterval(20)
        while !daemon.log.contains("exited while holding the focus"), Date() < deadline { usleep(20_000) }
        #expect(daemon.log.contains("exited while holding the focus"))
        #expect(try player.call("PlayGesture", #"{"gesture": "doubleTap"}"#)["error"] == nil)
        #expect(reader.line() == "none")
    }
}
