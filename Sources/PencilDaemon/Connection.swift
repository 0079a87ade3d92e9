import PencilProtocol
import PencilSystem
import Varlink

/// One client connection: its credentials, what it has sent, what it has yet to receive, and
/// its Monitor subscription. The transport that carries its bytes (the daemon's socket, or a
/// test's in-memory pipe) keeps its own handle in `descriptor`.
final class Connection {
    /// Where it sits in the client table; reused once the connection is gone.
    let slot: Int
    /// Tells this connection from earlier ones in the same slot (the loop's token carries it).
    let generation: UInt16
    let peer: PeerCredentials
    /// The socket, for the daemon's own transport; nil elsewhere.
    var descriptor: FileDescriptor?
    var framer: MessageFramer
    var output = OutputBuffer()
    var monitor: MonitorSubscription?
    /// The last time the client sent a message or we finished a reply (for the idle timeout).
    var lastActivity: HostTime
    /// When the message in progress started arriving (for the request timeout).
    var partialSince: HostTime?
    /// When the output went over its bound.
    var laggingSince: HostTime?
    /// Complete messages may wait in the framer: the client used its share of this turn.
    var hasBacklog = false
    /// A call's reply waits for a coalesced preferences write: later calls wait behind it,
    /// since varlink replies keep the order of the calls.
    var awaitingDeferredReply = false
    /// Close once the output is sent (after a final error), reading nothing more.
    var closeAfterFlush = false
    /// Set once closed; the service drops it from its tables.
    var closed = false
    /// Queued in the list of connections with output to send.
    var needsFlush = false
    /// Whether the transport reads from the client now (as last told).
    var reading = true
    /// What the daemon's epoll watches for on the socket now.
    var watchedEvents: Epoll.Events = .readable

    init(slot: Int, generation: UInt16, peer: PeerCredentials, maximumRequestSize: Int, now: HostTime) {
        self.slot = slot
        self.generation = generation
        self.peer = peer
        framer = MessageFramer(maximumMessageSize: maximumRequestSize)
        lastActivity = now
    }

    var label: String { "client \(slot).\(generation) (uid \(peer.uid), pid \(peer.pid))" }
}

/// A Monitor call in progress: which devices and event types the client asked for.
struct MonitorSubscription {
    /// nil: every device.
    var devices: Set<String>?
    /// nil: every event type.
    var eventTypes: Set<EventType>?

    func wants(_ event: Event) -> Bool { wants(type: event.type, device: event.device) }

    func wants(type: EventType, device: String?) -> Bool {
        if let eventTypes, !eventTypes.contains(type) { return false }
        if let devices, let device, !devices.contains(device) { return false }
        return true
    }
}
