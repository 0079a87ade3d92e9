import PencilSystem

/// What watches the devices' descriptors for the hub: the daemon's epoll loop, which calls
/// `DeviceHub.handleReadable(token:now:)` with the token when one is readable; a test's own.
/// The hub asks it directly, so that a device's events go one way: loop, hub, service, clients.
protocol DeviceWatcher: AnyObject {
    /// Watch `descriptor` for readability, reported with `deviceToken`.
    func watch(_ descriptor: FileDescriptor, deviceToken: UInt64) throws(Errno)
    /// Stop watching `descriptor` (before the hub closes it).
    func stopWatching(_ descriptor: FileDescriptor)
}
