import PencilSystem
import Varlink

/// The connected clients, by slot. Slots are reused, with a generation that tells a new
/// connection from the one before it in the same slot, so identifiers stay small and the
/// loop's tokens can never run into another range however many clients come and go.
///
/// Limits follow systemd's varlink servers: a total, and a lower number per uid, so that one
/// user's clients cannot starve another's. Root has its own per-uid cap like everyone, and the
/// total keeps that many places for it (at most half of the total), and as many for users with
/// an active session on a local seat (at most half of the rest).
struct ClientTable {
    enum Admission: Equatable {
        case admitted
        /// Over `limit`; `perUser` when it is the uid's own cap.
        case full(limit: Int, perUser: Bool)
    }

    private(set) var slots: [Connection?] = []
    private var generations: [UInt16] = []
    private var free: [Int] = []
    private(set) var count = 0
    private var countByUID: [UInt32: Int] = [:]
    /// Connections per process (uid and pid): a focus claim ends with the last one.
    private var countByProcess: [ProcessKey: Int] = [:]

    struct ProcessKey: Hashable {
        var uid: UInt32
        var pid: Int32
    }

    var connections: some Sequence<Connection> { slots.lazy.compactMap { $0 } }
    var isEmpty: Bool { count == 0 }

    func connection(slot: Int, generation: UInt16) -> Connection? {
        guard slots.indices.contains(slot), let connection = slots[slot], connection.generation == generation else { return nil }
        return connection
    }

    /// Whether `peer` may have one more connection under `limits`. `isAtASeat` (asked only
    /// when it decides) tells whether the peer's user has an active session on a local seat.
    func admission(for peer: PeerCredentials, limits: Limits, isAtASeat: () -> Bool) -> Admission {
        let perUser = min(limits.maximumClientsPerUser, limits.maximumClients)
        if countByUID[peer.uid, default: 0] >= perUser { return .full(limit: perUser, perUser: true) }
        // Places are kept for root (its cap, at most half of the total), and then for users at
        // a seat (their cap, at most half of what is left), so that neither a user of the
        // access group nor anyone else can lock out the person at the seat.
        let others = count - countByUID[0, default: 0]
        let keptForRoot = min(perUser, limits.maximumClients / 2)
        let keptForSeats = min(perUser, (limits.maximumClients - keptForRoot) / 2)
        let full = Admission.full(limit: limits.maximumClients, perUser: false)
        if peer.uid == 0 { return count >= limits.maximumClients ? full : .admitted }
        if others >= limits.maximumClients - keptForRoot { return full }
        if others >= limits.maximumClients - keptForRoot - keptForSeats, !isAtASeat() { return full }
        return .admitted
    }

    mutating func insert(peer: PeerCredentials, seesEverySeat: Bool = true, limits: ServerConnection.Limits, now: HostTime) -> Connection {
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            generations[slot] &+= 1
        } else {
            slot = slots.count
            slots.append(nil)
            generations.append(0)
        }
        let connection = Connection(slot: slot, generation: generations[slot], peer: peer, seesEverySeat: seesEverySeat, limits: limits, now: now)
        slots[slot] = connection
        count += 1
        countByUID[peer.uid, default: 0] += 1
        countByProcess[ProcessKey(uid: peer.uid, pid: peer.pid), default: 0] += 1
        return connection
    }

    /// Removes the connection; true when it was its process's last.
    @discardableResult
    mutating func remove(_ connection: Connection) -> Bool {
        guard slots.indices.contains(connection.slot), slots[connection.slot] === connection else { return false }
        slots[connection.slot] = nil
        free.append(connection.slot)
        count -= 1
        let uid = connection.peer.uid
        countByUID[uid, default: 1] -= 1
        if countByUID[uid] == 0 { countByUID[uid] = nil }
        let key = ProcessKey(uid: uid, pid: connection.peer.pid)
        countByProcess[key, default: 1] -= 1
        guard countByProcess[key] == 0 else { return false }
        countByProcess[key] = nil
        return true
    }

}
