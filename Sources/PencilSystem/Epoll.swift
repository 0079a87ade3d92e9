#if canImport(Glibc)
import CLinux
import Glibc
#endif

/// An epoll instance. Each registered descriptor carries a 64-bit token chosen by the owner;
/// `wait` hands back tokens, never descriptors, so a closed and reused descriptor number cannot
/// be mistaken for the old one.
public final class Epoll {
    public let descriptor: FileDescriptor
    private var readyEvents: [epoll_event]

    public struct Events: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let readable = Events(rawValue: EPOLLIN.rawValue)
        public static let writable = Events(rawValue: EPOLLOUT.rawValue)
        public static let error = Events(rawValue: EPOLLERR.rawValue)
        public static let hangUp = Events(rawValue: EPOLLHUP.rawValue)
        public static let peerClosedWriting = Events(rawValue: EPOLLRDHUP.rawValue)
    }

    public init(capacity: Int = 64) throws(Errno) {
        let fd = try retryingOnInterrupt { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        descriptor = FileDescriptor(rawValue: fd)
        readyEvents = Array(repeating: epoll_event(), count: max(capacity, 1))
    }

    deinit { descriptor.close() }

    public func add(_ fd: FileDescriptor, events: Events, token: UInt64) throws(Errno) {
        try control(EPOLL_CTL_ADD, fd, events: events, token: token)
    }

    public func modify(_ fd: FileDescriptor, events: Events, token: UInt64) throws(Errno) {
        try control(EPOLL_CTL_MOD, fd, events: events, token: token)
    }

    /// Stops watching `fd`. Closing a descriptor removes it too; this is for descriptors that stay open.
    public func remove(_ fd: FileDescriptor) {
        var event = epoll_event()
        _ = epoll_ctl(descriptor.rawValue, EPOLL_CTL_DEL, fd.rawValue, &event)
    }

    private func control(_ operation: Int32, _ fd: FileDescriptor, events: Events, token: UInt64) throws(Errno) {
        var event = epoll_event()
        event.events = events.rawValue
        event.data.u64 = token
        _ = try retryingOnInterrupt { epoll_ctl(descriptor.rawValue, operation, fd.rawValue, &event) }
    }

    /// Waits until a descriptor is ready or `timeoutMilliseconds` pass (-1: forever) and calls
    /// `body` once per ready descriptor. EINTR returns with no events.
    public func wait(timeoutMilliseconds: Int32, _ body: (UInt64, Events) -> Void) throws(Errno) {
        let capacity = Int32(readyEvents.count)
        let count = readyEvents.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(descriptor.rawValue, buffer.baseAddress, capacity, timeoutMilliseconds)
        }
        if count < 0 {
            let error = Errno.current
            if error == .interrupted { return }
            throw error
        }
        for index in 0..<Int(count) {
            let event = readyEvents[index]
            body(event.data.u64, Events(rawValue: event.events))
        }
    }
}
