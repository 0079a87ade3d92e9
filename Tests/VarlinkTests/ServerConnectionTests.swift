import Testing
import PencilSystem
@testable import Varlink

/// The server connection's decisions, one at a time, in virtual time: each refusal beside the
/// case that is allowed, so that a test cannot pass by refusing everything.
@Suite("Server connection flow control")
struct ServerConnectionTests {
    private static let start = HostTime(microseconds: 1_000_000)

    private static func limits(queued: Int = 4, output: Int = 1024, callsPerTurn: Int = 8) -> ServerConnection.Limits {
        ServerConnection.Limits(maximumRequestSize: 256, maximumQueuedRequests: queued, outputBufferSize: output,
                                requestTimeout: 5_000_000, lagTimeout: 2_000_000, idleTimeout: 60_000_000,
                                callsPerTurn: callsPerTurn)
    }

    private static func connection(_ limits: ServerConnection.Limits = limits()) -> ServerConnection {
        ServerConnection(limits: limits, now: start)
    }

    private static func call(_ index: Int) -> [UInt8] {
        Array(#"{"method":"a.B","parameters":{"n":\#(index)}}"#.utf8) + [0]
    }

    private static func reply() -> ArraySlice<UInt8> { Array(#"{"parameters":{}}"#.utf8)[...] + [0] }

    private static func receive(_ bytes: [UInt8], on connection: ServerConnection) -> Bool {
        bytes.withUnsafeBytes { connection.received($0) }
    }

    /// Takes one turn's calls, answering each unless told not to; returns how many came.
    private static func turn(_ connection: ServerConnection, now: HostTime = start, answering: Bool = true) -> (count: Int, end: ServerConnection.TurnEnd) {
        var count = 0
        let end = connection.takeCalls(now: now) { _ in
            count += 1
            if answering { connection.appendReply(reply()) }
        }
        return (count, end)
    }

    /// The client reads everything it was sent.
    private static func clientReadsAll(_ connection: ServerConnection, now: HostTime = start) -> ServerConnection.AfterSend {
        connection.output.didSend(connection.output.pendingByteCount)
        return connection.didSend(now: now)
    }

    @Test("a connection whose unread replies are at the bound is not read, and is read again once the client reads them; one reply under the bound is read")
    func repliesAtTheBound() {
        let under = Self.connection()
        #expect(Self.receive((0..<3).flatMap(Self.call), on: under))
        #expect(Self.turn(under).count == 3)
        #expect(!under.updateReading())
        #expect(under.mayTakeCalls && under.reading)

        let full = Self.connection()
        #expect(Self.receive((0..<6).flatMap(Self.call), on: full))
        let first = Self.turn(full)
        #expect(first.count == 4 && first.end == .waiting)
        #expect(!full.mayTakeCalls)
        #expect(full.updateReading())
        #expect(!full.reading)
        // Not read, the connection is handed none of its waiting calls either.
        #expect(Self.turn(full).count == 0)
        #expect(Self.clientReadsAll(full) == .takeCalls)
        #expect(Self.turn(full).count == 2)
        #expect(full.updateReading() && full.reading)
    }

    @Test("one turn takes at most callsPerTurn calls and says backlogged once; the backlog's next turn takes the rest; fewer calls leave no backlog")
    func callsPerTurn() {
        let few = Self.connection(Self.limits(queued: 100))
        #expect(Self.receive((0..<7).flatMap(Self.call), on: few))
        let small = Self.turn(few)
        #expect(small.count == 7 && small.end == .waiting)
        #expect(!few.hasBacklog && !few.updateReading())

        let flood = Self.connection(Self.limits(queued: 100))
        #expect(Self.receive((0..<20).flatMap(Self.call), on: flood))
        let first = Self.turn(flood)
        #expect(first.count == 8 && first.end == .backlogged)
        #expect(flood.hasBacklog)
        #expect(flood.updateReading() && !flood.reading)
        // More of its bytes in the same turn (a hang-up is still read) add no second entry.
        #expect(Self.receive(Self.call(20), on: flood))
        #expect(Self.turn(flood) == (count: 8, end: .waiting))

        var backlog = Backlog<ServerConnection>()
        backlog.add(flood)
        let next = backlog.takeAll()
        #expect(next.count == 1 && next[0] === flood && backlog.isEmpty && !flood.hasBacklog)
        #expect(Self.turn(flood) == (count: 5, end: .waiting))
        #expect(flood.updateReading() && flood.reading)
    }

    @Test("a message started and not finished times out after requestTimeout; a finished one sets no deadline")
    func requestTimeout() {
        let finished = Self.connection()
        #expect(Self.receive(Self.call(0), on: finished))
        _ = Self.turn(finished)
        #expect(finished.partialSince == nil)
        #expect(finished.nextDeadline(mayIdle: false) == nil)
        #expect(finished.expiry(now: Self.start + 10_000_000, mayIdle: false) == nil)

        let partial = Self.connection()
        #expect(Self.receive(Array(Self.call(0).dropLast()), on: partial))
        _ = Self.turn(partial)
        #expect(partial.nextDeadline(mayIdle: false) == Self.start + 5_000_000)
        #expect(partial.expiry(now: Self.start + 4_999_999, mayIdle: false) == nil)
        #expect(partial.expiry(now: Self.start + 5_000_000, mayIdle: false) == .requestTimedOut(since: Self.start))
        // More bytes of the same message do not restart the timer.
        #expect(Self.receive(Array("  ".utf8), on: partial))
        _ = Self.turn(partial, now: Self.start + 1_000_000)
        #expect(partial.partialSince == Self.start)
    }

    @Test("the request timer does not run while the server holds the client's calls back (replies at the bound), and starts once it takes them again")
    func requestTimerWaitsForTheServer() {
        let held = Self.connection(Self.limits(queued: 1))
        #expect(Self.receive(Self.call(0) + Array(Self.call(1).dropLast()), on: held))
        _ = Self.turn(held)
        #expect(held.updateReading() && !held.reading)
        #expect(held.partialSince == nil)
        #expect(held.nextDeadline(mayIdle: false) == nil)
        let later = Self.start + 1_000_000
        #expect(Self.clientReadsAll(held, now: later) == .takeCalls)
        _ = Self.turn(held, now: later)
        #expect(held.partialSince == later)
    }

    @Test("a message over the size limit is malformed; one at the limit is a call")
    func oversize() {
        let atLimit = Self.connection()
        #expect(Self.receive([UInt8](repeating: UInt8(ascii: " "), count: 256) + [0], on: atLimit))
        #expect(Self.turn(atLimit) == (count: 1, end: .waiting))

        let over = Self.connection()
        #expect(Self.receive([UInt8](repeating: UInt8(ascii: " "), count: 257), on: over))
        #expect(Self.turn(over) == (count: 0, end: .malformed(.messageTooLarge(limit: 256))))
    }

    @Test("over half the output bound the client is behind and lags out after lagTimeout; reading below half in time stops the timer")
    func lag() {
        let event = [UInt8](repeating: UInt8(ascii: " "), count: 100)[...]
        let lagging = Self.connection()
        var states: [ServerConnection.OutputState] = []
        for _ in 0..<6 { states.append(lagging.appendStreamReply(event, coalescing: nil, now: Self.start)) }
        #expect(states == [.within, .within, .within, .within, .within, .fellBehind(pending: 600)])
        #expect(lagging.isBehind)
        #expect(lagging.appendStreamReply(event, coalescing: nil, now: Self.start + 1) == .within) // said once
        #expect(lagging.nextDeadline(mayIdle: false) == Self.start + 2_000_000)
        #expect(lagging.expiry(now: Self.start + 1_999_999, mayIdle: false) == nil)
        #expect(lagging.expiry(now: Self.start + 2_000_000, mayIdle: false) == .lagged(since: Self.start))

        let caughtUp = Self.connection()
        for _ in 0..<6 { _ = caughtUp.appendStreamReply(event, coalescing: nil, now: Self.start) }
        caughtUp.output.didSend(200)
        #expect(caughtUp.didSend(now: Self.start + 1_000_000) == .nothing)
        #expect(!caughtUp.isBehind && caughtUp.laggingSince == nil)
        #expect(caughtUp.expiry(now: Self.start + 2_000_000, mayIdle: false) == nil)
    }

    @Test("stream replies coalesce only past the whole output bound; at four times it the connection overflows")
    func outputBound() {
        let key = CoalescingKey(subject: "pen", kind: 0)
        let event = [UInt8](repeating: UInt8(ascii: " "), count: 100)[...]
        let connection = Self.connection()
        for _ in 0..<10 { _ = connection.appendStreamReply(event, coalescing: key, now: Self.start) }
        #expect(connection.output.coalescedCount == 0)
        #expect(connection.output.pendingByteCount == 1000)
        // The eleventh goes in whole (1000 bytes were within the bound); past it, the
        // thirteenth replaces the twelfth.
        for _ in 0..<3 { _ = connection.appendStreamReply(event, coalescing: key, now: Self.start) }
        #expect(connection.output.coalescedCount == 1)
        #expect(connection.output.pendingByteCount == 1200)

        let unkeyed = Self.connection()
        var last = ServerConnection.OutputState.within
        for _ in 0..<41 { last = unkeyed.appendStreamReply(event, coalescing: nil, now: Self.start) }
        #expect(last == .overflowed(pending: 4100))
        let exactly = Self.connection()
        for _ in 0..<40 { last = exactly.appendStreamReply(event, coalescing: nil, now: Self.start) }
        #expect(last == .within)
    }

    @Test("while a reply is deferred no call is taken nor the connection read; once answered the waiting call is taken")
    func deferredReply() {
        let connection = Self.connection()
        #expect(Self.receive(Self.call(0) + Self.call(1), on: connection))
        var taken = 0
        _ = connection.takeCalls(now: Self.start) { _ in
            taken += 1
            connection.awaitDeferredReply()
        }
        #expect(taken == 1)
        #expect(!connection.mayTakeCalls)
        #expect(connection.updateReading() && !connection.reading)
        #expect(Self.turn(connection).count == 0)
        // Output sent meanwhile does not take the call either.
        #expect(connection.didSend(now: Self.start) == .nothing)
        connection.appendReply(Self.reply())
        connection.deferredReplyAnswered()
        #expect(Self.turn(connection).count == 1)
        #expect(connection.updateReading() && connection.reading)
    }

    @Test("a connection closing after its output takes no more bytes, and closes when its output is sent, not before")
    func closeWhenFlushed() {
        let connection = Self.connection()
        connection.appendReply(Self.reply())
        connection.closeWhenFlushed()
        #expect(!Self.receive(Self.call(0), on: connection))
        #expect(connection.updateReading() && !connection.reading)
        connection.output.didSend(3)
        #expect(connection.didSend(now: Self.start) != .close)
        #expect(Self.clientReadsAll(connection) == .close)
        #expect(connection.markClosed())
        #expect(!connection.markClosed())
        #expect(connection.didSend(now: Self.start) == .nothing)
    }

    @Test("an idle connection times out only when the service lets it idle and nothing is owed to it")
    func idle() {
        let idle = Self.connection()
        #expect(idle.nextDeadline(mayIdle: true) == Self.start + 60_000_000)
        #expect(idle.expiry(now: Self.start + 60_000_000, mayIdle: true) == .idle(since: Self.start))
        #expect(idle.nextDeadline(mayIdle: false) == nil)
        #expect(idle.expiry(now: Self.start + 60_000_000, mayIdle: false) == nil)

        let owed = Self.connection()
        owed.appendReply(Self.reply())
        #expect(owed.nextDeadline(mayIdle: true) == nil)
        let later = Self.start + 30_000_000
        #expect(Self.clientReadsAll(owed, now: later) == .nothing)
        #expect(owed.nextDeadline(mayIdle: true) == later + 60_000_000)
    }
}
