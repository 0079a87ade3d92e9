#if canImport(Glibc)
import Glibc
#endif
import PencilProtocol

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
