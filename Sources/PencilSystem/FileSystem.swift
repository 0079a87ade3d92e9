#if canImport(Glibc)
import Glibc
#endif

/// What stat says about a path, as far as pencild cares.
public struct FileStatus: Sendable, Equatable {

    public var isSocket: Bool
    public var isDirectory: Bool
    public var isRegularFile: Bool
    public var owner: UInt32
    public var group: UInt32
    public var permissions: UInt32
    public var size: Int64
}

extension FileStatus {
    init(_ info: stat) {
        let type = info.st_mode & S_IFMT
        self.init(isSocket: type == S_IFSOCK, isDirectory: type == S_IFDIR, isRegularFile: type == S_IFREG,
                  owner: info.st_uid, group: info.st_gid, permissions: info.st_mode & 0o7777, size: Int64(info.st_size))
    }
}

/// The few file operations pencild needs: directories, bounded reads, atomic replacement.
public enum FileSystem {
    /// lstat: the path itself, not what a symbolic link points to. nil when it does not exist.
    public static func status(of path: String) throws(Errno) -> FileStatus? {
        var info = stat()
        if lstat(path, &info) != 0 {
            let error = Errno.current
            if error == .noSuchFile { return nil }
            throw error
        }
        return FileStatus(info)
    }

    /// fstat: what an open descriptor is.
    public static func status(of fd: FileDescriptor) throws(Errno) -> FileStatus {
        var info = stat()
        _ = try retryingOnInterrupt { fstat(fd.rawValue, &info) }
        return FileStatus(info)
    }

    /// The whole of the regular file at `path`, at most `maximumBytes`; nil when `path` is
    /// something else (a FIFO, a device, a folder), which is opened without blocking and
    /// never read, so that naming one cannot hold the caller up.
    public static func readRegularFile(_ path: String, maximumBytes: Int) throws(Errno) -> [UInt8]? {
        let fd = try FileDescriptor.open(path, [.readOnly, .closeOnExec, .nonBlocking])
        defer { fd.close() }
        guard try status(of: fd).isRegularFile else { return nil }
        return try read(fd, maximumBytes: maximumBytes)
    }

    /// Creates `path` and its missing parents with `permissions` exactly, whatever the umask;
    /// existing directories are kept as they are.
    public static func createDirectories(_ path: String, permissions: mode_t = 0o755) throws(Errno) {
        guard !path.isEmpty else { return }
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, permissions) != 0 {
                let error = Errno.current
                if error == .fileExists { continue }
                throw error
            }
            _ = try retryingOnInterrupt { chmod(prefix, permissions) }
        }
    }

    /// A file that is not what its reader expects (`readPrivateFile`).
    public static let notARegularFile = Errno(rawValue: EINVAL)
    public static let notOwned = Errno(rawValue: EPERM)

    /// Like `readFile`, for a file only `owner` writes (state): a symbolic link (ELOOP), anything
    /// but a regular file (a FIFO would block the reader: EINVAL) or a file of another owner
    /// (EPERM) is refused without reading it.
    public static func readPrivateFile(_ path: String, maximumBytes: Int, owner: UInt32) throws(Errno) -> [UInt8] {
        let fd = try FileDescriptor.open(path, [.readOnly, .noFollow, .nonBlocking, .closeOnExec])
        defer { fd.close() }
        var info = stat()
        _ = try retryingOnInterrupt { fstat(fd.rawValue, &info) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw notARegularFile }
        guard info.st_uid == owner else { throw notOwned }
        return try read(fd, maximumBytes: maximumBytes)
    }

    /// The whole file, refusing files larger than `maximumBytes` (EFBIG).
    public static func readFile(_ path: String, maximumBytes: Int) throws(Errno) -> [UInt8] {
        let fd = try FileDescriptor.open(path, [.readOnly, .closeOnExec])
        defer { fd.close() }
        return try read(fd, maximumBytes: maximumBytes)
    }

    /// Everything left to read from `fd`; more than `maximumBytes` is EFBIG. Reads straight
    /// into uninitialised room: a regular file's size (fstat) sizes it at once, so a recording
    /// is read by one read and never copied; a pipe or a file that grew meanwhile gets room that
    /// doubles. The byte beyond the size is how the end is seen.
    public static func read(_ fd: FileDescriptor, maximumBytes: Int) throws(Errno) -> [UInt8] {
        let limit = maximumBytes < Int.max ? maximumBytes + 1 : Int.max
        let size = (try? status(of: fd)).map { Int(clamping: $0.size) } ?? 0
        var capacity = min(size > 0 ? size + 1 : 16 * 1024, limit)
        var result: [UInt8] = []
        while true {
            var failure: Errno?
            var ended = false
            let previous = result
            result = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                let room = UnsafeMutableRawBufferPointer(buffer)
                previous.withUnsafeBytes { room.copyMemory(from: $0) }
                count = previous.count
                while count < room.count {
                    do throws(Errno) {
                        let read = try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: room[count...]))
                        if read == 0 { ended = true; return }
                        count += read
                    } catch {
                        failure = error
                        return
                    }
                }
            }
            if let failure { throw failure }
            if result.count > maximumBytes { throw .fileTooLarge }
            if ended { return result }
            capacity = capacity > limit / 2 ? limit : capacity * 2
        }
    }

    /// How far a replacement got: the rename is what makes the new content the file's.
    public enum Replacement: Equatable, Sendable {
        /// Written, renamed and the directory synced: durable.
        case durable
        /// Renamed (the new content is the file's), but the directory's fsync failed: a crash
        /// now may bring back the old file.
        case renamedNotSynced(Errno)
    }

    /// Replaces `path` with `bytes` so that a crash leaves either the old or the new file: a
    /// new temporary file in the same directory (O_EXCL, never a file someone placed there),
    /// with `permissions` exactly, fsync, rename over the old one, fsync the directory.
    @discardableResult
    public static func writeAtomically(_ path: String, _ bytes: [UInt8], permissions: mode_t = 0o644) throws(Errno) -> Replacement {
        let directory = directoryName(of: path)
        var temporary = ""
        var created: FileDescriptor?
        for attempt in 0..<16 {
            temporary = "\(directory)/.\(baseName(of: path)).\(getpid()).\(attempt).tmp"
            do {
                created = try FileDescriptor.open(temporary, [.writeOnly, .create, .exclusive, .noFollow, .closeOnExec], permissions: permissions)
                break
            } catch {
                guard error == .fileExists else { throw error }
            }
        }
        guard let fd = created else { throw .fileExists }
        do throws(Errno) {
            _ = try retryingOnInterrupt { fchmod(fd.rawValue, permissions) }
            try fd.writeAll(bytes)
            try fd.sync()
            fd.close()
        } catch {
            fd.close()
            _ = unlink(temporary)
            throw error
        }
        if Glibc.rename(temporary, path) != 0 {
            let error = Errno.current
            _ = unlink(temporary)
            throw error
        }
        do throws(Errno) {
            let directoryFD = try FileDescriptor.open(directory, [.readOnly, .directory, .closeOnExec])
            defer { directoryFD.close() }
            try directoryFD.sync()
        } catch {
            return .renamedNotSynced(error)
        }
        return .durable
    }

    /// Moves `path` to `target`, or to `target-1`, `target-2`, ... when that exists: never over
    /// another file (a hard link, then the old name removed).
    public static func moveAside(_ path: String, to target: String) throws(Errno) -> String {
        for attempt in 0..<100 {
            let candidate = attempt == 0 ? target : "\(target)-\(attempt)"
            if link(path, candidate) == 0 {
                try remove(path)
                return candidate
            }
            let error = Errno.current
            guard error == .fileExists else { throw error }
        }
        throw .fileExists
    }

    public static func setPermissions(_ path: String, _ permissions: mode_t) throws(Errno) {
        _ = try retryingOnInterrupt { chmod(path, permissions) }
    }

    public static func rename(_ from: String, to: String) throws(Errno) {
        _ = try retryingOnInterrupt { Glibc.rename(from, to) }
    }

    /// Removes a file; a missing file is not an error.
    public static func remove(_ path: String) throws(Errno) {
        if unlink(path) != 0 {
            let error = Errno.current
            if error != .noSuchFile { throw error }
        }
    }

    public static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    public static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
