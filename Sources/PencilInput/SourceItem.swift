import PencilTime

/// One thing a source hands out: an evdev event, or the news that the kernel dropped events
/// and the device's real state follows (live SYN_DROPPED, libevdev's sync mode).
public enum SourceItem: Equatable, Sendable {
    case event(InputEvent)
    /// Call `PenTracker.beginResynchronisation()`; the sync events that follow end with a
    /// SYN_REPORT.
    case resynchronisation
}
