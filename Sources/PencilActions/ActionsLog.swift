import PencilClient
import PencilProtocol
import PencilSystem
import Varlink
#if canImport(Glibc)
import Glibc
#endif

/// pencil-actions' log: one line per message on stderr, with journald's `<N>` priority prefix.
/// A message often holds the daemon's text (an error's parameters, a device id): its control
/// characters are escaped, so that a newline and `<0>` in it cannot start a line of its own.
public struct ActionsLog: Sendable {
    public var verbose: Bool
    public init(verbose: Bool) { self.verbose = verbose }

    /// The line written for a message at `priority`.
    public static func line(priority: Int, _ text: String) -> String { "<\(priority)>\(text.escapedForTerminal)\n" }

    public func error(_ text: String) { write(3, text) }
    public func warning(_ text: String) { write(4, text) }
    public func notice(_ text: String) { write(5, text) }
    public func info(_ text: String) { write(6, text) }
    public func debug(_ text: String) { if verbose { write(7, text) } }

    private func write(_ priority: Int, _ text: String) {
        try? FileDescriptor(rawValue: 2).writeAll(Array(Self.line(priority: priority, text).utf8))
    }
}
