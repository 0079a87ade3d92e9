import Foundation
import PencilProtocol
import PencilTestSupport
import Testing

/// PressChord end to end: the real daemon, clients as other uids, and logind's state files in
/// a private mount namespace standing for who holds seat0 (docs/robustness.md, "The seat's
/// keyboard"). This host has no /dev/uinput: where a chord passes every check, the keyboard
/// itself is what is missing, and the kernel and boot tiers press it for real.
@Suite("PressChord: who may have keys pressed (needs root)", .serialized)
struct PressChordTests {
    static let needs = LocalAttackerTests.needs

    /// seat0's active session belongs to `active`; uids 0 and 1000 have a session each.
    static func writeSeat(in directory: String, active: UInt32) throws {
        try LocalAttackerTests.writeSessions(in: directory, active: active, users: [0, 1000])
    }

    static let call = """
        import json, socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sys.argv[1])
        try:
            s.sendall(json.dumps({"method": "org.pencild.Pen.PressChord", "parameters": json.loads(sys.argv[2])}).encode() + b"\\0")
        except BrokenPipeError:  # refused at connect: the refusal is there to read
            pass
        reply = b""
        while not reply.endswith(b"\\0"):
            chunk = s.recv(4096)
            if not chunk: break
            reply += chunk
        print(reply.rstrip(b"\\0").decode())
        """

    /// The reply to PressChord(parameters) from a client as `uid`, run in `group` (a session's
    /// scope or a user service, as sd-login reads it) or in none.
    static func press(_ parameters: String, as uid: UInt32, in group: TestCgroup? = nil, _ daemon: RunningDaemon) throws -> JSONValue {
        let join = group.map { $0.joinCommand + " && " } ?? ""
        let result = try runProgram("/bin/sh", ["-c", "\(join)exec \(LocalAttackerTests.setpriv) --reuid=\(uid) --regid=\(uid) --clear-groups \"$@\"", "sh",
                                                LocalAttackerTests.systemPython, "-c", call, daemon.socketPath, parameters])
        let text = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        do { return try JSONReader.parse(text) } catch {
            throw HarnessError("PressChord(\(parameters)) as uid \(uid): not a reply (\(error)): '\(text)', exit \(result.status); pencild's log: \((try? String(contentsOfFile: daemon.logPath, encoding: .utf8))?.suffix(1500) ?? "")")
        }
    }

    static func errorName(_ reply: JSONValue) -> String? {
        reply["error"]?.stringValue.map { $0.replacingOccurrences(of: "org.pencild.Pen.", with: "") }
    }

    /// A chord that passed every check: pressed where this machine has /dev/uinput, else the
    /// keyboard is what is missing.
    static func expectPassedChecks(_ reply: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) {
        if access("/dev/uinput", W_OK) == 0 {
            #expect(reply["error"] == nil, "\(reply)", sourceLocation: sourceLocation)
        } else {
            #expect(errorName(reply) == "KeyboardUnavailable", "\(reply)", sourceLocation: sourceLocation)
            #expect(reply["parameters"]?["reason"]?.stringValue?.contains("/dev/uinput") == true, "\(reply)", sourceLocation: sourceLocation)
        }
    }

    @Test("the system service presses keys only for the user at the seat, refused keys first, and a switch moves it at the next call",
          .requires(needs))
    func systemService() throws {
        let seated = try SeatedDaemon(active: 1000, users: [0, 1000], arguments: ["--system"])
        defer { seated.stop() }
        let (daemon, sessions) = (seated.daemon, seated.sessions)
        // The sessions' scopes (root's pt1, 1000's pt2), and one of 1000's user services.
        let rootSession = try TestCgroup("user.slice/user-0.slice/session-pt1.scope")
        let seatSession = try TestCgroup("user.slice/user-1000.slice/session-pt2.scope")
        defer { rootSession.remove(); seatSession.remove() }

        // uid 1000 holds the seat: its chord passes; root's, who does not, is PermissionDenied.
        Self.expectPassedChecks(try Self.press(#"{"keys": ["leftctrl", "z"]}"#, as: 1000, in: seatSession, daemon))
        #expect(Self.errorName(try Self.press(#"{"keys": ["leftctrl", "z"]}"#, as: 0, in: rootSession, daemon)) == "PermissionDenied")

        // Keys the keyboard never sends, whoever asks; each beside an allowed neighbour.
        for (keys, key) in [(#"["power"]"#, "power"), (#"["sysrq"]"#, "sysrq"), (#"["leftalt", "f2"]"#, "f2"),
                            (#"["leftctrl", "leftalt", "f1"]"#, "f1"), (#"["leftalt", "left"]"#, "left"),
                            (#"["leftctrl", "leftalt", "backspace"]"#, "backspace"), (#"["leftctrl", "leftalt", "delete"]"#, "delete"),
                            (#"["nosuchkey"]"#, "nosuchkey"), (#"["e", "leftctrl"]"#, "e")] {
            let reply = try Self.press(#"{"keys": \#(keys)}"#, as: 1000, in: seatSession, daemon)
            #expect(Self.errorName(reply) == "KeyNotAllowed", "\(keys): \(reply)")
            #expect(reply["parameters"]?["key"]?.stringValue == key, "\(keys): \(reply)")
        }
        Self.expectPassedChecks(try Self.press(#"{"keys": ["f2"]}"#, as: 1000, in: seatSession, daemon))
        Self.expectPassedChecks(try Self.press(#"{"keys": ["leftctrl", "left"]}"#, as: 1000, in: seatSession, daemon))
        Self.expectPassedChecks(try Self.press(#"{"keys": ["leftctrl", "leftshift", "delete"]}"#, as: 1000, in: seatSession, daemon))

        // The call's shape.
        #expect(Self.errorName(try Self.press(#"{"keys": []}"#, as: 1000, in: seatSession, daemon)) == "org.varlink.service.InvalidParameter")
        #expect(Self.errorName(try Self.press(#"{"keys": ["leftctrl+z"]}"#, as: 1000, in: seatSession, daemon)) == "org.varlink.service.InvalidParameter")
        #expect(Self.errorName(try Self.press(#"{"keys": ["z"], "device": "event99"}"#, as: 1000, in: seatSession, daemon)) == "NoSuchDevice")

        // The seat goes to root: uid 1000, with no active session left, may not even connect.
        try Self.writeSeat(in: sessions, active: 0)
        #expect(Self.errorName(try Self.press(#"{"keys": ["leftctrl", "z"]}"#, as: 1000, in: seatSession, daemon)) == "PermissionDenied")
        Self.expectPassedChecks(try Self.press(#"{"keys": ["leftctrl", "z"]}"#, as: 0, in: rootSession, daemon))
    }

    @Test("a user's pencild has no keyboard, for its own user at the seat as for anyone", .requires(needs))
    func userDaemon() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let sessions = directory + "/run-systemd"
        try Self.writeSeat(in: sessions, active: 1000)
        // uid 1000's own pencild (a user's daemon: not root), in the namespace's logind.
        #expect(chown(directory, 1000, 1000) == 0)
        let daemon = try RunningDaemon([], directory: directory,
                                       launcher: LocalAttackerTests.logindLauncher(sessions: sessions, prefix: "\(LocalAttackerTests.setpriv) --reuid=1000 --regid=1000 --clear-groups"))
        defer { daemon.stop() }

        // Its own user holds the seat (the system service would press this: see above), and
        // root may connect to any daemon: neither gets keys from a user's daemon.
        for uid: UInt32 in [1000, 0] {
            let reply = try Self.press(#"{"keys": ["e"]}"#, as: uid, daemon)
            #expect(Self.errorName(reply) == "KeyboardUnavailable", "uid \(uid): \(reply)")
            #expect(reply["parameters"]?["reason"]?.stringValue?.contains("a user's pencild has no keyboard") == true, "\(reply)")
        }
        // The keys are still judged first: a refused key says so, whichever daemon is asked.
        #expect(Self.errorName(try Self.press(#"{"keys": ["power"]}"#, as: 1000, daemon)) == "KeyNotAllowed")
    }

    @Test("the seat's user has keys pressed only from the seat's session or its pencil-actions.service, not from another session, another unit of theirs, or none",
          .requires(needs))
    func fromWhere() throws {
        let seated = try SeatedDaemon(active: 1000, users: [0, 1000], arguments: ["--system"])
        defer { seated.stop() }
        let (daemon, sessions) = (seated.daemon, seated.sessions)
        let seatSession = try TestCgroup("user.slice/user-1000.slice/session-pt2.scope")
        // The same user logged in again elsewhere: an SSH login, a cron job.
        let otherSession = try TestCgroup("user.slice/user-1000.slice/session-pt9.scope")
        let userService = try TestCgroup("user.slice/user-1000.slice/user@1000.service/app.slice/pencil-actions.service")
        // What `systemd-run --user` makes, from an SSH login say: the user's manager runs it too.
        let otherUnit = try TestCgroup("user.slice/user-1000.slice/user@1000.service/app.slice/run-u42.service")
        defer { seatSession.remove(); otherSession.remove(); userService.remove(); otherUnit.remove() }

        let chord = #"{"keys": ["leftctrl", "z"]}"#
        Self.expectPassedChecks(try Self.press(chord, as: 1000, in: seatSession, daemon))
        Self.expectPassedChecks(try Self.press(chord, as: 1000, in: userService, daemon))
        #expect(Self.errorName(try Self.press(chord, as: 1000, in: otherSession, daemon)) == "PermissionDenied")
        #expect(Self.errorName(try Self.press(chord, as: 1000, in: otherUnit, daemon)) == "PermissionDenied")
        #expect(Self.errorName(try Self.press(chord, as: 1000, daemon)) == "PermissionDenied")
        #expect(try daemon.log.contains("is neither in seat0's active session nor uid 1000's pencil-actions.service"))
    }
}
