import PencilSystem

/// A desktop's own focus notifications, read in pencil-actions' one event loop: its
/// descriptor is waited on with the rest, and read only when the desktop wrote to it.
public protocol FocusProvider: AnyObject {
    /// "x11", "wlroots", "kde", "gnome" or "none".
    var name: String { get }
    /// What to wait on (nil: nothing, the provider is finished or never started).
    var descriptor: FileDescriptor? { get }
    var state: FocusState { get }
    /// What to wait for on `descriptor`.
    var awaitedEvents: Epoll.Events { get }
    /// When `handleEvents` is due although the descriptor says nothing (CLOCK_MONOTONIC µs; at
    /// once when past), nil: only when it does.
    var deadline: Int64? { get }
    /// Handles what the desktop sent, bounded per call: the loop calls it when the descriptor
    /// is ready and at the deadline. A provider whose connection failed or closed says so in
    /// `state` (`unavailable`) and gives up its descriptor.
    func handleEvents()
    /// Writes what is queued for the desktop before the loop sleeps, without waiting (Wayland).
    func flush()
    func close()
}

extension FocusProvider {
    public var awaitedEvents: Epoll.Events { .readable }
    public var deadline: Int64? { nil }
    public func flush() {}
}
