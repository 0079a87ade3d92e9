// The shortest useful pencild client: claim the user's focus, then print every double-tap
// and squeeze with the action the user chose for it. By default an event sequence outlives
// daemon restarts; this one ends when the daemon goes away (onDisconnect: .throw).
import PencilClient

let client = PencilClient()
do {
    try await client.setFocused(true)
} catch {
    print("no focus claim:", error)
}
do {
    for try await event in client.events(types: [.doubleTap, .squeeze], onDisconnect: .throw)
    where event.focus != .other {
        switch (event.type, event.phase) {
        case (.doubleTap, _): print("double-tap: \(event.action ?? .ignore)")
        case (.squeeze, .ended?): print("squeeze: \(event.action ?? .ignore)")
        case (.squeeze, .cancelled?): print("squeeze cancelled")
        default: break
        }
    }
} catch {
    print("pencild:", error)
}
