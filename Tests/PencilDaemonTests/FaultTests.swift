import Foundation
import PencilProtocol
import PencilTestSupport
import Testing
import Varlink
#if canImport(Glibc)
import Glibc
#endif

/// Faults that need a real file system or a real stream: a full disk, an oversized
/// preferences file, a call that would interleave with a stream.
@Suite("Faults, end to end", .serialized)
struct FaultTests {
    private static func setTapMaxDuration(_ value: Int64, _ client: VarlinkClient) throws -> JSONValue {
        try client.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([("tapMaxDuration", .int(value))]))]))
    }

    @Test("a full state directory makes SetPreferences fail, keeps the old file whole, and the daemon keeps serving (needs root: it mounts a tmpfs)",
          .requires(.root))
    func fullStateDirectory() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let state = directory + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        // A real file system that fills up: a 64 KiB tmpfs.
        guard shell("mount -t tmpfs -o size=64k,mode=0700 pencild-test '\(state)'") == 0 else {
            Issue.record("cannot mount a tmpfs at \(state)")
            return
        }
        defer { _ = shell("umount '\(state)'") }
        let daemon = try RunningDaemon(stateDirectory: state, directory: directory)
        defer { daemon.stop() }
        let client = try daemon.client()
        _ = try Self.setTapMaxDuration(250, client)
        let saved = try String(contentsOfFile: "\(state)/\(getuid()).json", encoding: .utf8)
        // Fill what is left; the next write has nowhere to go.
        _ = shell("dd if=/dev/zero of='\(state)/filler' bs=4k 2>/dev/null")
        let error = remoteError { _ = try Self.setTapMaxDuration(200, client) }
        #expect(error?.name == "org.pencild.Pen.PreferencesNotSaved")
        #expect(try client.call("org.pencild.Pen.GetPreferences")["preferences"]?["tapMaxDuration"] == .int(250),
                "a write that failed changes nothing")
        #expect(try String(contentsOfFile: "\(state)/\(getuid()).json", encoding: .utf8) == saved)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: state).filter { $0 != "filler" && $0 != "\(getuid()).json" }
        #expect(leftovers.isEmpty, "no temporary file is left behind: \(leftovers)")
        #expect(try daemon.client().call("org.varlink.service.GetInfo")["product"] == .string("pencild"))
    }

    @Test("a preferences file over 64 KiB is moved aside unread and the defaults are used")
    func oversizedPreferencesFile() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let state = directory + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let huge = "{\"tapMaxDuration\": 250, \"pad\": \"" + String(repeating: "x", count: 70_000) + "\"}"
        try huge.write(toFile: "\(state)/\(getuid()).json", atomically: false, encoding: .utf8)
        let daemon = try RunningDaemon(stateDirectory: state, directory: directory)
        defer { daemon.stop() }
        #expect(try daemon.client().call("org.pencild.Pen.GetPreferences")["preferences"]?["tapMaxDuration"] == .int(300))
        let names = try FileManager.default.contentsOfDirectory(atPath: state)
        #expect(names.contains { $0.hasPrefix("\(getuid()).json.corrupt-") }, "moved aside: \(names)")
    }

    @Test("a second call on a connection that streams Monitor closes it; other clients go on")
    func callDuringStream() throws {
        let daemon = try RunningDaemon(["--demo"])
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = try daemon.client()
        var stream = try client.stream("org.pencild.Pen.Monitor")
        #expect(try stream.next()?["event"]?["type"] == .string("deviceAdded"))
        try client.sendRaw(VarlinkCall(method: "org.varlink.service.GetInfo").encoded)
        // Events already on their way may arrive first; then the connection ends (not a
        // time-out: the demo pen streams on, so only a close stops the reading).
        #expect(streamEndsWithClose(client))
        #expect(try daemon.client().call("org.varlink.service.GetInfo")["product"] == .string("pencild"))
    }
}

/// Reads until the connection ends: true when it was closed by the daemon, false on a
/// time-out or when it never ends.
func streamEndsWithClose(_ client: VarlinkClient) -> Bool {
    for _ in 0..<100_000 {
        let result = Result { () throws(VarlinkClientError) -> JSONValue in try client.readMessage() }
        switch result {
        case .success: continue
        case .failure(.closed), .failure(.io): return true
        case .failure: return false
        }
    }
    return false
}

/// Runs a shell command; its exit status.
private func shell(_ command: String) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    do { try process.run() } catch { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
}
