import PencilDevices
import PencilProtocol

/// A mistake in actions.conf: the file, the line and what is wrong.
public struct ActionsConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    /// 0 when the mistake is about the whole file (too large, unreadable).
    public var line: Int
    public var message: String

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}
