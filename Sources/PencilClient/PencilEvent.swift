import PencilProtocol

/// One event (docs/protocol.md "Event"; `EventOf` in PencilProtocol, over this library's open
/// names). The fields a type does not carry are nil; `device` and the device's strings are
/// untrusted text (see `PencilDevice`).
public typealias PencilEvent = EventOf<ClientNames>
