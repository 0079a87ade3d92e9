import PencilProtocol

/// An axis's range, as struct input_absinfo has it.
public struct AbsInfo: Equatable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre for X/Y, units per radian for tilt and rotation; 0 when unknown.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    public var range: Int64 { Int64(maximum) - Int64(minimum) }
}

/// What a device is and what it can report: read from a live fd (libevdev) or from an
/// evemu header. Pure data; every decision about it is made elsewhere.
public struct DeviceDescription: Equatable, Sendable {
    public var name: String
    public var bus: Int
    public var vendor: Int
    public var product: Int
    public var version: Int
    /// INPUT_PROP_* bits that are set.
    public var properties: Set<UInt16>
    /// For each event type, the codes it supports.
    public var codes: [UInt16: Set<UInt16>]
    /// Ranges of the EV_ABS codes.
    public var absInfo: [UInt16: AbsInfo]

    public init(name: String, bus: Int = 0, vendor: Int = 0, product: Int = 0, version: Int = 0,
                properties: Set<UInt16> = [], codes: [UInt16: Set<UInt16>] = [:], absInfo: [UInt16: AbsInfo] = [:]) {
        self.name = name
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
        self.properties = properties
        self.codes = codes
        self.absInfo = absInfo
    }

    public func has(type: UInt16) -> Bool { !(codes[type]?.isEmpty ?? true) }
    public func has(type: UInt16, code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }
    public func hasKey(_ code: UInt16) -> Bool { has(type: EventCode.EV_KEY, code: code) }
    public func hasAbs(_ code: UInt16) -> Bool { has(type: EventCode.EV_ABS, code: code) && absInfo[code] != nil }
    public func hasProperty(_ property: UInt16) -> Bool { properties.contains(property) }

    /// docs/gestures.md: a device "with tool keys" has a BTN_TOOL_* code of a pen-side tool.
    public var hasToolKeys: Bool { EventCode.toolKeys.contains { hasKey($0.code) } }

    /// Adds a key (tests build devices this way).
    public mutating func enable(type: UInt16, code: UInt16) {
        codes[type, default: []].insert(code)
    }

    public mutating func enableAbs(_ code: UInt16, _ info: AbsInfo) {
        enable(type: EventCode.EV_ABS, code: code)
        absInfo[code] = info
    }
}
