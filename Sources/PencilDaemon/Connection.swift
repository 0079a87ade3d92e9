import PencilProtocol
import PencilSystem
import Varlink

/// One client connection: its credentials, what it has sent, what it has yet to receive,
/// and its Monitor subscription.
final class Connection {
    let id: Int
    let descriptor: FileDescriptor
    let peer: PeerCredentials
    /// Why this client may not use the interface; it gets PermissionDenied and is closed.
    let refusal: String?
    var framer: MessageFramer
    var output = OutputBuffer()
    var monitor: MonitorSubscription?
    /// The epoll interest registered now.
    var interest: Epoll.Events = .readable
    /// When the message in progress started arriving (for the request timeout).
    var partialSince: Int64?
    /// When the output went over its bound.
    var laggingSince: Int64?
    /// Close once the output is sent (after a final error), reading nothing more.
    var closeAfterFlush = false
    /// Set once closed; the daemon drops it from its tables.
    var closed = false
    /// Queued in the daemon's list of connections with output to send.
    var needsFlush = false

    init(id: Int, descriptor: FileDescriptor, peer: PeerCredentials, refusal: String?, maximumRequestSize: Int) {
        self.id = id
        self.descriptor = descriptor
        self.peer = peer
        self.refusal = refusal
        framer = MessageFramer(maximumMessageSize: maximumRequestSize)
    }

    var label: String { "client \(id) (uid \(peer.uid), pid \(peer.pid))" }
}

/// A Monitor call in progress: which devices and event types the client asked for.
struct MonitorSubscription {
    /// nil: every device.
    var devices: Set<String>?
    /// nil: every event type.
    var eventTypes: Set<EventType>?

    func wants(_ event: Event) -> Bool {
        if let eventTypes, !eventTypes.contains(event.type) { return false }
        if let devices, let device = event.device, !devices.contains(device) { return false }
        return true
    }
}
