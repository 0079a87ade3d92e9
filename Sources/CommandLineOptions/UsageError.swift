/// A mistake in a command line, in words for the person who typed it: every executable reports
/// it with its usage line and exits 64 (EX_USAGE).
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
