import PencilSystem

/// A client's connection as a varlink server sees it, with the flow control every service
/// needs, the way sd-varlink's server owns its connections: the framing of what the client
/// sends, how many of its calls one turn of the loop takes, the replies it has yet to read and
/// the bound on its output, and the request, lag and idle timeouts. The service it serves
/// parses the messages it is handed and queues replies and stream events here.
///
/// Whether the connection's calls may be taken, and so whether it is read, is decided in one
/// place: `mayTakeCalls`. It reads no clock: time comes in with every call that needs it.
/// A service subclasses it for what it keeps per connection (credentials, subscriptions).
open class ServerConnection {
    /// Bounds on one connection.
    public struct Limits: Equatable, Sendable {
        /// Longest message; a longer one makes the stream untrustworthy (`.malformed`).
        public var maximumRequestSize: Int
        /// Replies not yet read by the client; at the bound no more of its calls are taken.
        public var maximumQueuedRequests: Int
        /// Output waiting for the client: behind past half of it, stream replies coalesced
        /// past the whole of it, overflowing at four times it.
        public var outputBufferSize: Int
        /// Microseconds the client may take to finish a message it has started.
        public var requestTimeout: Int64
        /// Microseconds the client may stay behind.
        public var lagTimeout: Int64
        /// Microseconds an idle connection may stay silent.
        public var idleTimeout: Int64
        /// Calls taken from one connection per turn of the loop; the rest wait for the next
        /// turn, so that one client's flood cannot hold up the others.
        public var callsPerTurn: Int

        public init(maximumRequestSize: Int, maximumQueuedRequests: Int, outputBufferSize: Int,
                    requestTimeout: Int64, lagTimeout: Int64, idleTimeout: Int64, callsPerTurn: Int = 8) {
            self.maximumRequestSize = maximumRequestSize
            self.maximumQueuedRequests = maximumQueuedRequests
            self.outputBufferSize = outputBufferSize
            self.requestTimeout = requestTimeout
            self.lagTimeout = lagTimeout
            self.idleTimeout = idleTimeout
            self.callsPerTurn = callsPerTurn
        }

        /// More than this waiting, the client is behind.
        public var behindThreshold: Int { outputBufferSize / 2 }
    }

    public let limits: Limits
    public private(set) var framer: MessageFramer
    /// What the client has yet to receive. The transport sends from it and reports what went
    /// out (`output.didSend`, then `didSend(now:)`).
    // Written for every event of a stream. A connection belongs to the one thread of the loop that
    // serves it (its owner's rule: this class takes no lock), and no access to `output` or `closed`
    // overlaps another, so release builds leave out the runtime's exclusivity check on them; debug
    // builds, which the tests and the sanitizers run, keep it.
    #if DEBUG
    public var output = OutputBuffer()
    #else
    @exclusivity(unchecked) public var output = OutputBuffer()
    #endif
    /// The last time the client sent a message or its output was all sent (for the idle timeout).
    public private(set) var lastActivity: HostTime
    /// When the message in progress started arriving (for the request timeout).
    public private(set) var partialSince: HostTime?
    /// When the output went over half its bound (for the lag timeout).
    public private(set) var laggingSince: HostTime?
    /// Complete messages wait in the framer: the client used its share of this turn.
    public internal(set) var hasBacklog = false
    /// A call's reply waits for the service: later calls wait behind it, since varlink's
    /// replies keep the order of the calls.
    public private(set) var awaitingDeferredReply = false
    /// Close once the output is sent (after a final error), taking nothing more.
    public private(set) var closeAfterFlush = false
    #if DEBUG
    public private(set) var closed = false
    #else
    @exclusivity(unchecked) public private(set) var closed = false
    #endif
    /// Whether the transport reads from the client now, as `updateReading` last decided.
    public private(set) var reading = true

    public init(limits: Limits, now: HostTime) {
        self.limits = limits
        framer = MessageFramer(maximumMessageSize: limits.maximumRequestSize)
        lastActivity = now
    }

    // MARK: The decision

    /// Whether the client's calls may be taken now: not once it is closed or closing, not
    /// while a reply waits for the service, not while its unread replies are at the bound.
    /// Nothing is read from a connection whose calls may not be taken, nor from one whose
    /// calls wait for the next turn.
    public var mayTakeCalls: Bool {
        !closed && !closeAfterFlush && !awaitingDeferredReply && !repliesAtBound
    }

    private var repliesAtBound: Bool { output.queuedReplyCount >= limits.maximumQueuedRequests }

    /// Decides `reading` again; true when it changed, for the transport to follow.
    public func updateReading() -> Bool {
        let reading = mayTakeCalls && !hasBacklog
        guard reading != self.reading, !closed else { return false }
        self.reading = reading
        return true
    }

    // MARK: Input

    /// Bytes from the client; false when nothing more is taken from it (closed or closing).
    public func received(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !closed, !closeAfterFlush else { return false }
        framer.append(bytes)
        return true
    }

    /// How a turn of taking calls ended.
    public enum TurnEnd: Equatable, Sendable {
        /// No complete message waits, or no more may be taken now.
        case waiting
        /// The turn's share is used and messages wait: the connection must join the backlog
        /// (said once, until `Backlog.takeAll` gives it its next turn).
        case backlogged
        /// A message over the size limit: nothing after it can be trusted; close the connection.
        case malformed(FramingError)
    }

    /// Hands the client's complete messages to `handle`, one by one, while its calls may be
    /// taken and at most `limits.callsPerTurn` of them; then starts or stops the request timer.
    public func takeCalls(now: HostTime, _ handle: (ArraySlice<UInt8>) -> Void) -> TurnEnd {
        var taken = 0
        var end = TurnEnd.waiting
        while mayTakeCalls {
            guard taken < limits.callsPerTurn else {
                if !hasBacklog {
                    hasBacklog = true
                    end = .backlogged
                }
                break
            }
            let message: ArraySlice<UInt8>?
            do {
                message = try framer.nextMessage()
            } catch {
                return .malformed(error)
            }
            guard let message else { break }
            taken += 1
            lastActivity = now
            handle(message)
        }
        guard !closed else { return end }
        // The client has to finish its message unless the server holds its calls back.
        if framer.hasPartialMessage, !hasBacklog, !repliesAtBound {
            if partialSince == nil { partialSince = now }
        } else {
            partialSince = nil
        }
        return end
    }

    // MARK: Output

    /// A method's reply (or error), which counts against `maximumQueuedRequests` until sent.
    public func appendReply(_ message: ArraySlice<UInt8>) {
        output.appendReply(message)
    }

    /// What the output bound says after a stream reply.
    public enum OutputState: Equatable, Sendable {
        case within
        /// Over half the bound for the first time since it last caught up: the lag timer runs.
        case fellBehind(pending: Int)
        /// Over four times the bound: close the connection now.
        case overflowed(pending: Int)
    }

    /// A stream reply. `key` lets a newer reply replace an unsent older one, but only for a
    /// client past its whole bound: one that keeps up gets every reply, at any pace.
    public func appendStreamReply(_ message: ArraySlice<UInt8>, coalescing key: CoalescingKey?, now: HostTime) -> OutputState {
        let limit = limits.outputBufferSize
        output.appendEvent(message, coalescing: output.pendingByteCount > limit ? key : nil)
        let pending = output.pendingByteCount
        if pending > 4 * limit { return .overflowed(pending: pending) }
        if pending > limits.behindThreshold, laggingSince == nil {
            laggingSince = now
            return .fellBehind(pending: pending)
        }
        return .within
    }

    /// More than half the output bound waits.
    public var isBehind: Bool { output.pendingByteCount > limits.behindThreshold }

    /// What to do after the transport sent some output.
    public enum AfterSend: Equatable, Sendable {
        case nothing
        /// Everything is sent and the connection was to close after it.
        case close
        /// Reading stopped for want of room for replies (or for closing): take the calls that
        /// waited and judge the request timer again (`takeCalls`).
        case takeCalls
    }

    public func didSend(now: HostTime) -> AfterSend {
        guard !closed else { return .nothing }
        if output.pendingByteCount <= limits.behindThreshold { laggingSince = nil }
        if output.isEmpty {
            lastActivity = now
            if closeAfterFlush { return .close }
        }
        // Not read for a reason the sent output may have ended: neither its turn nor a deferred reply.
        return !reading && !hasBacklog && !awaitingDeferredReply ? .takeCalls : .nothing
    }

    // MARK: The service's holds

    /// The reply to the call just taken comes later (`deferredReplyAnswered`); no call is
    /// taken until then.
    public func awaitDeferredReply() {
        awaitingDeferredReply = true
    }

    /// The deferred reply is queued: calls may be taken again (`takeCalls`).
    public func deferredReplyAnswered() {
        awaitingDeferredReply = false
    }

    /// Take nothing more; the connection closes once its output is sent (`didSend` says `.close`).
    public func closeWhenFlushed() {
        closeAfterFlush = true
    }

    /// Marks the connection closed; false when it already was.
    @discardableResult
    public func markClosed() -> Bool {
        guard !closed else { return false }
        closed = true
        return true
    }

    // MARK: Timeouts

    /// Why a connection is past one of its timeouts.
    public enum Expiry: Equatable, Sendable {
        /// A message started at `since` is still unfinished after `requestTimeout`.
        case requestTimedOut(since: HostTime)
        /// Behind since `since`, for `lagTimeout`.
        case lagged(since: HostTime)
        /// Silent since `since`, for `idleTimeout`.
        case idle(since: HostTime)
    }

    /// Whether the connection may be closed for idling: the service lets it go (`mayIdle`:
    /// it streams nothing, holds nothing), it waits for no reply, is owed no output and is not
    /// closing already.
    private func idles(_ mayIdle: Bool) -> Bool {
        mayIdle && !awaitingDeferredReply && !closeAfterFlush && output.isEmpty
    }

    /// The earliest of the connection's timeouts, if one runs.
    public func nextDeadline(mayIdle: Bool) -> HostTime? {
        let deadlines = [partialSince.map { $0 + limits.requestTimeout },
                         laggingSince.map { $0 + limits.lagTimeout },
                         idles(mayIdle) ? lastActivity + limits.idleTimeout : nil]
        return deadlines.compactMap { $0 }.min()
    }

    /// The timeout the connection is past at `now`, the request's first, then the lag's,
    /// then the idle one's.
    public func expiry(now: HostTime, mayIdle: Bool) -> Expiry? {
        if let since = partialSince, since + limits.requestTimeout <= now { return .requestTimedOut(since: since) }
        if let since = laggingSince, since + limits.lagTimeout <= now { return .lagged(since: since) }
        if idles(mayIdle), lastActivity + limits.idleTimeout <= now { return .idle(since: lastActivity) }
        return nil
    }
}

/// Connections whose calls wait for their next turn, in the order they used up their share.
public struct Backlog<Connection: ServerConnection> {
    private var waiting: [Connection] = []

    public init() {}

    public var isEmpty: Bool { waiting.isEmpty }

    /// A connection whose `takeCalls` said `.backlogged`.
    public mutating func add(_ connection: Connection) {
        waiting.append(connection)
    }

    /// Every waiting connection, for its next turn (`takeCalls` on each).
    public mutating func takeAll() -> [Connection] {
        let turn = waiting
        waiting.removeAll()
        for connection in turn { connection.hasBacklog = false }
        return turn
    }
}
