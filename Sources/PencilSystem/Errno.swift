#if canImport(Glibc)
import Glibc
#endif

/// An errno value as a typed error, its common values named as swift-system names them: every system call pencild makes turns failure into one
/// of these, in the few files of this module, so nothing above sees a bare -1.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's current errno.
    public static var current: Errno { Errno(rawValue: errno) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    public static let noDevice = Errno(rawValue: ENODEV)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let noSuchFile = Errno(rawValue: ENOENT)
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    public static let noSpace = Errno(rawValue: ENOSPC)
    public static let addressInUse = Errno(rawValue: EADDRINUSE)
    public static let connectionRefused = Errno(rawValue: ECONNREFUSED)
    public static let invalidArgument = Errno(rawValue: EINVAL)
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    public static let tooManySymbolicLinkLevels = Errno(rawValue: ELOOP)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let noMemory = Errno(rawValue: ENOMEM)
    public static let ioError = Errno(rawValue: EIO)
    public static let fileNameTooLong = Errno(rawValue: ENAMETOOLONG)
    public static let connectionAbort = Errno(rawValue: ECONNABORTED)
    public static let outOfRange = Errno(rawValue: ERANGE)
    public static let inappropriateIOCTLForDevice = Errno(rawValue: ENOTTY)
    public static let noSuchProcess = Errno(rawValue: ESRCH)
    public static let protocolNotAvailable = Errno(rawValue: ENOPROTOOPT)

    public var description: String {
        guard let text = strerror(rawValue) else { return "errno \(rawValue)" }
        return String(cString: text)
    }
}

/// Runs a system call that returns -1 on failure, retrying on EINTR.
@inline(__always)
public func retryingOnInterrupt<T: FixedWidthInteger>(_ call: () -> T) throws(Errno) -> T {
    while true {
        let result = call()
        if result != -1 { return result }
        let error = Errno.current
        if error != .interrupted { throw error }
    }
}
