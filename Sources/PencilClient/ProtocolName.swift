/// The protocol's names (event types, tools, buttons, phases, actions...) are strings so that
/// the interface can grow: a newer pencild may send a name this library does not know yet.
/// Every such name is an enum here with a last case, `unknown(String)`, that keeps the name
/// as it came; decoding never fails on a name.
public protocol ProtocolName: Hashable, Sendable, RawRepresentable, CustomStringConvertible where RawValue == String {
    /// Every name this version of the library knows, in the protocol's order.
    static var known: [Self] { get }
    /// A name this version of the library does not know.
    static func unknown(_ name: String) -> Self
}

extension ProtocolName {
    /// The value for `rawValue`: a known case, or `.unknown(rawValue)`. Never nil.
    public init(rawValue: String) {
        self = Self.known.first { $0.rawValue == rawValue } ?? .unknown(rawValue)
    }

    /// False for a name this version of the library does not know.
    public var isKnown: Bool { Self.known.contains(self) }

    public var description: String { rawValue }
}
