// memchr alone, not the rest of Glibc: this module makes no system call.
#if canImport(Glibc)
import func Glibc.memchr
#endif

// What the header's reader and the events' decoder share: finding lines, reading their
// fields with bounds checked at every byte, and the messages' number formats.

/// The line starting at `offset`: where it ends and, unless it is blank or a comment, its kind
/// (the X of `X:`) and a cursor at its first field. A line over the length limit, or one that
/// does not start with `X:`, is malformed.
func significantLine(_ base: UnsafePointer<UInt8>, from offset: Int, count: Int, file: String,
                     line: Int) throws(RecordingError) -> (end: Int, line: (kind: UInt8, fields: LineCursor)?) {
    let lineEnd = endOfLine(base, from: offset, count: count)
    if lineEnd - offset > RecordingLimits.maximumLineLength {
        throw .malformed(file, line, "line longer than \(RecordingLimits.maximumLineLength) bytes")
    }
    var cursor = LineCursor(base: base, position: offset, end: lineEnd, file: file, line: line)
    cursor.skipBlanks()
    if cursor.atEnd || cursor.peek == UInt8(ascii: "#") { return (lineEnd, nil) }
    let kind = try cursor.lineKind()
    return (lineEnd, (kind, cursor))
}

/// The offset of the line's terminating newline, or `count` for an unterminated last line.
@inline(__always)
func endOfLine(_ base: UnsafePointer<UInt8>, from offset: Int, count: Int) -> Int {
    guard let found = memchr(base + offset, Int32(UInt8(ascii: "\n")), count - offset) else { return count }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
}

/// Reads the fields of one line. Every read checks `end`; errors name the file and line.
struct LineCursor {
    let base: UnsafePointer<UInt8>
    var position: Int
    /// The offset of the newline (or the buffer's end); never read.
    let end: Int
    let file: String
    let line: Int

    init(base: UnsafePointer<UInt8>, position: Int, end: Int, file: String, line: Int) {
        self.base = base
        self.position = position
        self.end = end
        self.file = file
        self.line = line
    }

    func error(_ reason: String) -> RecordingError { .malformed(file, line, reason) }

    var atEnd: Bool { position >= end }
    var peek: UInt8 { base[position] }

    @inline(__always) static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    @inline(__always) mutating func skipBlanks() {
        while position < end, Self.isBlank(base[position]) { position += 1 }
    }

    /// True when nothing but blanks or a comment is left.
    var atEndAfterBlanks: Bool {
        var probe = self
        probe.skipBlanks()
        return probe.atEnd || probe.peek == UInt8(ascii: "#")
    }

    /// Reads `X:` and returns X.
    mutating func lineKind() throws(RecordingError) -> UInt8 {
        let kind = base[position]
        guard position + 1 < end, base[position + 1] == UInt8(ascii: ":") else {
            throw error("not an evemu line: expected N:, I:, P:, B:, A:, E: or a # comment")
        }
        position += 2
        return kind
    }

    /// The rest of the line, trimmed: the device name.
    mutating func restAsName() throws(RecordingError) -> String {
        skipBlanks()
        var last = end
        while last > position, Self.isBlank(base[last - 1]) { last -= 1 }
        guard last > position else { throw error("empty device name") }
        guard last - position <= RecordingLimits.maximumNameLength else { throw error("device name too long") }
        let name = String(decoding: UnsafeBufferPointer(start: base + position, count: last - position), as: UTF8.self)
        position = end
        return name
    }

    /// After the last field: blanks and an optional comment.
    mutating func expectEnd() throws(RecordingError) {
        skipBlanks()
        if position < end && base[position] != UInt8(ascii: "#") {
            throw error("unexpected text after the last field")
        }
        position = end
    }

    /// Starts a field: skips blanks, then fails when the line has ended.
    @inline(__always) mutating func beginField(_ what: StaticString) throws(RecordingError) {
        skipBlanks()
        if position >= end || base[position] == UInt8(ascii: "#") {
            throw error("truncated line: missing the \(what)")
        }
    }

    /// Ends a field: the next byte must be a blank or the end of the line.
    @inline(__always) func endField(_ what: StaticString, kind: StaticString) throws(RecordingError) {
        if position < end && !Self.isBlank(base[position]) && base[position] != UInt8(ascii: "#") {
            throw error("bad \(kind) in \(what)")
        }
    }

    @inline(__always) static func hexValue(_ byte: UInt8) -> UInt32? {
        let digit = byte &- UInt8(ascii: "0")
        if digit < 10 { return UInt32(digit) }
        let letter = (byte | 0x20) &- UInt8(ascii: "a")
        if letter < 6 { return UInt32(letter) + 10 }
        return nil
    }

    /// A hexadecimal field of 1...maxDigits digits.
    @inline(__always) mutating func hex(maxDigits: Int, _ what: StaticString) throws(RecordingError) -> UInt32 {
        try beginField(what)
        var value: UInt32 = 0
        let digits = scanHexDigits(base, &position, end: end, into: &value)
        if digits == 0 { throw error("bad hex in \(what)") }
        try endField(what, kind: "hex")
        if digits > maxDigits { throw error("\(what) too large (more than \(maxDigits) hex digits)") }
        return value
    }

    /// A signed decimal field that fits in Int32.
    @inline(__always) mutating func decimal(_ what: StaticString) throws(RecordingError) -> Int32 {
        try beginField(what)
        let value: Int64
        switch scanSignedDecimal(base, &position, end: end) {
        case .value(let scanned): value = scanned
        case .tooLong: throw error("\(what) out of range")
        case .noDigits: throw error("bad decimal in \(what)")
        }
        try endField(what, kind: "decimal")
        guard let result = Int32(exactly: value) else { throw error("\(what) out of range") }
        return result
    }

    /// Hex bytes up to the end of the line, appended to `bytes`.
    mutating func appendBytes(to bytes: inout [UInt8], what: StaticString) throws(RecordingError) {
        while !atEndAfterBlanks {
            let byte = try hex(maxDigits: 2, what)
            guard bytes.count < RecordingLimits.maximumBitmaskBytes else {
                throw error("more than \(RecordingLimits.maximumBitmaskBytes) bytes of \(what)s")
            }
            bytes.append(UInt8(byte))
        }
        position = end
    }
}

/// What a signed decimal field held.
enum DecimalScan {
    case value(Int64)
    /// No digit after the optional sign.
    case noDigits
    /// More than 10 digits: no Int32 has that many.
    case tooLong
}

/// Reads an optional '-' and the decimal digits at `position`, moving past them; the
/// signed fields of the header's and the events' cursors.
@inline(__always)
func scanSignedDecimal(_ base: UnsafePointer<UInt8>, _ position: inout Int, end: Int) -> DecimalScan {
    var negative = false
    if position < end, base[position] == UInt8(ascii: "-") {
        negative = true
        position += 1
    }
    var value: Int64 = 0
    let count = scanDigits(base, &position, end: end, into: &value, limit: 10)
    if count == 0 { return .noDigits }
    if count > 10 { return .tooLong }
    return .value(negative ? -value : value)
}

/// Reads the decimal digits at `position` into `value`, moving past them, and says how many
/// it read: the one digit loop of both cursors. It stops one digit past `limit`, so that an
/// overlong field is known without reading it all; the value then wraps, never traps.
@inline(__always)
func scanDigits(_ base: UnsafePointer<UInt8>, _ position: inout Int, end: Int, into value: inout Int64, limit: Int = .max) -> Int {
    let start = position
    while position < end, position - start <= limit {
        let digit = base[position] &- UInt8(ascii: "0")
        if digit >= 10 { break }
        value = value &* 10 &+ Int64(digit)
        position += 1
    }
    return position - start
}

/// `scanDigits` in hexadecimal (evemu writes its hex fields without "0x").
@inline(__always)
func scanHexDigits(_ base: UnsafePointer<UInt8>, _ position: inout Int, end: Int, into value: inout UInt32, limit: Int = .max) -> Int {
    let start = position
    while position < end, position - start <= limit, let digit = LineCursor.hexValue(base[position]) {
        value = value &* 16 &+ digit
        position += 1
    }
    return position - start
}

/// "0x1a", "0x01": codes as evemu files write them.
func hex2(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + (digits.count < 2 ? "0" + digits : digits)
}
