import PencilProtocol

/// Which process of each user has claimed the focus (docs/protocol.md, "Which app acts (focus)"),
/// and the focus each squeeze in progress began with.
///
/// A claim belongs to a process (uid and pid from SO_PEERCRED), whichever of its connections
/// made it; per user at most one process holds it, a later claim replaces an earlier one, and
/// it ends with `SetFocus(false)` or when the process's last connection closes.
struct FocusClaims {
    private var holders: [UInt32: Int32] = [:]
    /// The holder each squeeze in progress began under (nil: nobody), by user and device, so
    /// that its phases never split between two apps.
    private var squeezes: [SqueezeKey: Int32?] = [:]

    private struct SqueezeKey: Hashable {
        var uid: UInt32
        var device: String
    }

    func holder(of uid: UInt32) -> Int32? { holders[uid] }

    mutating func claim(uid: UInt32, pid: Int32) { holders[uid] = pid }

    /// `SetFocus(false)`, or the process's last connection closed: the claim ends if it is
    /// this process's.
    mutating func release(uid: UInt32, pid: Int32) {
        if holders[uid] == pid { holders[uid] = nil }
    }

    /// The holder a gesture event of `uid` is judged by: the claim now for a double-tap and a
    /// squeeze that begins, the one it began with for its later phases. nil: nobody.
    mutating func holder(for event: Event, of uid: UInt32) -> Int32? {
        guard event.type == .squeeze, let device = event.device else { return holders[uid] }
        let key = SqueezeKey(uid: uid, device: device)
        switch event.phase {
        case .began?:
            // A subscriber's catch-up repeats the began of a squeeze already under way.
            if let kept = squeezes[key] { return kept }
            squeezes[key] = .some(holders[uid])
            return holders[uid]
        case .ended?, .cancelled?:
            let kept = squeezes.removeValue(forKey: key) ?? holders[uid]
            return kept
        default:
            return squeezes[key] ?? holders[uid]
        }
    }

    /// The user no longer monitors: their squeezes in progress are gone with their recognisers.
    mutating func forgetSqueezes(of uid: UInt32) {
        squeezes = squeezes.filter { $0.key.uid != uid }
    }

    /// What a stream of process `pid` is told about a gesture judged by `holder`.
    static func focus(holder: Int32?, receiver pid: Int32) -> Focus {
        guard let holder else { return .none }
        return holder == pid ? .this : .other
    }
}
