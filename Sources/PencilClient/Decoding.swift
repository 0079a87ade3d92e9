import PencilProtocol

// Reading the daemon's JSON into the client's values: the event, tool, stylus and device are
// read by PencilProtocol's one reader (EventReading.swift) over this library's open names, so
// a name the library does not know becomes `.unknown(name)`; what is left here is the
// preferences' reader the generated code calls.

extension ProtocolName {
    init?(json: JSONValue?) {
        guard let name = json?.stringValue else { return nil }
        self.init(rawValue: name)
    }
}

extension PencilEvent {
    /// The package's own `Event` for this one, for pencilctl's printing; nil when the event
    /// holds a name the package's types do not know (a newer daemon's), which a client of
    /// this version ignores as the protocol asks.
    package var protocolEvent: Event? { renamed { $0.protocolPreferences } }
}
