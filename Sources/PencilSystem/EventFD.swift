#if canImport(Glibc)
import CLinux
import Glibc
#endif

/// An eventfd: one thread makes it readable (`signal`), the loop of another wakes on it and
/// reads it empty (`acknowledge`). Signals before the acknowledgement merge into one wake-up.
public final class EventFD: @unchecked Sendable {
    public let descriptor: FileDescriptor

    public init() throws(Errno) {
        let fd = try retryingOnInterrupt { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { descriptor.close() }

    public func signal() {
        var one: UInt64 = 1
        // EAGAIN only when the counter is near 2^64: it is readable then anyway.
        _ = withUnsafeBytes(of: &one) { Glibc.write(descriptor.rawValue, $0.baseAddress, 8) }
    }

    public func acknowledge() {
        var count: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &count) { Glibc.read(descriptor.rawValue, $0.baseAddress, 8) }
    }
}
