#if canImport(Glibc)
import CLinux
import Glibc
#endif

/// An inotify instance watching directories for changes to the names in them: a loop waits on
/// its descriptor (epoll) and learns which names changed, with no polling.
public final class Inotify {
    public let descriptor: FileDescriptor
    private var buffer = [UInt8](repeating: 0, count: 16 * 1024)

    /// What to be told about. Only the kinds pencild's clients use.
    public struct Mask: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let closeWrite = Mask(rawValue: UInt32(IN_CLOSE_WRITE))
        public static let movedTo = Mask(rawValue: UInt32(IN_MOVED_TO))
        public static let movedFrom = Mask(rawValue: UInt32(IN_MOVED_FROM))
        public static let create = Mask(rawValue: UInt32(IN_CREATE))
        public static let delete = Mask(rawValue: UInt32(IN_DELETE))
        public static let deleteSelf = Mask(rawValue: UInt32(IN_DELETE_SELF))
        public static let moveSelf = Mask(rawValue: UInt32(IN_MOVE_SELF))
        /// The kernel's own: the watch is gone (its directory was removed).
        public static let ignored = Mask(rawValue: UInt32(IN_IGNORED))
        /// The kernel's own: the event queue overflowed; anything may have changed.
        public static let overflow = Mask(rawValue: UInt32(IN_Q_OVERFLOW))
    }

    public struct Change: Equatable, Sendable {
        public var watch: Int32
        public var mask: Mask
        /// The name inside the watched directory; empty for the directory itself.
        public var name: String

        public static func == (a: Change, b: Change) -> Bool {
            a.watch == b.watch && a.mask.rawValue == b.mask.rawValue && a.name == b.name
        }
    }

    public init() throws(Errno) {
        let fd = try retryingOnInterrupt { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit { descriptor.close() }

    /// Starts watching `path`; returns the watch's number.
    @discardableResult
    public func watch(_ path: String, for mask: Mask) throws(Errno) -> Int32 {
        try retryingOnInterrupt { inotify_add_watch(descriptor.rawValue, path, mask.rawValue) }
    }

    public func removeWatch(_ watch: Int32) {
        _ = inotify_rm_watch(descriptor.rawValue, watch)
    }

    /// Reads every change queued now (none when nothing is queued).
    public func readChanges() throws(Errno) -> [Change] {
        var changes: [Change] = []
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { raw in
                    Result { () throws(Errno) -> Int in try descriptor.read(into: raw) }
                }.get()
            } catch {
                if error == .wouldBlock { return changes }
                throw error
            }
            if count <= 0 { return changes }
            buffer.withUnsafeBytes { raw in
                let header = MemoryLayout<inotify_event>.size
                var offset = 0
                // The kernel writes whole events only: each header is followed by `len` bytes of name.
                while offset + header <= count {
                    let watch = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameStart = offset + header
                    let nameEnd = min(nameStart + length, count)
                    var name = ""
                    if nameEnd > nameStart {
                        let bytes = raw[nameStart..<nameEnd]
                        let used = bytes.firstIndex(of: 0) ?? nameEnd
                        name = String(decoding: raw[nameStart..<used], as: UTF8.self)
                    }
                    changes.append(Change(watch: watch, mask: Mask(rawValue: mask), name: name))
                    offset = nameStart + length
                }
            }
        }
    }
}
