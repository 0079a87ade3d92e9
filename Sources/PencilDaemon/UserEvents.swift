import GestureRecognizer
import PencilInput
import PencilProtocol

/// Each frame's events, one list per user who monitors: the pen's own events with that user's
/// gestures at their places. Reused from frame to frame, so a warm device allocates nothing.
struct UserEvents {
    /// What the pen's mirror writes for the step, whole frames: written before anything else
    /// is done with the step (docs/gestures.md, "The mirror").
    var mirror: [InputEvent] = []
    private var uids: [UInt32] = []
    /// The lists, by the slot `slot(of:)` gives; slots past `count` are spare.
    var lists: [[Event]] = []
    private var count = 0

    /// The slot of `uid`'s list for this frame (made on first use).
    mutating func slot(of uid: UInt32) -> Int {
        if let found = uids[0..<count].firstIndex(of: uid) { return found }
        let index = count
        count += 1
        if index < uids.count {
            uids[index] = uid
        } else {
            uids.append(uid)
            lists.append([])
        }
        return index
    }

    /// Hands each user's non-empty list to `body`, then empties them all.
    mutating func drain(_ body: (UInt32, [Event]) -> Void) {
        for index in 0..<count where !lists[index].isEmpty {
            body(uids[index], lists[index])
            lists[index].removeAll(keepingCapacity: true)
        }
        count = 0
    }
}
