import PencilProtocol
import PencilSystem
import Varlink

/// What carries the service's clients: the daemon's sockets and epoll loop, or a test's
/// in-memory pipes. The service decides; the transport moves bytes.
protocol ClientTransport: AnyObject {
    /// `connection` has output to send (`connection.output`); call `PenService.didSend` after.
    func outputPending(_ connection: Connection)
    /// `connection.reading` changed: read from the client, or stop until it changes back.
    func readingChanged(_ connection: Connection)
    /// The service is done with `connection`: release what carries it.
    func closed(_ connection: Connection)
    /// Call `PenService.processExited` once the process that opened `connection` has exited
    /// (its focus claim ends with it, whoever keeps the connection open).
    func watchExit(of connection: Connection)
}
