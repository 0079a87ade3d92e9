import Foundation
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink

@Suite("Monitor streams, end to end", .serialized)
struct StreamingTests {
    private func event(_ parameters: JSONValue?) throws -> Event {
        try Event(json: try #require(parameters?["event"]))
    }

    @Test("several clients with filters each get what they asked for; shutdown closes what is open")
    func filtersAndCloseOut() throws {
        let daemon = try RunningDaemon(["--demo"])
        defer { daemon.removeDirectory() }
        let everything = try daemon.client()
        var all = try everything.stream("org.pencild.Pen.Monitor")
        let tipsOnly = try daemon.client()
        var tips = try tipsOnly.stream("org.pencild.Pen.Monitor", .object([("events", .array([.string("tipDown"), .string("tipUp"), .string("deviceRemoved")]))]))
        #expect(try event(all.next()).type == .deviceAdded)
        var seen: [EventType] = []
        while !seen.contains(.tipDown) { seen.append(try event(all.next()).type) }
        #expect(seen.contains(.proximityIn))
        #expect(try event(tips.next()).type == .tipDown)
        #expect(daemon.stop() == 0)
        // Whatever the demo pen was doing, the stream ends with its close-out and deviceRemoved.
        var tail: [Event] = []
        while let next = try? all.next() { tail.append(try event(next)) }
        #expect(tail.last?.type == .deviceRemoved)
        if let proximityOut = tail.lastIndex(where: { $0.type == .proximityOut }) {
            #expect(proximityOut == tail.count - 2)
        }
        var tipTail: [EventType] = []
        while let next = try? tips.next() { tipTail.append(try event(next).type) }
        #expect(tipTail.last == .deviceRemoved)
        #expect(tipTail.allSatisfy { [.tipDown, .tipUp, .deviceRemoved].contains($0) })
    }

    @Test("a client that stops reading is disconnected while another keeps up")
    func stalledClient() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        let config = directory + "/pencild.conf"
        try "[Limits]\nOutputBufferSize=4K\nLagTimeout=200ms\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(["--demo", "--config", config], directory: directory)
        defer { daemon.stop(); daemon.removeDirectory() }
        let stalled = try daemon.client()
        _ = try stalled.stream("org.pencild.Pen.Monitor")
        let reader = try daemon.client()
        var stream = try reader.stream("org.pencild.Pen.Monitor")
        // The reader keeps receiving until the daemon gives up on the stalled client (once the
        // kernel's socket buffer and the daemon's bound are full), and a while after.
        let start = Date()
        var count = 0
        var droppedAt: Int?
        while Date().timeIntervalSince(start) < 10, droppedAt.map({ count < $0 + 100 }) ?? true {
            _ = try stream.next()
            count += 1
            if droppedAt == nil, daemon.log.contains("has not read its events") { droppedAt = count }
        }
        #expect(droppedAt != nil, "the stalled client was never disconnected")
        #expect(count >= (droppedAt ?? 0) + 100)
        // What the kernel still holds for the stalled client drains, then the connection ends.
        var drained = 0
        while drained < 100_000, !connectionCloses(stalled) { drained += 1 }
        #expect(drained < 100_000)
        #expect(try daemon.client().call("org.pencild.Pen.ListDevices")["devices"]?.arrayValue?.count == 1)
    }
}
