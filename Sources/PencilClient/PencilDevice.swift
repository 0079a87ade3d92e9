import PencilProtocol

/// A pen device (docs/protocol.md "Device"; `DeviceOf` in PencilProtocol, over this library's
/// open names).
///
/// Its strings are untrusted text: the device names itself (any USB or uinput device can hold
/// terminal escapes, newlines or bidirectional controls in its name), and whatever answers on
/// the socket writes the rest. Show them through `escapedForTerminal` (or escape them as your
/// toolkit needs), and never hand them to a shell.
public typealias PencilDevice = DeviceOf<ClientNames>
