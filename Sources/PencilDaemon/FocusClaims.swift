import PencilProtocol

/// Which process of each user has claimed the focus (docs/protocol.md, "Which app acts (focus)"),
/// and the focus each phased gesture in progress (a squeeze) began with.
///
/// A claim belongs to a process (uid and pid from SO_PEERCRED), whichever of its connections
/// made it; per user at most one process holds it, a later claim replaces an earlier one, and
/// it ends with `SetFocus(false)` or when the process's last connection closes.
struct FocusClaims {
    private var holders: [UInt32: Int32] = [:]
    /// The holder each phased gesture in progress began under (nil: nobody), by user, device
    /// and gesture, so that its phases never split between two apps.
    private var phasedGestures: [PhasedGestureKey: Int32?] = [:]

    private struct PhasedGestureKey: Hashable {
        var uid: UInt32
        var device: String
        var gesture: Gesture
    }

    func holder(of uid: UInt32) -> Int32? { holders[uid] }

    mutating func claim(uid: UInt32, pid: Int32) { holders[uid] = pid }

    /// `SetFocus(false)`, or the process's last connection closed: the claim ends if it is
    /// this process's.
    mutating func release(uid: UInt32, pid: Int32) {
        if holders[uid] == pid { holders[uid] = nil }
    }

    /// The holder a gesture event of `uid` is judged by: the claim now for a one-shot gesture
    /// (a double-tap) and a phased one (a squeeze) that begins, the one it began with for its
    /// later phases. nil: nobody.
    mutating func holder(for event: Event, of uid: UInt32) -> Int32? {
        guard let gesture = Gesture(event.type), gesture.isPhased, let device = event.device else { return holders[uid] }
        let key = PhasedGestureKey(uid: uid, device: device, gesture: gesture)
        switch event.phase {
        case .began?:
            // A subscriber's catch-up repeats the began of a squeeze already under way.
            if let kept = phasedGestures[key] { return kept }
            phasedGestures[key] = .some(holders[uid])
            return holders[uid]
        case .ended?, .cancelled?:
            let kept = phasedGestures.removeValue(forKey: key) ?? holders[uid]
            return kept
        default:
            return phasedGestures[key] ?? holders[uid]
        }
    }

    /// The user no longer monitors: their phased gestures in progress are gone with their recognisers.
    mutating func forgetPhasedGestures(of uid: UInt32) {
        phasedGestures = phasedGestures.filter { $0.key.uid != uid }
    }

    /// What a stream of process `pid` is told about a gesture judged by `holder`.
    static func focus(holder: Int32?, receiver pid: Int32) -> Focus {
        guard let holder else { return .none }
        return holder == pid ? .this : .other
    }
}
