import PencilProtocol
import PencilSystem
import Varlink

/// Bounds on what clients may use. Every one is configurable (`[Limits]` in the config file).
public struct Limits: Equatable, Sendable {
    /// Clients connected at once; more are answered with TooManyClients and closed. Everyone
    /// but root shares what is left after `maximumClientsPerUser` places kept for root.
    public var maximumClients = 128
    /// Clients of one uid connected at once (root included).
    public var maximumClientsPerUser = 32
    /// Microseconds a connection that does not stream may stay silent before it is closed.
    public var idleTimeout: Int64 = 180_000_000
    /// Longest request, in bytes; a longer one closes the connection.
    public var maximumRequestSize = 64 * 1024
    /// Requests read from one client whose replies are not yet written; past it the daemon stops
    /// reading from that client until it reads its replies.
    public var maximumQueuedRequests = 16
    /// Output waiting for one client. A client with more than half of it waiting is behind:
    /// replays at full speed wait for it, and it is disconnected when it stays behind for
    /// `lagTimeout`. Past the whole of it, its motion is coalesced; at four times it, it is
    /// disconnected at once.
    public var outputBufferSize = 256 * 1024
    /// Microseconds a client may stay behind (more than half its output bound waiting).
    public var lagTimeout: Int64 = 2_000_000
    /// Microseconds a client may take to finish a message it has started.
    public var requestTimeout: Int64 = 5_000_000
    /// Microseconds to stop accepting after the daemon ran out of descriptors.
    public var acceptBackoff: Int64 = 250_000
    /// New clients accepted per turn of the loop: a connect flood waits in the kernel's
    /// backlog, never in front of the pens and the clients already served.
    public var acceptsPerTurn = 16

    public init() {}

    /// What each client's connection is held to.
    var connection: ServerConnection.Limits {
        ServerConnection.Limits(maximumRequestSize: maximumRequestSize, maximumQueuedRequests: maximumQueuedRequests,
                                outputBufferSize: outputBufferSize, requestTimeout: requestTimeout,
                                lagTimeout: lagTimeout, idleTimeout: idleTimeout)
    }
}
