import PencilProtocol

/// This library's names for the values PencilProtocol writes once for daemon and clients
/// (`ToolOf`, `StylusOf`, `DeviceOf`): the open enums of Names.swift, which keep a name a
/// newer daemon adds as `unknown(name)`.
public enum ClientNames: NameSet {
    public typealias ToolName = PencilToolType
    public typealias StylusKindName = PencilStylusKind
    public typealias EraserKindName = PencilEraserKind
    public typealias AxisName = PencilAxis
    public typealias ButtonName = PencilButton
}
