/// Plays chords one frame at a time, `interval` apart, and knows which keys are down, so
/// that whatever happens (a signal, the daemon going away, new bindings) every key it pressed
/// can be let go. Pure state: the caller sends the frames and arms a timer at `nextDeadline`.
public struct ChordPlayer: Sendable {
    /// Microseconds between two frames of a chord.
    public var interval: Int64
    /// Chords waiting behind the one playing; more are refused.
    public let maximumQueued: Int

    private var queue: [KeyChord] = []
    private var frames: [KeyFrame] = []
    private var index = 0
    /// Keys pressed and not yet released, in the order they went down.
    public private(set) var held: [UInt16] = []
    /// When the next frame is due (CLOCK_MONOTONIC µs); nil when there is nothing to play.
    public private(set) var nextDeadline: Int64?

    public init(interval: Int64 = 10_000, maximumQueued: Int = 8) {
        self.interval = interval
        self.maximumQueued = maximumQueued
    }

    /// Nothing playing, nothing waiting, nothing held.
    public var isIdle: Bool { nextDeadline == nil && held.isEmpty }

    /// Queues `chord`; its first frame is due at once when nothing else plays. False when the
    /// queue is full (the chord is dropped).
    public mutating func enqueue(_ chord: KeyChord, now: Int64) -> Bool {
        if nextDeadline == nil {
            frames = chord.frames
            index = 0
            nextDeadline = now
            return true
        }
        guard queue.count < maximumQueued else { return false }
        queue.append(chord)
        return true
    }

    /// The next frame when it is due at `now`, else nil. Call until nil.
    public mutating func next(now: Int64) -> KeyFrame? {
        guard let deadline = nextDeadline, deadline <= now, index < frames.count else { return nil }
        let frame = frames[index]
        index += 1
        if frame.down {
            held.append(frame.code)
        } else {
            held.removeAll { $0 == frame.code }
        }
        if index < frames.count {
            nextDeadline = now + interval
        } else if !queue.isEmpty {
            frames = queue.removeFirst().frames
            index = 0
            nextDeadline = now + interval
        } else {
            frames = []
            index = 0
            nextDeadline = nil
        }
        return frame
    }

    /// Stops playing: drops what waits and returns one release for each held key, the last
    /// pressed first.
    public mutating func releaseAll() -> [KeyFrame] {
        let releases = held.reversed().map { KeyFrame(code: $0, down: false) }
        held = []
        queue = []
        frames = []
        index = 0
        nextDeadline = nil
        return releases
    }
}
