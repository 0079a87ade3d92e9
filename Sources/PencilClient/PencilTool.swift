import PencilProtocol

/// A tool in or near a device's range (`ToolOf` in PencilProtocol, over this library's open
/// names). `serial` and `id` are 0 when the device does not tell them. The same tool means
/// the same type and serial: `isSameTool(as:)`.
public typealias PencilTool = ToolOf<ClientNames>
