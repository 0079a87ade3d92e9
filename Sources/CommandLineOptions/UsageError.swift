/// A mistake in a command line, in words for the person who typed it, for the executable to
/// report (pencilctl, pencil-actions and pencil-bench with the usage line, exiting 64, EX_USAGE;
/// pencild as any refusal to start).
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
