import PencilTime

/// What a source has left after a read.
public enum SourceStatus: Equatable, Sendable {
    /// Nothing more for now: wait until the descriptor is readable (live) or until
    /// `nextDueTime` (replay).
    case drained
    /// The read stopped at its limit with more at hand: read again soon, after other work.
    case more
    /// The source has ended (the end of a recording): close the device with
    /// `PenTracker.remove(into:)`.
    case finished
}
