/// Writes compact JSON into a reusable byte buffer; the hot path of every reply.
///
/// Containers are tracked by depth alone: a value inside a container is preceded by a comma
/// unless it is the container's first, and after any value the container is no longer empty,
/// so one flag for the innermost container is all the state commas need.
public struct JSONWriter {
    public var bytes: [UInt8]
    /// Open objects and arrays.
    private var depth = 0
    /// Whether the innermost open container already holds a value (or, after a key, false
    /// until the member's value is written).
    private var needsComma = false

    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        depth = 0
        needsComma = false
    }

    @inline(__always)
    mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = depth > 0
    }

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); depth += 1; needsComma = false }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); depth += 1; needsComma = false }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        if depth > 0 { depth -= 1 }
        // The container just closed is a value of the one around it.
        needsComma = depth > 0
    }

    /// Writes `"name":` inside an object; the value follows with one of the value calls.
    public mutating func key(_ name: StaticString) {
        separate()
        name.withUTF8Buffer { name in
            // The quotes, the name and the colon in one append.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count + 3) { buffer in
                buffer[0] = UInt8(ascii: "\"")
                for index in 0..<name.count { buffer[index + 1] = name[index] }
                buffer[name.count + 1] = UInt8(ascii: "\"")
                buffer[name.count + 2] = UInt8(ascii: ":")
                bytes.append(contentsOf: UnsafeBufferPointer(buffer))
            }
        }
        needsComma = false
    }

    /// Writes `"name":` for a member name known only at run time (literal names use the
    /// StaticString form, which needs no escaping pass).
    public mutating func key(member name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func null() { separate(); bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }
    public mutating func bool(_ value: Bool) {
        separate()
        if value { bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) } else { bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65]) }
    }

    public mutating func int(_ value: Int64) {
        separate()
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        appendDigits(value.magnitude, fractionDigits: 0, negative: value < 0)
    }

    public mutating func int(_ value: Int) { int(Int64(value)) }

    /// A finite double in the shortest form that reads back exactly; non-finite values become null.
    public mutating func double(_ value: Double) {
        guard value.isFinite else { null(); return }
        if value == value.rounded(), abs(value) < 1e15 {
            int(Int64(value))
            return
        }
        separate()
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    public mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var text = value
        text.withUTF8 { utf8 in
            // Most strings need no escaping: copy them whole, and escape byte by byte only
            // from the first byte that needs it.
            guard let first = utf8.firstIndex(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[..<first]))
            for byte in utf8[first...] { appendEscaped(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
        case 0..<0x20:
            let hex: StaticString = "0123456789abcdef"
            hex.withUTF8Buffer { digits in
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
            }
        default: bytes.append(byte)
        }
    }

    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .int(let i): int(i)
        case .double(let d): double(d)
        case .string(let s): string(s)
        case .array(let elements):
            beginArray()
            for element in elements { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, member) in members { key(member: name); self.value(member) }
            endObject()
        }
    }
}

extension JSONValue {
    /// Compact JSON text of this value.
    public var jsonText: String {
        var writer = JSONWriter()
        writer.value(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

