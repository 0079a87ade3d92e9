#if canImport(Glibc)
import Glibc
#endif

/// The terminal on a descriptor: its size, and a mode that hands over each key at once
/// without echoing it (for full-screen views such as `pencilctl watch`).
public enum Terminal {
    public struct Size: Equatable, Sendable {
        public var rows: Int
        public var columns: Int
        public init(rows: Int, columns: Int) {
            self.rows = rows
            self.columns = columns
        }
    }

    public static func isTerminal(_ fd: FileDescriptor) -> Bool { isatty(fd.rawValue) == 1 }

    /// The window size; nil when `fd` is not a terminal or the size is unknown (0×0).
    public static func size(of fd: FileDescriptor) -> Size? {
        var size = winsize()
        guard ioctl(fd.rawValue, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else { return nil }
        return Size(rows: Int(size.ws_row), columns: Int(size.ws_col))
    }

    /// The settings a terminal had before `enterKeyMode`, to hand back to `restore`.
    public struct SavedMode: Sendable {
        fileprivate var settings: termios
    }

    /// Keys arrive one by one and are not echoed; signals (Ctrl-C) still work.
    public static func enterKeyMode(_ fd: FileDescriptor) throws(Errno) -> SavedMode {
        var settings = termios()
        guard tcgetattr(fd.rawValue, &settings) == 0 else { throw Errno.current }
        let saved = SavedMode(settings: settings)
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(fd.rawValue, TCSANOW, &settings) == 0 else { throw Errno.current }
        return saved
    }

    public static func restore(_ fd: FileDescriptor, _ mode: SavedMode) {
        var settings = mode.settings
        _ = tcsetattr(fd.rawValue, TCSANOW, &settings)
    }
}
