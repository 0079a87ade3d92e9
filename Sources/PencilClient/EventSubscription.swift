import Dispatch
import PencilProtocol
import Synchronization
import Varlink

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
        /// The client's focus claim, which each connection of the stream carries while it
        /// holds (nil: the stream never claims).
        var focus: ControlChannel?
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
        let path = configuration.socketPath ?? DaemonSocket.path()
        let connection: MonitorSubscription
        do {
            let open = { (claimingFocus: Bool) throws(VarlinkClientError) -> MonitorSubscription in
                try MonitorSubscription(path: path, devices: self.configuration.devices, events: self.subscribedTypes,
                                        claimingFocus: claimingFocus)
            }
            if let focus = configuration.focus {
                connection = try focus.openStream(resubscribing: connections > 0, open)
            } else {
                connection = try open(false)
            }
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
