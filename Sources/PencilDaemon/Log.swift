#if canImport(Glibc)
import Glibc
#endif
import PencilProtocol

/// Log levels with syslog's numbers: journald reads the `<N>` prefix of each stderr line.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case error = 3, warning = 4, notice = 5, info = 6, debug = 7

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    public init?(name: String) {
        switch name.lowercased() {
        case "error", "err": self = .error
        case "warning", "warn": self = .warning
        case "notice": self = .notice
        case "info": self = .info
        case "debug": self = .debug
        default: return nil
        }
    }
}

/// Writes one line per message to stderr, prefixed `<N>` for journald.
public struct Logger: Sendable {
    public var level: LogLevel
    /// Where lines go instead of stderr (tests).
    var sink: (@Sendable ([UInt8]) -> Void)?

    public init(level: LogLevel = .info) { self.level = level }

    init(level: LogLevel, sink: @escaping @Sendable ([UInt8]) -> Void) {
        self.level = level
        self.sink = sink
    }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level <= self.level else { return }
        // A message is one line whatever a client, a device or a file put into it: nothing from
        // outside can start a journal line of its own (with a forged `<0>` level) or act on
        // the terminal that shows the log (escapedForTerminal: C0, DEL, C1, bidi controls).
        var bytes = Array("<\(level.rawValue)>".utf8)
        bytes.append(contentsOf: message().escapedForTerminal.utf8)
        bytes.append(UInt8(ascii: "\n"))
        if let sink {
            sink(bytes)
            return
        }
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(2, raw.baseAddress! + offset, raw.count - offset)
                if written <= 0 { if written < 0 && errno == EINTR { continue }; return }
                offset += written
            }
        }
    }

    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
