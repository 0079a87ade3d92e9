#if canImport(Glibc)
import CLinux
import Glibc
#endif

/// Who is at the other end of a Unix socket, as the kernel recorded it at connect time.
public struct PeerCredentials: Equatable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// The peer's supplementary groups (SO_PEERGROUPS), as the kernel recorded them at connect.
    public var groups: [UInt32]

    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }
}

/// AF_UNIX stream and datagram sockets: the daemon's listener and clients, and small blocking
/// clients for tools and tests.
public enum UnixSocket {
    /// The longest path sockaddr_un holds, without its terminating NUL.
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Calls `body` with a sockaddr_un for `path`; a leading "@" names the abstract namespace.
    static func withAddress<T>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) throws(Errno) -> T {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        guard !bytes.isEmpty, bytes.count <= maximumPathLength else { throw .fileNameTooLong }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path) ?? 2
        let length = socklen_t(pathOffset + bytes.count + (abstract ? 0 : 1))
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    private static func makeSocket(_ type: Int32, nonBlocking: Bool) throws(Errno) -> FileDescriptor {
        var flags = type | Int32(SOCK_CLOEXEC.rawValue)
        if nonBlocking { flags |= Int32(SOCK_NONBLOCK.rawValue) }
        return FileDescriptor(rawValue: try retryingOnInterrupt { socket(AF_UNIX, flags, 0) })
    }

    /// A non-blocking listening stream socket bound at `path`. The caller removes stale files first.
    public static func listen(at path: String, backlog: Int32 = 128) throws(Errno) -> FileDescriptor {
        let fd = try makeSocket(Int32(SOCK_STREAM.rawValue), nonBlocking: true)
        do throws(Errno) {
            let result = try withAddress(path) { address, length in bind(fd.rawValue, address, length) }
            if result != 0 { throw Errno.current }
            _ = try retryingOnInterrupt { Glibc.listen(fd.rawValue, backlog) }
        } catch {
            fd.close()
            throw error
        }
        return fd
    }

    /// Accepts one connection as a non-blocking descriptor, or nil when none is waiting.
    public static func accept(from listener: FileDescriptor) throws(Errno) -> FileDescriptor? {
        let flags = Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue)
        while true {
            let fd = accept4(listener.rawValue, nil, nil, flags)
            if fd >= 0 { return FileDescriptor(rawValue: fd) }
            let error = Errno.current
            switch error {
            case .interrupted: continue
            // The peer gave up before we accepted: nothing to do, try the next one.
            case .wouldBlock, .connectionAbort: return error == .wouldBlock ? nil : try accept(from: listener)
            default: throw error
            }
        }
    }

    /// A blocking stream connection to `path`.
    /// `timeoutMilliseconds` (0: none) bounds the wait for room when the server's backlog is
    /// full (SO_SNDTIMEO, which a Unix socket's connect waits by): under a connect flood a
    /// blocking connect waits its turn, and a non-blocking one would fail at once.
    public static func connect(to path: String, timeoutMilliseconds: Int = 0) throws(Errno) -> FileDescriptor {
        let fd = try makeSocket(Int32(SOCK_STREAM.rawValue), nonBlocking: false)
        do throws(Errno) {
            if timeoutMilliseconds > 0 {
                var value = timeval(tv_sec: timeoutMilliseconds / 1_000, tv_usec: (timeoutMilliseconds % 1_000) * 1_000)
                _ = try retryingOnInterrupt { setsockopt(fd.rawValue, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size)) }
            }
            while true {
                let result = try withAddress(path) { address, length in Glibc.connect(fd.rawValue, address, length) }
                if result == 0 { break }
                let error = Errno.current
                if error != .interrupted { throw error }
            }
        } catch {
            fd.close()
            throw error
        }
        return fd
    }

    /// A datagram socket bound at `path` (tests use it to receive sd_notify messages).
    public static func bindDatagram(at path: String) throws(Errno) -> FileDescriptor {
        let fd = try makeSocket(Int32(SOCK_DGRAM.rawValue), nonBlocking: false)
        let result = try withAddress(path) { address, length in bind(fd.rawValue, address, length) }
        if result != 0 {
            let error = Errno.current
            fd.close()
            throw error
        }
        return fd
    }

    /// Sends one datagram to the socket at `path` from a fresh unbound socket.
    public static func sendDatagram(_ bytes: [UInt8], to path: String) throws(Errno) {
        let fd = try makeSocket(Int32(SOCK_DGRAM.rawValue), nonBlocking: false)
        defer { fd.close() }
        let sent = try withAddress(path) { address, length in
            bytes.withUnsafeBytes { sendto(fd.rawValue, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), address, length) }
        }
        if sent < 0 { throw Errno.current }
    }

    /// What the kernel recorded about the peer of a connected socket.
    public static func peerCredentials(of fd: FileDescriptor) throws(Errno) -> PeerCredentials {
        var credentials = pencild_ucred()
        var length = socklen_t(MemoryLayout<pencild_ucred>.size)
        _ = try retryingOnInterrupt { getsockopt(fd.rawValue, SOL_SOCKET, SO_PEERCRED, &credentials, &length) }
        // SO_PEERGROUPS (Linux 4.13): the kernel's list is the truth, an empty one included.
        // ERANGE says how large a buffer it needs: ask again with that.
        let peerGroups: Int32 = 59
        var groups = [gid_t](repeating: 0, count: 64)
        var known = 0
        for _ in 0..<4 {
            var groupsLength = socklen_t(groups.count * MemoryLayout<gid_t>.size)
            let result = groups.withUnsafeMutableBytes { getsockopt(fd.rawValue, SOL_SOCKET, peerGroups, $0.baseAddress, &groupsLength) }
            if result == 0 {
                known = Int(groupsLength) / MemoryLayout<gid_t>.size
                break
            }
            let error = Errno.current
            guard error == .outOfRange, Int(groupsLength) > groups.count * MemoryLayout<gid_t>.size else { throw error }
            groups = [gid_t](repeating: 0, count: Int(groupsLength) / MemoryLayout<gid_t>.size + 1)
        }
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, groups: Array(groups.prefix(known)))
    }

    /// Sends as much of `buffer` as the socket takes now, without SIGPIPE; throws `.wouldBlock`
    /// when it takes nothing.
    public static func send(_ fd: FileDescriptor, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { Glibc.send(fd.rawValue, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// Sends all of `bytes` without SIGPIPE, waiting for room when the socket has none (for
    /// clients: a call is small, and a daemon that reads nothing is not waited for forever by
    /// the caller's own timeout, if it has one).
    public static func sendAll(_ fd: FileDescriptor, _ bytes: [UInt8]) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(Errno) -> Int in try send(fd, UnsafeRawBufferPointer(rebasing: raw[offset...])) }
            }
            do {
                offset += try result.get()
            } catch {
                guard error == .wouldBlock else { throw error }
                waitUntilWritable(fd)
            }
        }
    }

    /// Receives up to `buffer.count` bytes; 0 means the peer closed.
    public static func receive(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retryingOnInterrupt { recv(fd.rawValue, buffer.baseAddress, buffer.count, 0) }
    }

    /// Blocks until `fd` can take more output (for blocking clients whose sends never block).
    public static func waitUntilWritable(_ fd: FileDescriptor) {
        var entry = pollfd(fd: fd.rawValue, events: Int16(POLLOUT), revents: 0)
        _ = poll(&entry, 1, -1)
    }

    /// Sets a receive timeout on a blocking socket (tools and tests never wait forever).
    public static func setReceiveTimeout(_ fd: FileDescriptor, milliseconds: Int) throws(Errno) {
        var value = timeval(tv_sec: milliseconds / 1_000, tv_usec: (milliseconds % 1_000) * 1_000)
        _ = try retryingOnInterrupt { setsockopt(fd.rawValue, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size)) }
    }

    /// Whether `fd` is a listening AF_UNIX stream socket (checked on sockets passed by systemd).
    public static func isListeningStreamSocket(_ fd: FileDescriptor) -> Bool {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd.rawValue, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) == 0, value == 1 else { return false }
        guard getsockopt(fd.rawValue, SOL_SOCKET, SO_TYPE, &value, &length) == 0, value == Int32(SOCK_STREAM.rawValue) else { return false }
        guard getsockopt(fd.rawValue, SOL_SOCKET, SO_DOMAIN, &value, &length) == 0, value == AF_UNIX else { return false }
        return true
    }

    /// The filesystem path a Unix socket is bound to, if any.
    public static func boundPath(of fd: FileDescriptor) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let result = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd.rawValue, $0, &length) }
        }
        guard result == 0 else { return nil }
        return withUnsafeBytes(of: &address.sun_path) { raw -> String? in
            guard let first = raw.first, first != 0 else { return nil }
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
