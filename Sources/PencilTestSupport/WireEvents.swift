import PencilProtocol

extension Event {
    /// The event as a client reads it: written and read back, so its floats carry the wire's
    /// rounding (docs/protocol.md, "Numbers on the wire"). What a client prints or receives equals
    /// this, not the unrounded value the pipeline computed.
    public var asOnTheWire: Event {
        do {
            return try Event(json: JSONReader.parse(jsonText))
        } catch {
            preconditionFailure("an event the writer wrote does not read back: \(error)")
        }
    }
}

extension Array where Element == Event {
    /// Every event as a client reads it (`Event.asOnTheWire`).
    public var asOnTheWire: [Event] { map(\.asOnTheWire) }
}
