#if canImport(Glibc)
import Glibc
#endif

/// An open file descriptor. A plain value: the owner closes it exactly once.
public struct FileDescriptor: Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public struct OpenOptions: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let readOnly = OpenOptions(rawValue: O_RDONLY)
        public static let writeOnly = OpenOptions(rawValue: O_WRONLY)
        public static let readWrite = OpenOptions(rawValue: O_RDWR)
        public static let create = OpenOptions(rawValue: O_CREAT)
        public static let truncate = OpenOptions(rawValue: O_TRUNC)
        public static let exclusive = OpenOptions(rawValue: O_EXCL)
        public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
        public static let closeOnExec = OpenOptions(rawValue: O_CLOEXEC)
        public static let directory = OpenOptions(rawValue: O_DIRECTORY)
        public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
    }

    public static func open(_ path: String, _ options: OpenOptions, permissions: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        let fd = try retryingOnInterrupt { Glibc.open(path, options.rawValue, permissions) }
        return FileDescriptor(rawValue: fd)
    }

    public func close() {
        // Linux closes the descriptor even when close() reports EINTR: never retry.
        _ = Glibc.close(rawValue)
    }

    /// Reads up to `buffer.count` bytes; 0 means end of file.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes some of `buffer`; returns how much was written.
    public func write(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.write(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `bytes`, for blocking descriptors (files).
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(Errno) -> Int in try write(UnsafeRawBufferPointer(rebasing: raw[offset...])) }
            }
            offset += try result.get()
        }
    }

    public func sync() throws(Errno) {
        _ = try retryingOnInterrupt { fsync(rawValue) }
    }

    /// Sets O_NONBLOCK, or clears it (`false`: the end of a pipe a child reads or writes as a
    /// plain file).
    public func setNonBlocking(_ enabled: Bool = true) throws(Errno) {
        let flags = try retryingOnInterrupt { fcntl(rawValue, F_GETFL) }
        _ = try retryingOnInterrupt { fcntl(rawValue, F_SETFL, enabled ? flags | O_NONBLOCK : flags & ~O_NONBLOCK) }
    }

    /// A pipe: (read end, write end), both non-blocking and close-on-exec.
    public static func makePipe() throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        _ = try retryingOnInterrupt { pipe(&ends) }
        let pair = (read: FileDescriptor(rawValue: ends[0]), write: FileDescriptor(rawValue: ends[1]))
        do throws(Errno) {
            for end in [pair.read, pair.write] {
                try end.setNonBlocking()
                try end.setCloseOnExec()
            }
        } catch {
            pair.read.close()
            pair.write.close()
            throw error
        }
        return pair
    }

    public func setCloseOnExec() throws(Errno) {
        let flags = try retryingOnInterrupt { fcntl(rawValue, F_GETFD) }
        _ = try retryingOnInterrupt { fcntl(rawValue, F_SETFD, flags | FD_CLOEXEC) }
    }
}
