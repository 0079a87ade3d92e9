import PencilTestSupport
import Foundation
import PencilProtocol
import PencilSystem
import Testing
import Varlink

/// Hostile and unlucky clients, and a daemon killed at the worst moment (docs/robustness.md).
@Suite("Robustness, end to end", .serialized)
struct RobustnessTests {
    private func config(_ text: String, in directory: String) throws -> String {
        let path = directory + "/pencild.conf"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("random bytes close only the connections that sent them")
    func randomBytes() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        let daemon = try RunningDaemon(["--config", try config("[Limits]\nRequestTimeout=300ms\n", in: directory)], directory: directory)
        defer { daemon.stop(); daemon.removeDirectory() }
        let bystander = try daemon.client()
        var generator = SplitMix64(seed: 0x5eed)
        for round in 0..<40 {
            let offender = try daemon.client(timeoutMilliseconds: 2_000)
            let length = Int.random(in: 1...9_000, using: &generator)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try? offender.sendRaw(bytes)
            // Whatever it was, the daemon answers with errors or closes; it never hangs on it.
            var outcome = "open"
            for _ in 0..<64 {
                let result = Result { () throws(VarlinkClientError) -> JSONValue in try offender.readMessage() }
                if case .failure(let error) = result {
                    outcome = "\(error)"
                    break
                }
            }
            #expect(outcome != "no reply in time" && outcome != "open", "round \(round): \(outcome)")
            #expect(try bystander.call("org.varlink.service.GetInfo")["product"] == .string("pencild"), "round \(round)")
        }
    }

    @Test("huge and odd numbers are invalid preferences or unreadable JSON, never a crash", arguments: [
        "1e400", "-1e400", "99999999999999999999999999", "-9223372036854775809", "1.5", "1e-400", "-0",
    ])
    func hugeNumbers(number: String) throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let bystander = try daemon.client()
        let client = try daemon.client()
        try client.sendRaw(Array(#"{"method":"org.pencild.Pen.SetPreferences","parameters":{"preferences":{"tapMaxDuration":\#(number)}}}"#.utf8) + [0])
        let result = Result { () throws(VarlinkClientError) -> VarlinkReply in try client.readReply() }
        #expect(try bystander.call("org.pencild.Pen.GetPreferences")["preferences"]?["tapMaxDuration"] != nil)
        guard case .success(let reply) = result else {
            // A number JSON cannot hold in a double (±1e400) is unreadable JSON: that connection closes.
            #expect(number.hasSuffix("e400"), "\(number): \(result)")
            #expect(daemon.log.contains("disconnecting"))
            return
        }
        if let error = reply.error {
            #expect(error == "org.pencild.Pen.InvalidPreferences" || error == "org.varlink.service.InvalidParameter", "\(number): \(error)")
        } else {
            // Only a value the preference can hold is taken.
            let stored = reply.parameters["preferences"]?["tapMaxDuration"]?.intValue
            #expect(stored != nil && stored! > 0 && stored! < 100_000, "\(number) was stored as \(String(describing: stored))")
        }
        #expect(try client.call("org.pencild.Pen.GetPreferences")["preferences"] != nil)
    }

    @Test("deep nesting is refused before it costs anything, and the daemon goes on", arguments: [100, 10_000, 60_000])
    func deepNesting(depth: Int) throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let bystander = try daemon.client()
        let offender = try daemon.client()
        let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        try? offender.sendRaw(Array(#"{"method":"org.pencild.Pen.ListDevices","parameters":{"x":\#(nested)}}"#.utf8) + [0])
        #expect(connectionCloses(offender), "depth \(depth)")
        #expect(try bystander.call("org.pencild.Pen.ListDevices")["devices"] == .array([]))
        #expect(daemon.process.isRunning)
    }

    @Test("clients that vanish mid-stream leave the others streaming")
    func clientsVanishMidStream() throws {
        let daemon = try RunningDaemon(["--demo"])
        defer { daemon.stop(); daemon.removeDirectory() }
        let survivor = try daemon.client()
        var stream = try survivor.stream("org.pencild.Pen.Monitor")
        for round in 0..<5 {
            var leaving: [VarlinkClient] = []
            for _ in 0..<20 {
                let client = try daemon.client()
                var stream = try client.stream("org.pencild.Pen.Monitor")
                // Streaming has begun: the demo pen's events follow this one, unread.
                #expect(try stream.next()?["event"] != nil)
                leaving.append(client)
            }
            // Gone without a word, with events unread, some in the middle of sending a call.
            for (index, client) in leaving.enumerated() {
                if index % 3 == 0 { try? client.sendRaw(Array(#"{"method":"org.pencild"#.utf8)) }
                client.close()
            }
            for _ in 0..<30 { #expect(try stream.next()?["event"] != nil, "round \(round)") }
        }
        #expect(try daemon.client().call("org.pencild.Pen.ListDevices")["devices"]?.arrayValue?.count == 1)
        #expect(!daemon.log.contains("<3>"), "errors in the log:\n\(daemon.log)")
    }

    @Test("pencild killed while SetPreferences hammers: the file is always the old or the new one, never torn",
          arguments: [SIGKILL, SIGTERM])
    func killDuringPreferenceWrites(signal: Int32) throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let state = directory + "/state"
        let values: [Int64] = [111, 222]
        var generator = SplitMix64(seed: UInt64(signal))
        for round in 0..<12 {
            let daemon = try RunningDaemon(stateDirectory: state, directory: directory)
            let pid = daemon.process.processIdentifier
            let delay = Int.random(in: 20_000...120_000, using: &generator)
            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(delay)) { _ = kill(pid, signal) }
            let client = try daemon.client(timeoutMilliseconds: 2_000)
            var calls = 0
            while calls < 100_000 {
                let value = values[calls % 2]
                let result = Result { () throws(VarlinkClientError) -> JSONValue in
                    try client.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([("tapMaxDuration", .int(value))]))]))
                }
                guard case .success = result else { break }
                calls += 1
            }
            // Killed by SIGKILL, or ended by SIGTERM in the middle of a write: either way cleanly
            // for SIGTERM, and never with a sanitizer report.
            daemon.waitForExit(expecting: signal == SIGTERM ? 0 : nil)
            // The stored file parses as preferences and holds one of the values written (or is
            // absent when no write finished).
            let path = state + "/\(getuid()).json"
            if FileManager.default.fileExists(atPath: path) {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                let stored = try Preferences.defaults.merging(try JSONReader.parse(bytes))
                #expect(values.contains(Int64(stored.tapMaxDuration)), "round \(round): \(stored.tapMaxDuration)")
            } else {
                #expect(calls == 0, "round \(round): \(calls) calls succeeded and no file")
            }
        }
        // A daemon started afterwards reads what is there, whatever was left half-written.
        let daemon = try RunningDaemon(stateDirectory: state, directory: directory)
        defer { daemon.stop() }
        let tap = try daemon.client().call("org.pencild.Pen.GetPreferences")["preferences"]?["tapMaxDuration"]?.intValue
        #expect(tap.map { values.contains($0) } ?? false)
        #expect(!daemon.log.contains("moved it to"))
    }

    @Test("pencild restarting under connected clients: their connections end, and the new daemon serves on the same path")
    func restartUnderClients() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try RunningDaemon(["--demo"], directory: directory)
        let client = try first.client()
        var stream = try client.stream("org.pencild.Pen.Monitor")
        _ = try stream.next()
        // Killed outright: no close-out, the socket file stays behind.
        kill(first.process.processIdentifier, SIGKILL)
        first.waitForExit(expecting: nil)
        // Events the daemon sent before it died may still be buffered: the stream ends after them.
        #expect(streamEndsWithClose(client))
        #expect(FileManager.default.fileExists(atPath: first.socketPath))
        let second = try RunningDaemon(["--demo"], directory: directory)
        defer { second.stop() }
        var again = try second.client().stream("org.pencild.Pen.Monitor")
        #expect(try again.next()?["event"]?["type"] == .string("deviceAdded"))
    }
}

