@testable import PencilDaemon
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink

/// What happens to a client that stops reading while the pen goes on: the demo pen (200 Hz)
/// on the daemon's service in virtual time, one client that reads everything beside one that
/// reads nothing. Limits.outputBufferSize names the three thresholds: behind (half of it),
/// coalescing (all of it), disconnection (four times it).
@Suite("Clients that fall behind, in virtual time")
struct BackpressureTests {
    /// Lets the demo pen run for `seconds` of virtual time, in steps of 50 ms.
    private func run(_ daemon: EmbeddedDaemon, seconds: Int, until stop: () -> Bool = { false }) {
        for _ in 0..<(seconds * 20) where !stop() { daemon.advance(by: 50_000) }
    }

    /// The demo pen under these bounds. A lag timeout of ten minutes leaves staying behind out
    /// of a test.
    private func demoDaemon(outputBufferSize: Int, lagTimeout: Int64 = 600_000_000) throws -> (daemon: EmbeddedDaemon, limits: Limits) {
        var limits = Limits()
        limits.outputBufferSize = outputBufferSize
        limits.lagTimeout = lagTimeout
        return (try EmbeddedDaemon(demo: true, limits: limits), limits)
    }

    /// Two monitors of one user: one reads, one has stopped reading.
    private func readerAndStalled(_ daemon: EmbeddedDaemon) throws -> (reader: EmbeddedClient, stalled: EmbeddedClient) {
        let reader = try daemon.client(uid: 1000, pid: 1)
        reader.call("org.pencild.Pen.Monitor", more: true)
        let stalled = try daemon.client(uid: 1000, pid: 2)
        stalled.reads = false
        stalled.call("org.pencild.Pen.Monitor", more: true)
        return (reader, stalled)
    }

    private static func isCoalescable(_ event: JSONValue) -> Bool {
        event["type"] == .string("motion") || (event["type"] == .string("hover") && event["phase"] == .string("changed"))
    }

    @Test("past its whole bound a client's motion is coalesced: every other event arrives in order, and each pose the pen stopped at")
    func motionCoalescedPastTheBound() throws {
        let (daemon, limits) = try demoDaemon(outputBufferSize: 4 * 1024)
        let (reader, stalled) = try readerAndStalled(daemon)
        run(daemon, seconds: 2)
        #expect(!stalled.closed)
        #expect(stalled.connection.output.pendingByteCount > limits.outputBufferSize)
        #expect(stalled.connection.output.pendingByteCount <= 4 * limits.outputBufferSize)
        #expect(stalled.connection.output.coalescedCount > 0)
        #expect(stalled.eventValues.isEmpty, "a client that does not read receives nothing")

        stalled.resume()
        let all = reader.eventValues
        let kept = stalled.eventValues
        #expect(all.count > 300, "two seconds of the demo pen at 200 Hz")
        #expect(kept.count < all.count)
        // Nothing but motion and hover changes is ever dropped, and nothing is reordered.
        #expect(kept.filter { !Self.isCoalescable($0) } == all.filter { !Self.isCoalescable($0) })
        #expect(isSubsequence(kept, of: all), "coalescing changed or reordered an event")
        // The newest pose before each discrete event survives: what the client draws ends
        // where the pen was when the stroke, the hover or the gesture changed.
        for (index, event) in all.enumerated().dropLast() where Self.isCoalescable(event) && all[index + 1]["type"] != event["type"] {
            #expect(kept.contains(event), "the last \(event["type"]?.stringValue ?? "") before a \(all[index + 1]["type"]?.stringValue ?? "") was lost")
        }
        // Once it reads again, it keeps up: every event from then on, none coalesced.
        let coalesced = stalled.connection.output.coalescedCount
        let (readerBefore, stalledBefore) = (reader.eventValues.count, stalled.eventValues.count)
        run(daemon, seconds: 1)
        #expect(Array(stalled.eventValues[stalledBefore...]) == Array(reader.eventValues[readerBefore...]))
        #expect(stalled.connection.output.coalescedCount == coalesced)
    }

    @Test("a client that reads late, but before its bound fills, gets every motion")
    func noCoalescingWithinTheBound() throws {
        let (daemon, _) = try demoDaemon(outputBufferSize: 64 * 1024)
        let prompt = try daemon.client(uid: 1000, pid: 1)
        prompt.call("org.pencild.Pen.Monitor", more: true)
        let late = try daemon.client(uid: 1001, pid: 2)
        late.reads = false
        late.call("org.pencild.Pen.Monitor", more: true)
        var largestPending = 0
        for _ in 0..<15 {
            // 200 ms unread at a time: 40 frames of the pen waiting in the daemon.
            for _ in 0..<4 {
                daemon.advance(by: 50_000)
                largestPending = max(largestPending, late.connection.output.pendingByteCount)
            }
            late.resume()
            late.reads = false
        }
        late.resume()
        #expect(largestPending > 4 * 1024, "the late client never had much waiting")
        #expect(prompt.eventValues.filter { $0["type"] == .string("motion") }.count > 100)
        #expect(late.eventValues == prompt.eventValues)
        #expect(late.connection.output.coalescedCount == 0)
    }

    @Test("at four times its bound a client is disconnected at once, and the others go on")
    func disconnectedAtFourTimesTheBound() throws {
        let (daemon, limits) = try demoDaemon(outputBufferSize: 1024)
        let (reader, stalled) = try readerAndStalled(daemon)
        var largestPending = 0
        run(daemon, seconds: 60) {
            if !stalled.closed { largestPending = max(largestPending, stalled.connection.output.pendingByteCount) }
            return stalled.closed
        }
        #expect(stalled.closed, "a client with its discrete events piling up was never disconnected")
        // It was kept (coalesced) while it stayed under four times the bound.
        #expect(largestPending > limits.outputBufferSize)
        #expect(largestPending <= 4 * limits.outputBufferSize)
        let line = daemon.log.first { $0.contains("four times the limit of 1024") }
        #expect(line?.hasPrefix("<4>") == true, "\(daemon.log)")
        #expect(stalled.eventValues.isEmpty)
        // The reader never noticed.
        #expect(!reader.closed)
        let before = reader.eventValues.count
        run(daemon, seconds: 1)
        #expect(reader.eventValues.count > before + 100)
        #expect(daemon.service.clientCount == 1)
    }

    @Test("a client behind (over half its bound) for the lag timeout is disconnected, even under four times it")
    func disconnectedAfterTheLagTimeout() throws {
        let (daemon, limits) = try demoDaemon(outputBufferSize: 256 * 1024, lagTimeout: 1_000_000)
        let (reader, stalled) = try readerAndStalled(daemon)
        var behindSince: HostTime?
        var closedAt: HostTime?
        for _ in 0..<(20 * 20) where closedAt == nil {
            daemon.advance(by: 50_000)
            if behindSince == nil, stalled.connection.output.pendingByteCount > limits.outputBufferSize / 2 { behindSince = daemon.now }
            if stalled.closed { closedAt = daemon.now }
        }
        let since = try #require(behindSince, "the stalled client never fell behind")
        let closed = try #require(closedAt, "the stalled client was never disconnected")
        // Closed at the lag timeout after it fell behind (within one 50 ms step), not before.
        #expect(closed >= since + limits.lagTimeout)
        #expect(closed <= since + limits.lagTimeout + 100_000)
        #expect(daemon.log.contains { $0.contains("more than half its bound of 262144: disconnecting") })
        #expect(!reader.closed)
    }

    @Test("a client that reads again before the lag timeout stays")
    func catchingUpInTime() throws {
        let (daemon, limits) = try demoDaemon(outputBufferSize: 64 * 1024, lagTimeout: 1_000_000)
        let (reader, stalled) = try readerAndStalled(daemon)
        for _ in 0..<5 {
            run(daemon, seconds: 10) { stalled.connection.output.pendingByteCount > limits.outputBufferSize / 2 }
            #expect(stalled.connection.output.pendingByteCount > limits.outputBufferSize / 2)
            // Behind for less than the lag timeout, then it reads everything and stops again.
            daemon.advance(by: 300_000)
            #expect(stalled.connection.output.pendingByteCount > limits.outputBufferSize / 2)
            stalled.resume()
            stalled.reads = false
        }
        #expect(!stalled.closed, "\(daemon.log)")
        #expect(!reader.closed)
    }
}

/// Whether `part` is `whole` with some elements left out.
private func isSubsequence(_ part: [JSONValue], of whole: [JSONValue]) -> Bool {
    var next = whole.startIndex
    for element in part {
        guard let found = whole[next...].firstIndex(of: element) else { return false }
        next = found + 1
    }
    return true
}
