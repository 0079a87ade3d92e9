import PencilProtocol
import PencilSystem
import Varlink

/// Coalesced preference writes: per user, the value waiting to be written, the calls waiting
/// for it, and when the user last wrote.
struct PreferencesWrites {
    struct Pending {
        var value: Preferences
        var waiters: [Connection]
        var due: HostTime
    }

    private var pendingByUser: [UInt32: Pending] = [:]
    private var lastWrite: [UInt32: HostTime] = [:]

    func pending(of uid: UInt32) -> Preferences? { pendingByUser[uid]?.value }

    func mayWrite(uid: UInt32, now: HostTime, interval: Int64) -> Bool {
        guard let last = lastWrite[uid] else { return true }
        return now - last >= interval
    }

    func nextWrite(uid: UInt32, interval: Int64) -> HostTime {
        (lastWrite[uid] ?? HostTime(microseconds: 0)) + interval
    }

    mutating func wrote(uid: UInt32, at now: HostTime) {
        lastWrite[uid] = now
        // Users who have not written for a while need no entry.
        if lastWrite.count > 1024 { lastWrite = lastWrite.filter { now - $0.value < 1_000_000 } }
    }

    mutating func `defer`(_ value: Preferences, uid: UInt32, waiter: Connection?, due: HostTime) {
        var pending = pendingByUser[uid] ?? Pending(value: value, waiters: [], due: due)
        pending.value = value
        if let waiter { pending.waiters.append(waiter) }
        pendingByUser[uid] = pending
    }

    var nextDue: HostTime? { pendingByUser.values.lazy.map(\.due).min() }

    mutating func takeDue(now: HostTime) -> [(UInt32, Pending)] {
        let due = pendingByUser.filter { $0.value.due <= now }
        for uid in due.keys { pendingByUser[uid] = nil }
        return due.map { ($0.key, $0.value) }
    }

    /// A closed connection waits for nothing.
    mutating func forget(_ connection: Connection) {
        for uid in pendingByUser.keys {
            pendingByUser[uid]?.waiters.removeAll { $0 === connection }
        }
    }
}
