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
        append(Punctuation(comma: takeComma(), kind: .open, byte: bracket))
        depth += 1
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        append(Punctuation(comma: false, kind: .close, byte: bracket))
        if depth > 0 { depth -= 1 }
        // The container just closed is a value of the one around it.
        needsComma = depth > 0
    }

    /// Writes `"name":` inside an object; the value follows with one of the value calls.
    public mutating func key(_ name: StaticString) {
        let comma = needsComma
        needsComma = false
        append(Key(comma: comma, name: name))
    }

    /// Writes `"name":` for a member name known only at run time (literal names use the
    /// StaticString form, which needs no escaping pass).
    public mutating func key(member name: String) {
        string(name)
        append(Punctuation(comma: false, kind: .colon, byte: UInt8(ascii: ":")))
        needsComma = false
    }

    public mutating func null() { literal("null") }
    public mutating func bool(_ value: Bool) { literal(value ? "true" : "false") }

    private mutating func literal(_ text: StaticString) {
        append(Text(comma: takeComma(), utf8: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), quoted: false))
    }

    public mutating func int(_ value: Int64) {
        append(Number(comma: takeComma(), units: value.magnitude, fractionDigits: 0, negative: value < 0))
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
        text.withUTF8 { append(Text(comma: comma, utf8: $0, quoted: false)) }
    }

    public mutating func string(_ value: String) {
        let comma = takeComma()
        var text = value
        text.withUTF8 { append(Text(comma: comma, utf8: $0, quoted: true)) }
    }

    /// Writes a string's UTF-8 (without its quotes), escaped as JSON needs and safe on a
    /// terminal: every `Unicode.Scalar.isTerminalControl` is written as `\uXXXX` (C0, DEL, C1
    /// and the bidirectional controls; valid JSON raw too, but a name printed with them would
    /// act on the terminal that shows `pencilctl monitor --json`). At most 6 bytes a byte.
    @inline(__always)
    static func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, at out: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x80 {
                written += writeEscaped(byte, at: out + written)
                index += 1
            } else if let control = terminalControl(in: utf8, at: index) {
                written += writeUnicodeEscape(control.value, at: out + written)
                index += control.length
            } else {
                out[written] = byte
                written += 1
                index += 1
            }
        }
        return written
    }

    /// The terminal control whose UTF-8 starts at `index`, and its length, if one does. Only
    /// the lead bytes C2 (U+0080–U+009F), D8 (U+061C) and E2 (U+200E–U+2069) can start one, so
    /// any other byte is copied without decoding; "the JSON writer escapes exactly the terminal
    /// controls" (JSONTests) holds this to `isTerminalControl` over every scalar.
    @inline(__always)
    static func terminalControl(in utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> (value: UInt32, length: Int)? {
        let lead = utf8[index]
        guard lead == 0xC2 || lead == 0xD8 || lead == 0xE2 else { return nil }
        let length = lead == 0xE2 ? 3 : 2
        guard index + length <= utf8.count else { return nil }
        var value = UInt32(lead & (length == 2 ? 0x1F : 0x0F))
        for offset in 1..<length {
            let next = utf8[index + offset]
            guard next & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(next & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value), scalar.isTerminalControl else { return nil }
        return (value, length)
    }

    /// Writes one ASCII byte of a string, escaped if JSON needs it or a terminal would act on
    /// it (C0, DEL); returns the bytes written.
    @inline(__always)
    static func writeEscaped(_ byte: UInt8, at out: UnsafeMutablePointer<UInt8>) -> Int {
        guard byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
            out[0] = byte
            return 1
        }
        out[0] = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): out[1] = byte
        case 0x0A: out[1] = UInt8(ascii: "n")
        case 0x0D: out[1] = UInt8(ascii: "r")
        case 0x09: out[1] = UInt8(ascii: "t")
        default: return writeUnicodeEscape(UInt32(byte), at: out)
        }
        return 2
    }

    /// `\uXXXX` for a code point of the Basic Multilingual Plane; returns 6.
    @inline(__always)
    static func writeUnicodeEscape(_ value: UInt32, at out: UnsafeMutablePointer<UInt8>) -> Int {
        let hex: StaticString = "0123456789abcdef"
        out[0] = UInt8(ascii: "\\")
        out[1] = UInt8(ascii: "u")
        hex.withUTF8Buffer { digits in
            out[2] = digits[Int(value >> 12 & 0xF)]
            out[3] = digits[Int(value >> 8 & 0xF)]
            out[4] = digits[Int(value >> 4 & 0xF)]
            out[5] = digits[Int(value & 0xF)]
        }
        return 6
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

// The writer's tokens, one small type each (so that each append is specialized for it),
// all writing through JSONCursor: the JSON text of a key, a number, a string or a bracket
// is made in one place.

/// A bracket opening or closing a container, or a member name's colon.
struct Punctuation: JSONToken {
    enum Kind { case open, close, colon }
    var comma: Bool
    var kind: Kind
    var byte: UInt8
    var maximum: Int { 2 }
    func write(at out: UnsafeMutablePointer<UInt8>) -> Int {
        var cursor = JSONCursor(at: out, comma: comma)
        switch kind {
        case .open: cursor.open(byte)
        case .close: cursor.close(byte)
        case .colon: cursor.punctuation(byte)
        }
        return cursor.count
    }
}

/// `"name":` for a literal name.
struct Key: JSONToken {
    var comma: Bool
    var name: StaticString
    var maximum: Int { JSONCursor.maximumByteCount(ofKey: name) }
    func write(at out: UnsafeMutablePointer<UInt8>) -> Int {
        var cursor = JSONCursor(at: out, comma: comma)
        cursor.key(name)
        return cursor.count
    }
}

/// A number `units` / 10^fractionDigits.
struct Number: JSONToken {
    var comma: Bool
    var units: UInt64
    var fractionDigits: Int
    var negative: Bool
    var maximum: Int { JSONCursor.maximumNumberByteCount }
    func write(at out: UnsafeMutablePointer<UInt8>) -> Int {
        var cursor = JSONCursor(at: out, comma: comma)
        cursor.units(units, fractionDigits: fractionDigits, negative: negative)
        return cursor.count
    }
}

/// Text as a value: a string (quoted, escaped), or as it is (null, true, a number's text).
struct Text: JSONToken {
    var comma: Bool
    var utf8: UnsafeBufferPointer<UInt8>
    var quoted: Bool
    var maximum: Int { utf8.count * 6 + 3 }
    func write(at out: UnsafeMutablePointer<UInt8>) -> Int {
        var cursor = JSONCursor(at: out, comma: comma)
        if quoted { cursor.string(utf8: utf8) } else { cursor.raw(utf8) }
        return cursor.count
    }
}
