import Foundation
import PencilInput
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink

/// The real pencild replaying recordings to real clients: what a client receives is what
/// `pencilctl events` prints for the same file, whatever the speed, per user.
@Suite("Replays, end to end", .serialized)
struct ReplayTests {
    /// Writes the pen session as a recording in `directory`.
    private func writeSession(in directory: String, strokeMs: Int = 300) throws -> String {
        let session = penSession(strokeMs: strokeMs)
        let path = directory + "/session.events"
        try EvemuWriter.recording(session.device, session.events).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a Monitor client receives exactly what pencilctl events prints, gestures included")
    func replayMatchesPencilctl() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        let recording = try writeSession(in: directory)
        let daemon = try RunningDaemon(["--replay", recording, "--speed", "max"], directory: directory)
        defer { daemon.stop(); daemon.removeDirectory() }
        var stream = try daemon.client().stream("org.pencild.Pen.Monitor")
        let received = try monitorEvents(&stream)
        let expected = try pencilctlEvents(recording)
        #expect(firstDifference(received, expected) == nil, "\(firstDifference(received, expected) ?? "")")
        // The session has every kind of event the contract names for a pen.
        let kinds = Set(types(expected))
        for kind in ["deviceAdded", "proximityIn", "hover", "tipDown", "motion", "tipUp", "buttonDown", "buttonUp", "doubleTap", "squeeze", "proximityOut", "deviceRemoved"] {
            #expect(kinds.contains(kind), "the session has no \(kind)")
        }
    }

    @Test("--exit-after-replay: every client gets deviceRemoved, then pencild exits 0")
    func exitAfterReplay() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        let recording = try writeSession(in: directory)
        let daemon = try RunningDaemon(["--replay", recording, "--speed", "max", "--exit-after-replay", "--wait-monitors", "2"], directory: directory)
        defer { daemon.removeDirectory() }
        let everything = try daemon.client()
        var all = try everything.stream("org.pencild.Pen.Monitor")
        let removalsOnly = try daemon.client()
        var removals = try removalsOnly.stream("org.pencild.Pen.Monitor", .object([("events", .array([.string("deviceRemoved")]))]))
        let received = try monitorEvents(&all)
        #expect(received.last?["type"] == .string("deviceRemoved"))
        let removal = try #require(try removals.next()?["event"])
        #expect(removal["type"] == .string("deviceRemoved"))
        #expect(removal == received.last)
        // Then the daemon goes: the connections close and it exits 0.
        #expect(connectionCloses(everything))
        #expect(connectionCloses(removalsOnly))
        #expect(daemon.waitForExit() == 0, "\(daemon.log)")
        #expect(daemon.log.contains("every replay has ended"))
    }

    static let setpriv = "/usr/bin/setpriv"
    static let systemPython = "/usr/bin/python3"

    @Test("two users with different preferences get different gestures from the same pen (needs root)",
          .requires(Prerequisite.otherUserClients))
    func twoUsersTwoGestureStreams() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        let recording = try writeSession(in: directory)
        // Members of group input may connect: the second user is nobody with that group.
        let groupName = getgrnam("input") != nil ? "input" : "nogroup"
        let group = try #require(getgrnam(groupName)).pointee.gr_gid
        let config = directory + "/pencild.conf"
        try "[Daemon]\nAccessGroup=\(groupName)\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(["--replay", recording, "--speed", "max", "--wait-monitors", "2", "--config", config], directory: directory)
        defer { daemon.stop(); daemon.removeDirectory() }
        let theirs = #"{"doubleTapAction":"showColorPalette","squeezeButton":"longPress"}"#
        // nobody sets its preferences, then monitors, printing each event as received.
        let script = """
        import json, socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sys.argv[1])
        buffer = b""
        def message():
            global buffer
            while b"\\0" not in buffer:
                chunk = s.recv(65536)
                if not chunk: sys.exit("closed")
                buffer += chunk
            text, _, buffer = buffer.partition(b"\\0")
            return text
        s.sendall(json.dumps({"method": "org.pencild.Pen.SetPreferences", "parameters": {"preferences": json.loads(sys.argv[2])}}).encode() + b"\\0")
        print(message().decode(), flush=True)
        s.sendall(b'{"method":"org.pencild.Pen.Monitor","more":true}\\0')
        while True:
            text = message()
            print(text.decode(), flush=True)
            event = json.loads(text)["parameters"]["event"]
            if event["type"] == "deviceRemoved": break
        """
        let other = Process()
        other.executableURL = URL(fileURLWithPath: Self.setpriv)
        other.arguments = ["--reuid=65534", "--regid=65534", "--groups=\(group)", Self.systemPython, "-c", script, daemon.socketPath, theirs]
        let pipe = Pipe()
        other.standardOutput = pipe
        other.standardError = pipe
        try other.run()
        var mine = try daemon.client(timeoutMilliseconds: 10_000).stream("org.pencild.Pen.Monitor")
        let myEvents = try monitorEvents(&mine)
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        other.waitUntilExit()
        #expect(other.terminationStatus == 0, "\(output)\n\(daemon.log)")
        let lines = output.split(separator: "\n").map(String.init)
        let setReply = try JSONReader.parse(try #require(lines.first))
        #expect(setReply["parameters"]?["preferences"]?["squeezeButton"] == .string("longPress"), "\(output)")
        let theirEvents = try lines.dropFirst().map { line in try #require(try JSONReader.parse(line)["parameters"]?["event"]) }

        #expect(firstDifference(myEvents, try pencilctlEvents(recording)) == nil)
        let theirExpected = try pencilctlEvents(recording, preferences: theirs)
        #expect(firstDifference(theirEvents, theirExpected) == nil, "\(firstDifference(theirEvents, theirExpected) ?? "")")
        // The same pen, different gestures: a squeeze by long press and another action.
        let myGestures = myEvents.filter { ["doubleTap", "squeeze"].contains($0["type"]?.stringValue ?? "") }
        let theirGestures = theirEvents.filter { ["doubleTap", "squeeze"].contains($0["type"]?.stringValue ?? "") }
        #expect(myGestures != theirGestures)
        #expect(myGestures.first { $0["type"] == .string("doubleTap") }?["action"] == .string("switchEraser"))
        #expect(theirGestures.first { $0["type"] == .string("doubleTap") }?["action"] == .string("showColorPalette"))
        // Pen events are the same for both: only gestures depend on the user.
        let penOnly = { (events: [JSONValue]) in events.filter { !["doubleTap", "squeeze"].contains($0["type"]?.stringValue ?? "") } }
        #expect(penOnly(myEvents) == penOnly(theirEvents))
    }

    @Test("the shared real recordings replay as pencilctl events prints them",
          .requires(.recordings),
          arguments: SharedRecordings.all.map(\.events))
    func sharedRecordings(name: String) throws {
        let entry = try #require(SharedRecordings.all.first { $0.events == name })
        let recording = SharedRecordings.path(entry.events)
        var arguments = ["--replay", recording]
        if let desc = entry.desc { arguments += ["--replay-desc", SharedRecordings.path(desc)] }
        let daemon = try RunningDaemon(arguments + ["--speed", "max"])
        defer { daemon.stop(); daemon.removeDirectory() }
        var stream = try daemon.client(timeoutMilliseconds: 30_000).stream("org.pencild.Pen.Monitor")
        let received = try monitorEvents(&stream)
        let expected = try pencilctlEvents(recording, description: entry.desc.map(SharedRecordings.path))
        #expect(received.count == expected.count)
        #expect(firstDifference(received, expected) == nil, "\(name): \(firstDifference(received, expected) ?? "")")
    }
}
