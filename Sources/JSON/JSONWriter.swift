/// Writes compact JSON into a reusable byte buffer; the hot path of every reply.
///
/// Containers are tracked by depth alone: a value inside a container is preceded by a comma
/// unless it is the container's first, and after any value the container is no longer empty,
/// so one flag for the innermost container is all the state commas need.
///
/// Every token (a key with its comma, a number, a string) is written in one step straight
/// into the spare capacity of `bytes` (`append(_: JSONToken)`), not byte by byte.
public struct JSONWriter {
    public var bytes: [UInt8]
    /// Open objects and arrays.
    @usableFromInline var depth = 0
    /// Whether the next value or key needs a comma before it.
    @usableFromInline var needsComma = false

    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        depth = 0
        needsComma = false
    }

    /// Whether a value written now needs a comma; afterwards the container holds a value.
    @inlinable @inline(__always)
    mutating func takeComma() -> Bool {
        let comma = needsComma
        needsComma = depth > 0
        return comma
    }

    /// Appends one token, written in place into the spare capacity of `bytes`.
    @inlinable @inline(__always)
    mutating func append<Token: JSONToken>(_ token: Token) {
        let needed = bytes.count + token.maximum
        if bytes.capacity < needed {
            // Doubling, as append would: reserveCapacity alone grows to the exact size asked.
            bytes.reserveCapacity(Swift.max(needed, bytes.capacity * 2))
        }
        bytes.append(contentsOf: token)
    }

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        append(CursorToken(comma: takeComma(), operation: .open(bracket)))
        depth += 1
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        append(CursorToken(comma: false, operation: .close(bracket)))
        if depth > 0 { depth -= 1 }
        // The container just closed is a value of the one around it.
        needsComma = depth > 0
    }

    /// Writes `"name":` inside an object; the value follows with one of the value calls.
    public mutating func key(_ name: StaticString) {
        let comma = needsComma
        needsComma = false
        append(CursorToken(comma: comma, operation: .key(name)))
    }

    /// Writes `"name":` for a member name known only at run time (literal names use the
    /// StaticString form, which needs no escaping pass).
    public mutating func key(member name: String) {
        string(name)
        append(CursorToken(comma: false, operation: .colon))
        needsComma = false
    }

    public mutating func null() { append(CursorToken(comma: takeComma(), operation: .literal("null"))) }
    public mutating func bool(_ value: Bool) { append(CursorToken(comma: takeComma(), operation: .literal(value ? "true" : "false"))) }

    public mutating func int(_ value: Int64) {
        append(CursorToken(comma: takeComma(), operation: .units(value.magnitude, fractionDigits: 0, negative: value < 0)))
    }

    public mutating func int(_ value: Int) { int(Int64(value)) }

    /// A finite double in the shortest form that reads back exactly; non-finite values become null.
    /// (The protocol's floats use `decimal(_:places:)`, which never writes an exponent.)
    public mutating func double(_ value: Double) {
        guard value.isFinite else { null(); return }
        if value == value.rounded(), abs(value) < 1e15 {
            int(Int64(value))
            return
        }
        var text = value.description
        let comma = takeComma()
        text.withUTF8 { append(CursorToken(comma: comma, operation: .raw($0))) }
    }

    public mutating func string(_ value: String) {
        let comma = takeComma()
        var text = value
        text.withUTF8 { append(CursorToken(comma: comma, operation: .string($0))) }
    }

    /// Writes one byte of a string, escaped if JSON needs it; returns the bytes written.
    @inline(__always)
    static func writeEscaped(_ byte: UInt8, at out: UnsafeMutablePointer<UInt8>) -> Int {
        guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
            out[0] = byte
            return 1
        }
        out[0] = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out[1] = byte
        case 0x0A: out[1] = UInt8(ascii: "n")
        case 0x0D: out[1] = UInt8(ascii: "r")
        case 0x09: out[1] = UInt8(ascii: "t")
        default:
            let hex: StaticString = "0123456789abcdef"
            out[1] = UInt8(ascii: "u")
            out[2] = UInt8(ascii: "0")
            out[3] = UInt8(ascii: "0")
            hex.withUTF8Buffer { digits in
                out[4] = digits[Int(byte >> 4)]
                out[5] = digits[Int(byte & 0xF)]
            }
            return 6
        }
        return 2
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


/// A piece of JSON text that writes itself into the spare capacity of the writer's array when
/// the array copies it in (`_copyContents`): no intermediate buffer, no byte-by-byte append.
/// It claims no elements ahead (`underestimatedCount` 0); the writer has reserved `maximum`
/// bytes, which `write` never exceeds.
@usableFromInline
protocol JSONToken: Sequence where Element == UInt8, Iterator == EmptyCollection<UInt8>.Iterator {
    /// The most bytes `write` writes.
    var maximum: Int { get }
    /// Writes the token at `out`; returns the bytes written.
    func write(at out: UnsafeMutablePointer<UInt8>) -> Int
}

extension JSONToken {
    @inlinable
    var underestimatedCount: Int { 0 }
    @inlinable
    func makeIterator() -> EmptyCollection<UInt8>.Iterator { EmptyCollection<UInt8>.Iterator() }

    @inlinable
    func _copyContents(initializing buffer: UnsafeMutableBufferPointer<UInt8>) -> (EmptyCollection<UInt8>.Iterator, Int) {
        guard let start = buffer.baseAddress, buffer.count >= maximum else {
            preconditionFailure("JSONWriter reserved \(maximum) bytes, the array offers \(buffer.count)")
        }
        return (EmptyCollection<UInt8>.Iterator(), write(at: start))
    }

}

/// One call of the writer's, written through a cursor after one reservation: the JSON text
/// of every token is made in one place, `JSONCursor`.
struct CursorToken: JSONToken {
    enum Operation {
        case open(UInt8), close(UInt8), colon
        case key(StaticString), literal(StaticString)
        case units(UInt64, fractionDigits: Int, negative: Bool)
        case string(UnsafeBufferPointer<UInt8>), raw(UnsafeBufferPointer<UInt8>)
    }

    var comma: Bool
    var operation: Operation

    var maximum: Int {
        switch operation {
        case .open, .close, .colon: return 2
        case .key(let text): return text.utf8CodeUnitCount * 6 + 4
        case .literal(let text): return text.utf8CodeUnitCount + 1
        case .units: return JSONCursor.maximumNumberByteCount
        case .string(let utf8): return utf8.count * 6 + 3
        case .raw(let text): return text.count + 1
        }
    }

    func write(at out: UnsafeMutablePointer<UInt8>) -> Int {
        var cursor = JSONCursor(at: out, comma: comma)
        switch operation {
        case .open(let bracket): bracket == UInt8(ascii: "{") ? cursor.beginObject() : cursor.beginArray()
        case .close(let bracket): bracket == UInt8(ascii: "}") ? cursor.endObject() : cursor.endArray()
        case .colon: cursor.punctuation(UInt8(ascii: ":"))
        case .key(let name): cursor.key(name)
        case .literal(let text): cursor.literal(text)
        case .units(let units, let fractionDigits, let negative): cursor.units(units, fractionDigits: fractionDigits, negative: negative)
        case .string(let utf8): cursor.string(utf8: utf8)
        case .raw(let text): cursor.raw(text)
        }
        return cursor.count
    }
}
