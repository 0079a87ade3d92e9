import Dispatch
import PencilProtocol
import Synchronization
import Varlink

/// The pauses between attempts to reach a daemon that went away: from `initial`
/// milliseconds, doubling up to `maximum`. Nothing tells a client when a socket comes back,
/// so it has to try; the doubling keeps a long absence cheap, the cap keeps the return quick.
public struct ReconnectBackoff: Sendable, Equatable {
    public var initial: Int
    public var maximum: Int
    private var current: Int

    public init(initialMilliseconds: Int = 50, maximumMilliseconds: Int = 2_000) {
        initial = max(1, initialMilliseconds)
        maximum = max(initial, maximumMilliseconds)
        current = initial
    }

    /// The next pause, in milliseconds.
    public mutating func next() -> Int {
        let pause = current
        current = min(maximum, current * 2)
        return pause
    }

    public mutating func reset() { current = initial }
}
