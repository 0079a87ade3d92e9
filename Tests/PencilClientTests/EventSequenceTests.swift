import Foundation
import PencilClient
import PencilInput
import PencilProtocol
import PencilTestSupport
import Testing

@Suite("PencilClient's event sequence against a real pencild", .timeLimit(.minutes(10)))
struct EventSequenceTests {
    @Test("every shared recording: the events the library yields are pencilctl events' for it, field by field",
          .requires(.recordings),
          arguments: SharedRecordings.all.map(\.events))
    func sharedRecording(name: String) async throws {
        let entry = try #require(SharedRecordings.all.first { $0.events == name })
        let recording = SharedRecordings.path(entry.events)
        let description = entry.desc.map(SharedRecordings.path)
        // Seven replays at full speed at once, each with its own pencild, all read in this one
        // process: on a busy machine (or under a sanitizer) this process may not run for
        // seconds, which the daemon's lag timeout (2 s, its own limits, tested elsewhere) would
        // take for a client that stopped reading. What is compared here is the events.
        let directory = RunningDaemon.makeTemporaryDirectory()
        let patient = directory + "/patient.conf"
        try "[Limits]\nLagTimeout=1h\n".write(toFile: patient, atomically: true, encoding: .utf8)
        var arguments = ["--config", patient, "--replay", recording, "--speed", "max"]
        if let description { arguments += ["--replay-desc", description] }
        let daemon = try RunningDaemon(arguments, directory: directory)
        defer { daemon.stop(); daemon.removeDirectory() }

        let client = PencilClient(socketPath: daemon.socketPath)
        // Room for the whole recording: a test process busy with other tests may leave this
        // consumer unscheduled for a while, and a sequence that stopped reading for it would
        // fall behind the daemon (which pauses a full-speed replay for it).
        let received = try await collect(client.events(onDisconnect: .throw, bufferLimit: 1_000_000))
        let expected = try pencilctlEvents(recording, description: description).map { try Event(json: $0) }

        #expect(received.count == expected.count, "\(name): \(received.count) events vs \(expected.count)")
        let mismatch = zip(received, expected).enumerated().lazy.compactMap { index, pair in
            difference(pair.0, pair.1).map { "event \(index) (\(pair.1.jsonText)): \($0)" }
        }.first
        #expect(mismatch == nil, "\(name): \(mismatch ?? "")")
        // Every type of the recording came through typed: nothing was left unknown.
        #expect(received.allSatisfy { $0.type.isKnown })
    }

    @Test("a type filter yields those types only, and the same ones as the whole stream has; a tiny buffer loses nothing")
    func typeFilter() async throws {
        let daemon = try sessionDaemon(["--speed", "max", "--wait-monitors", "3"])
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = PencilClient(socketPath: daemon.socketPath)
        let wanted: Set<PencilEventType> = [.doubleTap, .squeeze, .tipUp, .deviceRemoved]
        async let filtered = collect(client.events(types: wanted, onDisconnect: .throw))
        async let everything = collect(client.events(onDisconnect: .throw))
        // Two events at most wait for this consumer: reading stops and resumes all along.
        async let slowly = collect(client.events(onDisconnect: .throw, bufferLimit: 2))
        let (some, all, slow) = try await (filtered, everything, slowly)
        #expect(slow == all)
        #expect(all.count > 100)
        #expect(some.allSatisfy { wanted.contains($0.type) })
        #expect(some == all.filter { wanted.contains($0.type) })
        #expect(some.contains { $0.type == .doubleTap })
        #expect(some.contains { $0.type == .squeeze && $0.phase == .ended && $0.action != nil })
    }

    @Test("a daemon killed mid-stroke: the sequence closes what was open, reconnects and subscribes again with the same filter")
    func restartMidStream() async throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // At real-time speed the daemon is killed while the tip, the button and the squeeze
        // are open, and sends nothing more.
        let recording = try writeHeldPen(in: directory)
        let first = try RunningDaemon(["--replay", recording], directory: directory)
        let client = PencilClient(socketPath: first.socketPath)
        let types: Set<PencilEventType> = [.deviceAdded, .deviceRemoved, .proximityIn, .proximityOut, .tipDown, .tipUp,
                                           .hover, .buttonUp, .squeeze]
        var iterator = client.events(types: types, backoff: ReconnectBackoff(initialMilliseconds: 20, maximumMilliseconds: 200)).makeAsyncIterator()

        var before: [PencilEvent] = []
        while let event = try await iterator.next() {
            before.append(event)
            if event.type == .squeeze { break }
        }
        #expect(before.first?.type == .deviceAdded && before.contains { $0.type == .proximityIn })
        #expect(before.suffix(2).map(\.type) == [.tipDown, .squeeze] && before.last?.phase == .began)
        kill(first.process.processIdentifier, SIGKILL)
        first.waitForExit(expecting: nil)

        // What was open is closed, in the contract's order, at the time of the last event;
        // buttonDown was filtered out, yet its buttonUp comes (the library subscribed to it).
        var closing: [PencilEvent] = []
        while closing.last?.type != .deviceRemoved, let event = try await iterator.next() {
            closing.append(event)
        }
        let last = try #require(before.last)
        #expect(closing.map(\.type) == [.tipUp, .buttonUp, .squeeze, .proximityOut, .deviceRemoved])
        #expect(closing.first { $0.type == .buttonUp }?.button == .stylus2)
        #expect(closing.first { $0.type == .squeeze }?.phase == .cancelled)
        #expect(closing.allSatisfy { $0.time == last.time && $0.device == "replay0" })
        // The last pose, with the tip up: pressure 0 (docs/protocol.md, "When pencild goes away").
        var lifted = last.pose
        lifted?.pressure = 0
        #expect(last.pose?.pressure ?? 0 > 0, "the tip was down: the check below can fail")
        #expect(closing.dropLast().allSatisfy { $0.tool == last.tool && $0.pose == lifted })
        #expect(closing.allSatisfy(\.isSynthesized) && !before.contains(where: \.isSynthesized))

        // A new daemon on the same socket: the sequence finds it and subscribes again.
        let second = try RunningDaemon(["--replay", recording, "--speed", "max"], directory: directory)
        defer { second.stop() }
        var after: [PencilEvent] = []
        while let event = try await iterator.next() {
            after.append(event)
            if event.type == .deviceRemoved { break }
        }
        #expect(after.first?.type == .deviceAdded)
        #expect(after.allSatisfy { types.contains($0.type) }, "the filter survives the reconnection")
        #expect(after.contains { $0.type == .squeeze && $0.phase == .ended } && after.contains { $0.type == .tipUp })
        #expect(after.last?.type == .deviceRemoved)
    }

    @Test("with onDisconnect: .throw the sequence closes what was open and then throws")
    func throwOnDisconnect() async throws {
        let daemon = try sessionDaemon()
        defer { daemon.removeDirectory() }
        let client = PencilClient(socketPath: daemon.socketPath)
        var events: [PencilEvent] = []
        var thrown: PencilClientError?
        do {
            for try await event in client.events(onDisconnect: .throw) {
                events.append(event)
                if event.type == .proximityIn { kill(daemon.process.processIdentifier, SIGKILL) }
            }
        } catch {
            thrown = error
        }
        daemon.waitForExit(expecting: nil)
        if case .disconnected? = thrown {} else { Issue.record("expected .disconnected, got \(String(describing: thrown))") }
        #expect(events.last?.type == .deviceRemoved)
        #expect(Self.unbalanced(events).isEmpty, "every opener has its closer: \(Self.unbalanced(events))")
    }

    @Test("an absent daemon with onDisconnect: .throw: the connection error, typed")
    func absentDaemon() async throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let client = PencilClient(socketPath: directory + "/nobody.sock")
        do {
            for try await _ in client.events(onDisconnect: .throw) {}
            Issue.record("the sequence ended without an error")
        } catch {
            guard case .cannotConnect(let path, let errno, _) = error else {
                Issue.record("expected .cannotConnect, got \(error)")
                return
            }
            #expect(path.hasSuffix("/nobody.sock"))
            #expect(errno == ENOENT)
        }
        await #expect(throws: PencilClientError.self) { _ = try await client.devices() }
    }

    @Test("cancelling the consuming task, or leaving the loop, stops the reading and closes the connection")
    func cancellation() async throws {
        // A few events, then a long quiet with the device attached.
        let directory = RunningDaemon.makeTemporaryDirectory()
        let daemon = try RunningDaemon(["--replay", try writeHeldPen(in: directory)], directory: directory)
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = PencilClient(socketPath: daemon.socketPath)
        let started = AsyncStream<Void>.makeStream()
        let consumer = Task {
            var count = 0
            for try await _ in client.events() {
                count += 1
                if count == 1 { started.continuation.yield() }
            }
            return count
        }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        // The daemon logs each client's coming and going (the recording is quiet: its per-user
        // rate limit on these lines is never reached). The harness's own probe of the socket
        // came and went; the subscription stays.
        let connections = { openClients(in: daemon.log) }
        #expect(await eventually { connections() == 1 }, "\(connections()) connections:\n\(daemon.log.suffix(2000))")
        consumer.cancel()
        let received = try await consumer.value
        #expect(received >= 1)
        #expect(await eventually { connections() == 0 }, "the daemon sees the subscription's connection close")

        // Leaving the loop does the same.
        for try await _ in client.events() { break }
        #expect(await eventually { connections() == 0 }, "leaving the loop closes the connection")
    }

    @Test("many waiting sequences leave the cooperative pool free: calls still complete")
    func poolStaysFree() async throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = PencilClient(socketPath: daemon.socketPath)
        // More waiting subscriptions than the pool has threads (one per core).
        let waiting = (0..<(ProcessInfo.processInfo.activeProcessorCount * 4)).map { _ in
            Task { for try await _ in client.events(types: [.doubleTap]) {} }
        }
        defer { waiting.forEach { $0.cancel() } }
        for _ in 0..<3 { #expect(try await client.devices().isEmpty) }
    }

    /// The openers without a closer in `events`: device, proximity, tip, buttons, hover, squeeze.
    static func unbalanced(_ events: [PencilEvent]) -> [String] {
        var open: [String: Int] = [:]
        func change(_ key: String, _ by: Int) { open[key, default: 0] += by }
        for event in events {
            let device = event.device ?? "-"
            switch (event.type, event.phase) {
            case (.deviceAdded, _): change("\(device) device", 1)
            case (.deviceRemoved, _): change("\(device) device", -1)
            case (.proximityIn, _): change("\(device) proximity", 1)
            case (.proximityOut, _): change("\(device) proximity", -1)
            case (.tipDown, _): change("\(device) tip", 1)
            case (.tipUp, _): change("\(device) tip", -1)
            case (.buttonDown, _): change("\(device) \(event.button?.rawValue ?? "?")", 1)
            case (.buttonUp, _): change("\(device) \(event.button?.rawValue ?? "?")", -1)
            case (.hover, .began?): change("\(device) hover", 1)
            case (.hover, .ended?), (.hover, .cancelled?): change("\(device) hover", -1)
            case (.squeeze, .began?): change("\(device) squeeze", 1)
            case (.squeeze, .ended?), (.squeeze, .cancelled?): change("\(device) squeeze", -1)
            default: break
            }
        }
        return open.filter { $0.value != 0 }.map { "\($0.key): \($0.value)" }.sorted()
    }
}
