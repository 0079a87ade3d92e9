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
    public private(set) var count: Int
    @usableFromInline var depth = 0
    @usableFromInline var needsComma: Bool

    @usableFromInline
    init(at start: UnsafeMutablePointer<UInt8>, comma: Bool) {
        self.start = start
        self.count = 0
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
            start[count] = UInt8(ascii: ",")
            count += 1
        }
    }

    public mutating func beginObject() {
        comma(takeComma())
        start[count] = UInt8(ascii: "{")
        count += 1
        depth += 1
        needsComma = false
    }

    public mutating func endObject() {
        start[count] = UInt8(ascii: "}")
        count += 1
        if depth > 0 { depth -= 1 }
        needsComma = depth > 0
    }

    public mutating func beginArray() {
        comma(takeComma())
        start[count] = UInt8(ascii: "[")
        count += 1
        depth += 1
        needsComma = false
    }

    public mutating func endArray() {
        start[count] = UInt8(ascii: "]")
        count += 1
        if depth > 0 { depth -= 1 }
        needsComma = depth > 0
    }

    public mutating func bool(_ value: Bool) {
        comma(takeComma())
        let text: StaticString = value ? "true" : "false"
        for index in 0..<text.utf8CodeUnitCount { start[count + index] = text.utf8Start[index] }
        count += text.utf8CodeUnitCount
    }

    /// `"name":` (a literal name: no escaping); the value follows.
    public mutating func key(_ name: StaticString) {
        comma(needsComma)
        needsComma = false
        start[count] = UInt8(ascii: "\"")
        count += 1
        let length = name.utf8CodeUnitCount
        let bytes = name.utf8Start
        for index in 0..<length { start[count + index] = bytes[index] }
        count += length
        start[count] = UInt8(ascii: "\"")
        start[count + 1] = UInt8(ascii: ":")
        count += 2
    }

    public mutating func int(_ value: Int64) {
        comma(takeComma())
        count += JSONWriter.writeDecimal(units: value.magnitude, fractionDigits: 0, negative: value < 0, at: start + count)
    }

    /// As `JSONWriter.decimal(_:places:)`.
    public mutating func decimal(_ value: Double, places: Int) {
        comma(takeComma())
        let places = min(max(places, 0), JSONWriter.maximumPlaces)
        let (units, negative) = JSONWriter.scaledUnits(value, places: places)
        count += JSONWriter.writeDecimal(units: units, fractionDigits: places, negative: negative, at: start + count)
    }

    /// A string, escaped as JSON needs; reserve six bytes for each of its UTF-8 bytes, plus 3.
    public mutating func string(_ value: String) {
        comma(takeComma())
        var text = value
        text.withUTF8 { utf8 in
            start[count] = UInt8(ascii: "\"")
            count += 1
            for byte in utf8 { count += JSONWriter.writeEscaped(byte, at: start + count) }
            start[count] = UInt8(ascii: "\"")
            count += 1
        }
    }

    /// The most bytes `string(_:)` writes for `value`, its comma included.
    public static func maximumByteCount(of value: String) -> Int { value.utf8.count * 6 + 3 }

    /// The most bytes a number takes, its comma included.
    public static let maximumNumberByteCount = 23

    /// The most bytes `key(_:)` writes for `name`, its comma included.
    public static func maximumByteCount(ofKey name: StaticString) -> Int { name.utf8CodeUnitCount + 4 }
}
