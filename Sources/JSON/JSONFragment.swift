/// A value whose JSON text is written in one step: the writer reserves `maximumByteCount`
/// bytes once and the fragment writes its whole text there through a `JSONCursor`, instead
/// of one reservation per key and number. For the values written most often (an event's
/// pose, a whole pen event).
public protocol JSONFragment {
    /// The most bytes `write(to:)` writes.
    var maximumByteCount: Int { get }
    func write(to cursor: inout JSONCursor)
}

extension JSONWriter {
    /// Writes `fragment` as one value (after a comma if one is due).
    @inlinable
    public mutating func write<Fragment: JSONFragment>(fragment: Fragment) {
        append(FragmentToken(comma: takeComma(), fragment: fragment))
    }
}

extension JSONWriter {
    /// Writes the fragment at `fragment` as the one value of a whole message laid out around
    /// it: `prefix`, the value, then `suffix`, copied as they are (a comma first if one is due).
    /// One reservation and one pass for the message, as for a stream's reply around each
    /// event; the value is read where it is, not copied into the token.
    @inlinable
    public mutating func write<Fragment: JSONFragment>(_ prefix: StaticString, _ fragment: UnsafePointer<Fragment>, _ suffix: StaticString) {
        let maximum = 1 + prefix.utf8CodeUnitCount + fragment.pointee.maximumByteCount + suffix.utf8CodeUnitCount
        append(EnclosedFragmentToken(comma: takeComma(), prefix: prefix, fragment: fragment, suffix: suffix, maximum: maximum))
    }
}

@usableFromInline
struct EnclosedFragmentToken<Fragment: JSONFragment>: JSONToken {
    @usableFromInline var comma: Bool
    @usableFromInline var prefix: StaticString
    @usableFromInline var fragment: UnsafePointer<Fragment>
    @usableFromInline var suffix: StaticString
    /// Worked out once: the writer asks for it more than once.
    @usableFromInline var maximum: Int

    @inlinable
    init(comma: Bool, prefix: StaticString, fragment: UnsafePointer<Fragment>, suffix: StaticString, maximum: Int) {
        self.comma = comma
        self.prefix = prefix
        self.fragment = fragment
        self.suffix = suffix
        self.maximum = maximum
    }

    @inlinable
    func write(at out: UnsafeMutablePointer<UInt8>) -> Int {
        var cursor = JSONCursor(at: out, comma: comma)
        cursor.value { cursor in
            cursor.verbatim(prefix)
            fragment.pointee.write(to: &cursor)
            cursor.verbatim(suffix)
        }
        return cursor.count
    }
}

@usableFromInline
struct FragmentToken<Fragment: JSONFragment>: JSONToken {
    @usableFromInline var comma: Bool
    @usableFromInline var fragment: Fragment

    @inlinable
    init(comma: Bool, fragment: Fragment) {
        self.comma = comma
        self.fragment = fragment
    }

    @inlinable
    var maximum: Int { fragment.maximumByteCount + 1 }

    @inlinable
    func write(at out: UnsafeMutablePointer<UInt8>) -> Int {
        var cursor = JSONCursor(at: out, comma: comma)
        fragment.write(to: &cursor)
        return cursor.count
    }
}

/// Writes JSON at a pointer, into space a `JSONWriter` reserved for a fragment: the same
/// calls as the writer's (and the same rules for commas), with no capacity checks. The
/// fragment's `maximumByteCount` must cover what it writes.
public struct JSONCursor {
    @usableFromInline let start: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    @inlinable public var count: Int { written }
    @usableFromInline var written: Int
    @usableFromInline var depth = 0
    @usableFromInline var needsComma: Bool

    @usableFromInline
    init(at start: UnsafeMutablePointer<UInt8>, comma: Bool) {
        self.start = start
        self.written = 0
        self.needsComma = comma
    }

    /// Whether a value written now needs a comma; afterwards the container holds a value.
    private mutating func takeComma() -> Bool {
        let comma = needsComma
        needsComma = depth > 0
        return comma
    }

    private mutating func comma(_ due: Bool) {
        if due {
            start[written] = UInt8(ascii: ",")
            written += 1
        }
    }

    public mutating func beginObject() { open(UInt8(ascii: "{")) }
    public mutating func endObject() { close(UInt8(ascii: "}")) }
    public mutating func beginArray() { open(UInt8(ascii: "[")) }
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    mutating func open(_ bracket: UInt8) {
        comma(takeComma())
        start[written] = bracket
        written += 1
        depth += 1
        needsComma = false
    }

    mutating func close(_ bracket: UInt8) {
        start[written] = bracket
        written += 1
        if depth > 0 { depth -= 1 }
        // The container just closed is a value of the one around it.
        needsComma = depth > 0
    }

    /// Constant JSON text copied as it is, with no comma before it and no change to what the
    /// cursor knows of containers: for writers that lay out a whole value by hand (a pen
    /// event's brackets, commas and member names between its values). Inlined, so that the
    /// copy of a literal of known length is a few moves.
    @inlinable @inline(__always)
    public mutating func verbatim(_ text: StaticString) {
        UnsafeMutableRawPointer(start + written).copyMemory(from: text.utf8Start, byteCount: text.utf8CodeUnitCount)
        written += text.utf8CodeUnitCount
    }

    /// Writes one value laid out by hand: its comma if one is due, then `body`, which writes
    /// the value's brackets, commas and member names with `verbatim` and its values with the
    /// value calls. Inside `body` the value calls write no comma of their own (the cursor is
    /// as at the top level with nothing written); afterwards the cursor is as after any value.
    @inlinable @inline(__always)
    public mutating func value(laidOut body: (inout JSONCursor) -> Void) {
        let outerDepth = depth
        if needsComma { verbatim(",") }
        depth = 0
        needsComma = false
        body(&self)
        depth = outerDepth
        needsComma = outerDepth > 0
    }

    /// A byte with no comma before it (a member name's colon written by hand).
    mutating func punctuation(_ byte: UInt8) {
        start[written] = byte
        written += 1
    }

    public mutating func bool(_ value: Bool) { literal(value ? "true" : "false") }
    public mutating func null() { literal("null") }

    /// ASCII text written as it is, as a value.
    private mutating func literal(_ text: StaticString) {
        raw(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Bytes that need no escaping, as a value (a number's text).
    mutating func raw(_ text: UnsafeBufferPointer<UInt8>) {
        comma(takeComma())
        if let base = text.baseAddress { (start + written).update(from: base, count: text.count) }
        written += text.count
    }

    /// A number `units` / 10^fractionDigits, as a value.
    mutating func units(_ units: UInt64, fractionDigits: Int, negative: Bool) {
        comma(takeComma())
        written += JSONWriter.writeDecimal(units: units, fractionDigits: fractionDigits, negative: negative, at: start + written)
    }

    /// A string given as UTF-8, quoted and escaped, as a value.
    mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        comma(takeComma())
        start[written] = UInt8(ascii: "\"")
        written += 1
        written += JSONWriter.writeEscaped(utf8, at: start + written)
        start[written] = UInt8(ascii: "\"")
        written += 1
    }

    /// `"name":` for a literal name, copied as it is (the code's member names need no
    /// escaping); the value follows.
    public mutating func key(_ name: StaticString) {
        comma(needsComma)
        needsComma = false
        let length = name.utf8CodeUnitCount
        start[written] = UInt8(ascii: "\"")
        UnsafeMutableRawPointer(start + written + 1).copyMemory(from: name.utf8Start, byteCount: length)
        start[written + 1 + length] = UInt8(ascii: "\"")
        start[written + 2 + length] = UInt8(ascii: ":")
        written += length + 3
    }

    public mutating func int(_ value: Int64) {
        units(value.magnitude, fractionDigits: 0, negative: value < 0)
    }

    /// As `JSONWriter.decimal(_:places:)`.
    public mutating func decimal(_ value: Double, places: Int) {
        let places = min(max(places, 0), JSONWriter.maximumPlaces)
        let (scaled, negative) = JSONWriter.scaledUnits(value, places: places)
        units(scaled, fractionDigits: places, negative: negative)
    }

    /// A string, escaped as JSON needs; reserve six bytes for each of its UTF-8 bytes, plus 3.
    public mutating func string(_ value: String) {
        var text = value
        text.withUTF8 { string(utf8: $0) }
    }

    /// The most bytes `string(_:)` writes for `value`, its comma included.
    public static func maximumByteCount(of value: String) -> Int { value.utf8.count * 6 + 3 }

    /// The most bytes a number takes, its comma included.
    public static let maximumNumberByteCount = 23

    /// The most bytes `key(_:)` writes for `name`, its comma included.
    public static func maximumByteCount(ofKey name: StaticString) -> Int { name.utf8CodeUnitCount + 4 }
}
