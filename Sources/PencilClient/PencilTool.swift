import PencilProtocol

/// A tool in or near a device's range. `serial` and `id` are 0 when the device does not
/// tell them. The same tool means the same type and serial.
public struct PencilTool: Hashable, Sendable {
    public var type: PencilToolType
    public var serial: Int64
    public var id: Int64

    public init(type: PencilToolType, serial: Int64 = 0, id: Int64 = 0) {
        self.type = type
        self.serial = serial
        self.id = id
    }

    /// True when `other` is the same physical tool (type and serial).
    public func isSameTool(as other: PencilTool) -> Bool { type == other.type && serial == other.serial }
}
