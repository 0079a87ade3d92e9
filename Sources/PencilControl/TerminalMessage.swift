import PencilProtocol

/// A line for a person. pencilctl's own words (the literal text, line breaks and all) are
/// written as they are; every value put into them is untrusted until said otherwise (a device
/// name, the daemon's error text, a path from the environment) and is escaped
/// (`escapedForTerminal`). Escaping a whole message instead would show pencilctl's own line
/// breaks as `\x0a`; escaping nothing would let a device's name drive the terminal.
///
///     io.errors.line("pencilctl: \(error)")           // error's text escaped
///     io.errors.line("pencilctl: \(explanation)")     // a TerminalMessage: kept as made
public struct TerminalMessage: ExpressibleByStringInterpolation, Equatable, Sendable, CustomStringConvertible {
    /// The text, safe to write to a terminal.
    public private(set) var text: String

    public init(stringLiteral value: String) { text = value }

    public init(stringInterpolation: Interpolation) { text = stringInterpolation.text }

    /// Text that is not pencilctl's own, shown escaped.
    public init(untrusted: String) { text = untrusted.escapedForTerminal }

    public var description: String { text }

    public static func + (left: TerminalMessage, right: TerminalMessage) -> TerminalMessage {
        var joined = left
        joined.text += right.text
        return joined
    }

    public struct Interpolation: StringInterpolationProtocol {
        var text = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) { text += literal }

        /// Any value: its text escaped.
        public mutating func appendInterpolation<Value>(_ value: Value) {
            text += String(describing: value).escapedForTerminal
        }

        /// A message already made: kept as it is.
        public mutating func appendInterpolation(_ message: TerminalMessage) { text += message.text }
    }
}
