import Dispatch
import PencilProtocol
import Synchronization
import Varlink

/// What an event sequence does when its connection to pencild ends (the daemon stopped,
/// restarted or crashed).
public enum DisconnectPolicy: Sendable, Equatable {
    /// Close what was open (the sequence yields the closing events), then connect again with
    /// growing pauses and subscribe again with the same filters. The sequence never ends on
    /// its own: the new daemon's stream starts with `deviceAdded` for each device. This is
    /// also how a daemon that is not there yet at the start is waited for.
    case reconnect
    /// Close what was open, then end the sequence by throwing
    /// `PencilClientError.disconnected` (or the connection error when the first connection
    /// fails).
    case `throw`
}

/// The events of a `Monitor` subscription, as an `AsyncSequence`:
///
///     for try await event in client.events(types: [.doubleTap, .squeeze]) { ... }
///
/// Each iteration (each `makeAsyncIterator()`) is its own subscription on its own
/// connection, made when iteration starts. Reading happens on a dispatch queue of the
/// subscription's own with a non-blocking socket: neither the caller's thread nor the
/// cooperative thread pool ever waits for the daemon. Ending the iteration (leaving the loop,
/// or cancelling the task that iterates) stops reading and closes the connection.
///
/// Events wait in a bounded buffer: when the consumer falls `bufferLimit` events behind,
/// the subscription stops reading until it has caught up, and the daemon's own limits apply
/// (it coalesces motion for a client that stays behind, and disconnects one that stops
/// reading; the sequence then closes what was open and reconnects).
///
/// Errors thrown are `PencilClientError`: `.permissionDenied` and other refusals end the
/// sequence whatever the policy; with `.throw`, so does a lost connection.
public struct PencilEvents: AsyncSequence, Sendable {
    public typealias Element = PencilEvent
    public typealias Failure = PencilClientError

    let configuration: EventSubscription.Configuration

    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<PencilEvent, any Error>.makeStream()
        let subscription = EventSubscription(configuration, continuation: continuation)
        continuation.onTermination = { _ in subscription.stop() }
        subscription.start()
        return Iterator(base: stream.makeAsyncIterator(), subscription: subscription)
    }

    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = PencilEvent
        public typealias Failure = PencilClientError

        var base: AsyncThrowingStream<PencilEvent, any Error>.AsyncIterator
        let subscription: EventSubscription

        public mutating func next() async throws(PencilClientError) -> PencilEvent? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(PencilClientError) -> PencilEvent? {
            do {
                guard let event = try await base.next(isolation: actor) else { return nil }
                subscription.consumed()
                return event
            } catch let error as PencilClientError {
                throw error
            } catch {
                throw .disconnected(reason: "\(error)")
            }
        }
    }
}

/// One subscription: connects, reads, decodes, tracks what is open, closes it out when the
/// connection ends and reconnects. All its state belongs to its serial queue.
final class EventSubscription: @unchecked Sendable {
    struct Configuration: Sendable {
        /// Nil: look the socket up again at each connection (`DaemonSocket.path()`).
        var socketPath: String?
        var devices: [String]?
        var types: Set<PencilEventType>?
        var policy: DisconnectPolicy
        var bufferLimit: Int
        var backoff: ReconnectBackoff
        /// Called on the subscription's queue before each attempt to subscribe again, once a
        /// first subscription was made: the client claims the focus again there, so that a
        /// new daemon knows the claim before the new stream's first gesture.
        var beforeResubscribe: (@Sendable () -> Void)?
    }

    private let configuration: Configuration
    private let continuation: AsyncThrowingStream<PencilEvent, any Error>.Continuation
    private let queue = DispatchQueue(label: "pencild.client.events")
    /// What is asked of the daemon: the requested types and the openers of their closers, so
    /// that what is open can be known (and closed) whatever the filter.
    private let subscribedTypes: [String]?

    private var connection: MonitorSubscription?
    private var source: (any DispatchSourceRead)?
    private var retry: DispatchWorkItem?
    private var openState = OpenState()
    private var backoff: ReconnectBackoff
    private var connections = 0
    private var stopped = false
    private var paused = false
    /// Events yielded and not yet taken by the consumer.
    private let pending = Atomic<Int>(0)

    init(_ configuration: Configuration, continuation: AsyncThrowingStream<PencilEvent, any Error>.Continuation) {
        self.configuration = configuration
        self.continuation = continuation
        backoff = configuration.backoff
        subscribedTypes = configuration.types.map { Self.subscription(for: $0) }
    }

    /// The types to subscribe to for `requested`: each closing type brings what the close-out
    /// needs to know it is open (docs/protocol.md, "When pencild goes away"): its opener, and
    /// for what a tool holds, the tool's proximity.
    static func subscription(for requested: Set<PencilEventType>) -> [String] {
        var types = requested
        let needs: [PencilEventType: [PencilEventType]] = [
            .deviceRemoved: [.deviceAdded], .proximityOut: [.proximityIn],
            .tipUp: [.tipDown, .proximityIn, .proximityOut], .buttonUp: [.buttonDown, .proximityIn, .proximityOut],
            .hover: [.proximityIn, .proximityOut], .squeeze: [.proximityIn, .proximityOut],
        ]
        for (closer, needed) in needs where requested.contains(closer) { types.formUnion(needed) }
        return types.map(\.rawValue).sorted()
    }

    func start() { queue.async { self.connect() } }

    func stop() {
        queue.async {
            self.stopped = true
            self.retry?.cancel()
            self.retry = nil
            self.dropConnection()
        }
    }

    /// The consumer took an event: reading resumes once it has caught up halfway.
    func consumed() {
        let left = pending.subtract(1, ordering: .relaxed).newValue
        if left == configuration.bufferLimit / 2 {
            queue.async { self.resumeReading() }
        }
    }

    private func connect() {
        guard !stopped else { return }
        retry = nil
        if connections > 0 { configuration.beforeResubscribe?() }
        let path = configuration.socketPath ?? DaemonSocket.path()
        let connection: MonitorSubscription
        do {
            connection = try MonitorSubscription(path: path, devices: configuration.devices, events: subscribedTypes)
        } catch {
            connectionEnded(PencilClientError(error, method: PenInterface.Method.monitor.qualifiedName))
            return
        }
        connections += 1
        self.connection = connection
        let source = DispatchSource.makeReadSource(fileDescriptor: connection.descriptor.rawValue, queue: queue)
        source.setEventHandler { [unowned self] in readAvailable() }
        // The descriptor is closed only once the source has let go of it.
        source.setCancelHandler { connection.close() }
        self.source = source
        source.resume()
    }

    private func readAvailable() {
        guard let connection, !stopped, !paused else { return }
        do {
            let outcome = try connection.readAvailable(chunkLimit: 16) { (json) throws(VarlinkClientError) in
                let event: PencilEvent
                do { event = try PencilEvent(json: json) } catch { throw .protocolViolation("\(error)") }
                deliver(event)
            }
            if outcome == .ended {
                connectionEnded(.disconnected(reason: "the daemon ended the stream"))
            } else if pending.load(ordering: .relaxed) >= configuration.bufferLimit {
                pauseReading()
            } else if outcome == .limitReached {
                // More may be waiting; let other work on the queue (a stop) go first.
                queue.async { self.readAvailable() }
            }
        } catch {
            connectionEnded(PencilClientError(error, method: PenInterface.Method.monitor.qualifiedName))
        }
    }

    private func deliver(_ event: PencilEvent) {
        openState.observe(event)
        // A stream that delivers is a working connection: the next failure starts the
        // pauses from the shortest again.
        backoff.reset()
        yield(event)
    }

    private func yield(_ event: PencilEvent) {
        if let types = configuration.types, !types.contains(event.type) { return }
        pending.add(1, ordering: .relaxed)
        continuation.yield(event)
    }

    private func pauseReading() {
        guard !paused, let source else { return }
        paused = true
        source.suspend()
    }

    private func resumeReading() {
        guard paused, let source else { return }
        paused = false
        source.resume()
        // What arrived while paused may be all there is: read it now rather than wait for
        // the source to tell of more.
        readAvailable()
    }

    private func dropConnection() {
        if let source {
            // A suspended source must be resumed before it can be cancelled and released.
            if paused { source.resume() }
            source.cancel()
        } else {
            connection?.close()
        }
        paused = false
        source = nil
        connection = nil
    }

    private func connectionEnded(_ error: PencilClientError) {
        dropConnection()
        guard !stopped else { return }
        for event in openState.closeAll() { yield(event) }
        guard configuration.policy == .reconnect, error.isTransient else {
            stopped = true
            continuation.finish(throwing: error)
            return
        }
        let delay = backoff.next()
        let work = DispatchWorkItem { [weak self] in self?.connect() }
        retry = work
        queue.asyncAfter(deadline: .now() + .milliseconds(delay), execute: work)
    }
}

/// The pauses between attempts to reach a daemon that went away: from `initial`
/// milliseconds, doubling up to `maximum`. Nothing tells a client when a socket comes back,
/// so it has to try; the doubling keeps a long absence cheap, the cap keeps the return quick.
public struct ReconnectBackoff: Sendable, Equatable {
    public var initial: Int
    public var maximum: Int
    private var current: Int

    public init(initialMilliseconds: Int = 50, maximumMilliseconds: Int = 2_000) {
        initial = max(1, initialMilliseconds)
        maximum = max(initial, maximumMilliseconds)
        current = initial
    }

    /// The next pause, in milliseconds.
    public mutating func next() -> Int {
        let pause = current
        current = min(maximum, current * 2)
        return pause
    }

    public mutating func reset() { current = initial }
}
