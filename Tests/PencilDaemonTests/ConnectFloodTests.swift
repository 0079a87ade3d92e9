import Foundation
import PencilTestSupport
import Testing

/// Uids that flood the socket with connections, against the seat's user: one without any
/// right (refused at once, from memory), and members of the access group (who may connect,
/// but may not take the places kept for the person at the seat). logind's state files in a
/// private mount namespace say who that person is, as sd-login reads them.
@Suite("Connection floods against the seat's user (needs root)", .serialized)
struct ConnectFloodTests {
    static let needs = LocalAttackerTests.needs
    static let seatUser: UInt32 = 1000

    /// The seat user's chords as pencil-actions makes them (`VarlinkClient` with a timeout): a
    /// connection per PressChord, a blocking connect that waits at most a second for room in
    /// the backlog (SO_SNDTIMEO), and a second for the reply. Prints "failed N p50 X p99 Y
    /// max Z" (ms).
    static let chordCalls = """
    import socket, struct, sys, time
    second = struct.pack("ll", 1, 0)
    failed, took = 0, []
    for _ in range(int(sys.argv[2])):
        start = time.monotonic()
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, second)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, second)
            s.connect(sys.argv[1])
            s.sendall(b'{"method":"org.pencild.Pen.PressChord","parameters":{"keys":["leftctrl","z"]}}\\0')
            reply = b""
            while not reply.endswith(b"\\0"):
                chunk = s.recv(4096)
                if not chunk: break
                reply += chunk
            s.close()
            if not reply.endswith(b"\\0"): failed += 1
        except OSError:
            failed += 1
        took.append((time.monotonic() - start) * 1000)
        time.sleep(0.02)  # a person's pace: a chord every few tens of milliseconds at most
    took.sort()
    print("failed %d p50 %.1f p99 %.1f max %.1f" % (failed, took[len(took) // 2], took[int(len(took) * 0.99) - 1], took[-1]), flush=True)
    """

    /// Connects and lets go as fast as it can, until its standard input closes (60 s at most).
    static let flooder = """
    import os, socket, sys, threading, time
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    print("flooding", flush=True)
    end = time.monotonic() + 60
    while not stop.is_set() and time.monotonic() < end:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.connect(sys.argv[1])
        except OSError:
            pass
        s.close()
    """

    static func measureChords(_ daemon: RunningDaemon, calls: Int = 50) throws -> (failed: Int, p99: Double, max: Double, line: String) {
        let result = try runProgram(LocalAttackerTests.setpriv, ["--reuid=\(seatUser)", "--regid=\(seatUser)", "--clear-groups",
                                                               LocalAttackerTests.systemPython, "-c", chordCalls, daemon.socketPath, "\(calls)"],
                                    timeout: 120)
        let line = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let words = line.split(separator: " ")
        guard words.count == 8, let failed = Int(words[1]), let p99 = Double(words[5]), let max = Double(words[7]) else {
            Issue.record("unreadable figures: \(result.output)")
            return (calls, 0, 0, line)
        }
        return (failed, p99, max, line)
    }

    @Test("a connect flood from uids with no rights: every chord call of the seat's user is answered",
          .requires(needs))
    func connectFlood() throws {
        let seated = try SeatedDaemon(active: Self.seatUser, arguments: ["--demo"])
        defer { seated.stop() }
        let daemon = seated.daemon

        // The positive control: quiet, every call answered.
        let quietChords = try Self.measureChords(daemon)
        let quiet = try LocalAttackerTests.measure(daemon)
        #expect(quietChords.failed == 0, "\(quietChords.line)")

        // Three processes of nobody (no session, no group) connect as fast as they can.
        var flooders: [(Process, Pipe)] = []
        for _ in 0..<3 {
            let (process, input, output) = try LocalAttackerTests.python(Self.flooder, as: ["--reuid=65534", "--regid=65534", "--clear-groups"], daemon)
            #expect(LocalAttackerTests.readLine(output.fileHandleForReading).contains("flooding"))
            flooders.append((process, input))
        }
        let floodedChords = try Self.measureChords(daemon)
        let flooded = try LocalAttackerTests.measure(daemon)
        for (process, input) in flooders {
            input.fileHandleForWriting.closeFile()
            process.waitUntilExit()
        }
        print("connect flood: chords quiet \(quietChords.line), flooded \(floodedChords.line); "
              + "root's GetInfo p99 \(quiet.p99 / 1000) ms quiet, \(flooded.p99 / 1000) ms flooded; "
              + "largest stretch of the stream \(quiet.gap / 1000) ms quiet, \(flooded.gap / 1000) ms flooded")
        // Before the bound, the same flood made 26 to 31 of 50 such calls fail outright. The
        // times are printed for docs/robustness.md, not asserted: they follow the machine's load.
        #expect(floodedChords.failed == 0, "chord calls failed under the flood: \(floodedChords.line)")
        // The flood did reach the daemon, and was refused.
        #expect(daemon.log.contains("uid 65534"), "the flood never reached the daemon: \(daemon.log.suffix(500))")
    }

    @Test("members of the access group holding every place they can leave the seat's user room; the third member is refused",
          .requires(needs))
    func groupMembersLeaveRoom() throws {
        let seated = try SeatedDaemon(active: Self.seatUser, configuration:
            "[Daemon]\nAccessGroup=\(LocalAttackerTests.accessGroup)\n[Limits]\nMaxClients=128\nMaxClientsPerUser=32\n")
        defer { seated.stop() }
        let daemon = seated.daemon

        // Each member holds 32 connections (its cap), each served a GetInfo, until told to stop.
        let holder = """
        import socket, sys
        \(LocalAttackerTests.getInfoPython)
        held, served, refused = [], 0, 0
        for _ in range(32):
            s = connect()
            answer = get_info(s)
            if answer == "refused": refused += 1
            elif answer == "served": served += 1; held.append(s)
        print(served, refused, flush=True)
        sys.stdin.readline()
        """
        var members: [(Process, Pipe, [Int])] = []
        for uid in 2001...2003 {
            let (process, input, output) = try LocalAttackerTests.python(holder, as: ["--reuid=\(uid)", "--regid=\(uid)", "--groups=\(LocalAttackerTests.accessGroup)"], daemon)
            let counts = LocalAttackerTests.readLine(output.fileHandleForReading).split(separator: " ")
                .compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            members.append((process, input, counts))
        }
        defer {
            for (process, input, _) in members {
                input.fileHandleForWriting.write(Data("done\n".utf8))
                process.waitUntilExit()
            }
        }
        // Two members fill what everyone shares; the third is refused every place.
        #expect(members.map(\.2) == [[32, 0], [32, 0], [0, 32]], "served and refused per member: \(members.map(\.2))")
        // The seat's user is served beside them: its chords are answered, whatever the keyboard says.
        let chords = try Self.measureChords(daemon, calls: 10)
        #expect(chords.failed == 0, "\(chords.line)")
        let reply = try runProgram(LocalAttackerTests.setpriv, ["--reuid=\(Self.seatUser)", "--regid=\(Self.seatUser)", "--clear-groups",
                                                              LocalAttackerTests.systemPython, "-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            s.sendall(b'{"method":"org.pencild.Pen.ListDevices"}\\0')
            print(s.recv(4096).rstrip(b"\\0").decode())
            """, daemon.socketPath]).output
        #expect(reply.contains("\"devices\""), "the seat's user was not served: \(reply)")
        // Root keeps its own places too.
        let client = try daemon.client()
        #expect(try client.call("org.varlink.service.GetInfo")["version"] != nil)
    }
}
