// The header of an evemu file: the device's name, identity, properties, event bits and axes,
// read line by line with the shared scanner (EvemuScanner.swift).

/// Where a recording's events begin: the first `E:` line.
public struct EvemuPosition: Sendable, Equatable {
    /// Byte offset of the line's start (the buffer's size when there are no events).
    public var offset: Int
    /// 1-based line number.
    public var line: Int
}

/// The header of an evemu file: everything before the first `E:` line.
public struct EvemuHeader: Sendable {
    /// nil when the file has no header (a headerless `.events`).
    public var description: DeviceDescription?
    public var eventsStart: EvemuPosition

    /// Axes whose values are scaled by their range: an empty range cannot describe them.
    /// (Other axes, ABS_MISC above all, are commonly declared as 0..0.)
    static let scaledAxes: Set<UInt16> = [
        EventCode.ABS_X, EventCode.ABS_Y, EventCode.ABS_Z, EventCode.ABS_RX, EventCode.ABS_RY, EventCode.ABS_RZ,
        EventCode.ABS_THROTTLE, EventCode.ABS_WHEEL, EventCode.ABS_PRESSURE, EventCode.ABS_DISTANCE,
        EventCode.ABS_TILT_X, EventCode.ABS_TILT_Y,
    ]

    public init(parsing bytes: UnsafeRawBufferPointer, fileName: String) throws(RecordingError) {
        var name: String?
        var identity: (bus: Int, vendor: Int, product: Int, version: Int)?
        var propertyBytes: [UInt8] = []
        var bitmasks: [UInt16: [UInt8]] = [:]
        var axes: [(code: UInt16, info: AbsInfo)] = []
        var sawHeaderLine = false

        var offset = 0
        var lineNumber = 0
        let count = bytes.count
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), count > 0 else {
            try self.init(finishing: fileName, sawHeaderLine: false, name: nil, identity: nil, propertyBytes: [],
                          bitmasks: [:], axes: [], eventsStart: EvemuPosition(offset: 0, line: 1))
            return
        }
        while offset < count {
            lineNumber += 1
            let (lineEnd, found) = try significantLine(base, from: offset, count: count, file: fileName, line: lineNumber)
            guard case (let kind, var cursor)? = found else { offset = lineEnd + 1; continue }
            switch kind {
            case UInt8(ascii: "E"):
                try self.init(finishing: fileName, sawHeaderLine: sawHeaderLine, name: name, identity: identity,
                              propertyBytes: propertyBytes, bitmasks: bitmasks, axes: axes,
                              eventsStart: EvemuPosition(offset: offset, line: lineNumber))
                return
            case UInt8(ascii: "N"):
                guard name == nil else { throw cursor.error("a second N: line (one device per file)") }
                name = try cursor.restAsName()
            case UInt8(ascii: "I"):
                guard identity == nil else { throw cursor.error("a second I: line (one device per file)") }
                let bus = try cursor.hex(maxDigits: 4, "bus")
                let vendor = try cursor.hex(maxDigits: 4, "vendor")
                let product = try cursor.hex(maxDigits: 4, "product")
                let version = try cursor.hex(maxDigits: 4, "version")
                try cursor.expectEnd()
                identity = (Int(bus), Int(vendor), Int(product), Int(version))
            case UInt8(ascii: "P"):
                try cursor.appendBytes(to: &propertyBytes, what: "property")
            case UInt8(ascii: "B"):
                let type = try cursor.hex(maxDigits: 2, "event type")
                guard type <= UInt32(EventCode.EV_MAX) else {
                    throw cursor.error("event type \(hex2(type)) out of range (largest is 0x1f)")
                }
                try cursor.appendBytes(to: &bitmasks[UInt16(type), default: []], what: "event bit")
            case UInt8(ascii: "A"):
                let code = try cursor.hex(maxDigits: 2, "axis code")
                guard code <= UInt32(EventCode.ABS_MAX) else {
                    throw cursor.error("axis code \(hex2(code)) out of range (largest is 0x3f)")
                }
                let minimum = try cursor.decimal("axis minimum")
                let maximum = try cursor.decimal("axis maximum")
                let fuzz = try cursor.decimal("axis fuzz")
                let flat = try cursor.decimal("axis flat")
                let resolution: Int32 = try cursor.atEndAfterBlanks ? 0 : cursor.decimal("axis resolution")
                try cursor.expectEnd()
                if minimum > maximum || (minimum == maximum && Self.scaledAxes.contains(UInt16(code))) {
                    throw cursor.error("axis \(hex2(code)) has minimum \(minimum) ≥ maximum \(maximum)")
                }
                axes.append((UInt16(code), AbsInfo(minimum: minimum, maximum: maximum, fuzz: fuzz, flat: flat,
                                                   resolution: resolution)))
            default:
                throw cursor.error("unknown line \"\(Character(Unicode.Scalar(kind))):\": expected N:, I:, P:, B:, A:, E: or a # comment")
            }
            sawHeaderLine = true
            offset = lineEnd + 1
        }
        try self.init(finishing: fileName, sawHeaderLine: sawHeaderLine, name: name, identity: identity,
                      propertyBytes: propertyBytes, bitmasks: bitmasks, axes: axes,
                      eventsStart: EvemuPosition(offset: count, line: lineNumber + 1))
    }

    private init(finishing fileName: String, sawHeaderLine: Bool, name: String?,
                 identity: (bus: Int, vendor: Int, product: Int, version: Int)?,
                 propertyBytes: [UInt8], bitmasks: [UInt16: [UInt8]], axes: [(code: UInt16, info: AbsInfo)],
                 eventsStart: EvemuPosition) throws(RecordingError) {
        self.eventsStart = eventsStart
        guard sawHeaderLine else {
            description = nil
            return
        }
        guard let name else {
            throw .malformed(fileName, eventsStart.line, "the device header has no N: (name) line")
        }
        var device = DeviceDescription(name: name, bus: identity?.bus ?? 0, vendor: identity?.vendor ?? 0,
                                       product: identity?.product ?? 0, version: identity?.version ?? 0)
        device.properties = Set(setBits(propertyBytes))
        // "B: 00" lists the event types themselves.
        for type in setBits(bitmasks[EventCode.EV_SYN] ?? []) where type <= EventCode.EV_MAX {
            device.codes[type, default: []].formUnion(type == EventCode.EV_SYN ? DeviceDescription.synchronisationCodes : [])
        }
        for (type, bits) in bitmasks where type != EventCode.EV_SYN {
            let codes = setBits(bits)
            if !codes.isEmpty { device.codes[type, default: []].formUnion(codes) }
        }
        for (code, info) in axes {
            device.enableAbs(code, info)
        }
        description = device
    }
}

/// The indices of the bits set in a little-endian byte mask.
private func setBits(_ bytes: [UInt8]) -> [UInt16] {
    var result: [UInt16] = []
    for (index, byte) in bytes.enumerated() where byte != 0 {
        for bit in 0..<8 where byte & (1 << bit) != 0 {
            result.append(UInt16(index * 8 + bit))
        }
    }
    return result
}
