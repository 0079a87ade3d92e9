import Foundation
import PencilClient
import PencilSystem
import PencilProtocol
import PencilTestSupport
import Testing
import Varlink

@Suite("PencilClient's focus claim against a real pencild", .timeLimit(.minutes(10)))
struct FocusTests {
    static let gestures: Set<PencilEventType> = [.doubleTap, .squeeze, .deviceAdded, .deviceRemoved]

    @Test("a claim makes this process's gestures `this`; giving it up ends it")
    func claim() async throws {
        let daemon = try sessionDaemon(["--speed", "max"])
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = PencilClient(socketPath: daemon.socketPath)
        #expect(!client.isFocusClaimed)
        try await client.setFocused(true)
        #expect(client.isFocusClaimed)
        let events = try await collect(client.events(types: Self.gestures, onDisconnect: .throw))
        let gestures = events.filter { $0.type == .doubleTap || $0.type == .squeeze }
        #expect(!gestures.isEmpty)
        #expect(gestures.allSatisfy { $0.focus == .this }, "\(gestures.map { $0.focus?.rawValue ?? "nil" })")
        try await client.setFocused(false)
        #expect(!client.isFocusClaimed)
        #expect(daemon.log.contains("claims the focus") && daemon.log.contains("gives up the focus"))
    }

    @Test("another process's claim: its gestures are `other` here, `this` there (the example claims and prints them)")
    func otherProcess() async throws {
        // The replay starts once both this test and the example have subscribed; the example
        // claims the focus before it subscribes.
        let daemon = try sessionDaemon(["--speed", "max", "--wait-monitors", "2", "--exit-after-replay"])
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = PencilClient(socketPath: daemon.socketPath)
        let mine = Task { try await collect(client.events(types: Self.gestures, onDisconnect: .throw)) }
        let example = FileSystem.directoryName(of: RunningDaemon.binaryPath) + "/pencil-gestures-example"
        let result = try runProgram(example, [], environment: ["PENCILD_SOCKET": daemon.socketPath], timeout: 60)
        let events = try await mine.value
        let gestures = events.filter { $0.type == .doubleTap || ($0.type == .squeeze && $0.phase == .ended) }
        #expect(!gestures.isEmpty)
        #expect(events.filter { $0.type == .doubleTap || $0.type == .squeeze }.allSatisfy { $0.focus == .other })
        // The example acts on what is not `other`: all of them, there.
        let printed = result.output.split(separator: "\n").filter { $0.hasPrefix("double-tap") || $0.hasPrefix("squeeze") }
        #expect(printed.count == gestures.count, "\(result.output)")
        #expect(!result.output.contains("no focus claim"), "\(result.output)")
    }

    @Test("after a daemon restart the claim is made again before the sequence subscribes: gestures stay `this`")
    func claimSurvivesRestart() async throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try RunningDaemon(["--demo"], directory: directory)
        let client = PencilClient(socketPath: first.socketPath)
        try await client.setFocused(true)
        var iterator = client.events(types: Self.gestures, backoff: ReconnectBackoff(initialMilliseconds: 20, maximumMilliseconds: 200))
            .makeAsyncIterator()
        #expect(try await iterator.next()?.device == "demo0")
        kill(first.process.processIdentifier, SIGKILL)
        first.waitForExit(expecting: nil)
        // The demo pen's own gestures may come first; then its device is closed out.
        var closing: PencilEvent?
        repeat { closing = try await iterator.next() } while closing != nil && closing?.type != .deviceRemoved
        #expect(closing?.device == "demo0")

        try writePenSession(in: directory)
        let second = try RunningDaemon(["--replay", directory + "/session.events", "--speed", "max"], directory: directory)
        defer { second.stop() }
        var events: [PencilEvent] = []
        while let event = try await iterator.next() {
            events.append(event)
            if event.type == .deviceRemoved { break }
        }
        #expect(events.first?.device == "replay0" && events.last?.device == "replay0")
        let gestures = events.filter { $0.type == .doubleTap || $0.type == .squeeze }
        #expect(!gestures.isEmpty)
        #expect(gestures.allSatisfy { $0.focus == .this }, "\(gestures.map { $0.focus?.rawValue ?? "nil" })")
        #expect(client.isFocusClaimed)
        #expect(second.log.contains("claims the focus"))
    }

    /// A daemon that played its pen and went away, and the app's claim made on it, as a person
    /// meets them after pencild was restarted (an upgrade) while the app kept its window in front.
    static func claimOnDaemonThatDied(in directory: String) async throws -> PencilClient {
        let first = try RunningDaemon(["--demo"], directory: directory)
        let client = PencilClient(socketPath: first.socketPath)
        try await client.setFocused(true)
        kill(first.process.processIdentifier, SIGKILL)
        first.waitForExit(expecting: nil)
        return client
    }

    @Test("a stream opened after pencild restarted carries the claim made before: gestures are `this` from the first")
    func streamOpenedAfterRestartClaims() async throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let client = try await Self.claimOnDaemonThatDied(in: directory)
        // The replay waits for the stream; the claim's own connection is to the daemon that died.
        let second = try RunningDaemon(["--replay", try writePenSession(in: directory), "--speed", "max", "--wait-monitors", "1"],
                                       directory: directory)
        defer { second.stop() }
        let events = try await collect(client.events(types: Self.gestures, onDisconnect: .throw))
        let gestures = events.filter { $0.type == .doubleTap || $0.type == .squeeze }
        #expect(!gestures.isEmpty)
        #expect(gestures.allSatisfy { $0.focus == .this }, "\(gestures.map { $0.focus?.rawValue ?? "nil" })")
        #expect(second.log.contains("claims the focus"))
    }

    @Test("giving up the focus after a restart ends the claim the stream made on the new pencild; without any pencild it is no error")
    func givingUpAfterRestart() async throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let client = try await Self.claimOnDaemonThatDied(in: directory)
        let second = try RunningDaemon(["--demo"], directory: directory)
        defer { second.stop() }
        var iterator = client.events(types: Self.gestures, onDisconnect: .throw).makeAsyncIterator()
        #expect(try await iterator.next()?.type == .deviceAdded)
        let player = try VarlinkClient(path: second.socketPath, timeoutMilliseconds: 10_000)
        defer { player.close() }
        func play() throws {
            _ = try player.call(PenInterface.Method.playGesture.qualifiedName, .object([("gesture", .string("doubleTap"))]))
        }
        func nextDoubleTap() async throws -> PencilEvent? {
            while let event = try await iterator.next() {
                if event.type == .doubleTap { return event }
            }
            return nil
        }
        // The positive: the claim holds on the new daemon.
        try play()
        #expect(try await nextDoubleTap()?.focus == .this)
        try await client.setFocused(false)
        #expect(!client.isFocusClaimed)
        #expect(second.log.contains("gives up the focus"))
        try play()
        #expect(try await nextDoubleTap()?.focus == .nobody)

        // No pencild at all: nothing holds a claim, and giving it up says so without an error.
        try await client.setFocused(true)
        second.stop()
        try await client.setFocused(false)
        #expect(!client.isFocusClaimed)
    }
}
