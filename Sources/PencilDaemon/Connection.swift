import PencilProtocol
import PencilSystem
import Varlink

/// One client connection: its credentials and its Monitor subscription, over the varlink
/// server's connection (framing, calls per turn, output bound, timeouts). The transport that
/// carries its bytes (the daemon's socket, or a test's in-memory pipe) keeps its own handle in
/// `descriptor`.
final class Connection: ServerConnection {
    /// Where it sits in the client table; reused once the connection is gone.
    let slot: Int
    /// Tells this connection from earlier ones in the same slot (the loop's token carries it).
    let generation: UInt16
    let peer: PeerCredentials
    /// Whether it reads every seat's pens, or only those of the seat its uid holds.
    let seesEverySeat: Bool
    /// The socket, for the daemon's own transport; nil elsewhere.
    var descriptor: FileDescriptor?
    /// The process that connected (a pidfd), once asked for (`pinnedProcess`), or pinned at
    /// accept on a kernel that keeps no socket's process; nil until then, and for an in-memory
    /// connection, which has no process.
    var process: PinnedProcess?
    /// Whether the transport tells the service when `process` exits (its focus claim).
    var processExitWatched = false
    // Read for every event on the stream's hot path, on the loop's one thread: no exclusivity
    // check in release builds (PenService's `clients` says why).
    #if DEBUG
    var monitor: MonitorFilter?
    #else
    @exclusivity(unchecked) var monitor: MonitorFilter?
    #endif
    /// Queued in the list of connections with output to send.
    var needsFlush = false
    /// What the daemon's epoll watches for on the socket now.
    var watchedEvents: Epoll.Events = .readable

    init(slot: Int, generation: UInt16, peer: PeerCredentials, seesEverySeat: Bool = true, limits: ServerConnection.Limits, now: HostTime) {
        self.slot = slot
        self.generation = generation
        self.peer = peer
        self.seesEverySeat = seesEverySeat
        super.init(limits: limits, now: now)
    }

    var label: String { "client \(slot).\(generation) (uid \(peer.uid), pid \(peer.pid))" }

    /// The process that connected, from the kernel's record of the socket; nil for an
    /// in-memory connection.
    func pinnedProcess() -> PinnedProcess? {
        if let process { return process }
        guard let descriptor else { return nil }
        process = PinnedProcess.peer(of: descriptor, pid: peer.pid)
        return process
    }

    /// Whether the process that connected still runs, so that its pid still names it. An
    /// in-memory connection has no process to ask.
    var processStillRuns: Bool { pinnedProcess()?.isRunning ?? true }
}
