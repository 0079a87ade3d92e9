// The events of an evemu file: `E:` lines decoded straight from bytes, the hot path of a
// replay.

/// Decodes `E:` lines straight from bytes: no String per line, no allocation per event.
public enum EvemuEventDecoder {
    /// A generous guess of how many events `byteCount` bytes of E: lines hold, for reserving.
    public static func estimatedEventCount(byteCount: Int) -> Int { max(byteCount / 24, 0) }

    /// Appends the events of every `E:` line from `start` on to `events`; blank and comment
    /// lines are skipped, anything else is malformed. Returns how many times were clamped
    /// because they went backwards.
    public static func decode(_ bytes: UnsafeRawBufferPointer, from start: EvemuPosition, fileName: String,
                              into events: inout [InputEvent]) throws(RecordingError) -> Int {
        let count = bytes.count
        guard start.offset < count, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        var offset = start.offset
        var lineNumber = start.line - 1
        var lastTime = Int64.min
        var clamped = 0
        while offset < count {
            lineNumber += 1
            let lineStart = offset
            var fieldsStart = -1
            if base[offset] == UInt8(ascii: "E"), offset + 1 < count, base[offset + 1] == UInt8(ascii: ":") {
                fieldsStart = offset + 2
            } else {
                // Not the usual event line: a blank, a comment, an indented event, or an error.
                let (lineEnd, found) = try significantLine(base, from: offset, count: count, file: fileName, line: lineNumber)
                guard case (let kind, let cursor)? = found else { offset = lineEnd + 1; continue }
                switch kind {
                case UInt8(ascii: "E"):
                    fieldsStart = cursor.position
                case UInt8(ascii: "N"), UInt8(ascii: "I"), UInt8(ascii: "P"), UInt8(ascii: "B"), UInt8(ascii: "A"):
                    throw cursor.error("header line after the first event")
                default:
                    throw cursor.error("not an evemu line: expected E: or a # comment")
                }
            }
            var cursor = ByteCursor(base: base, position: fieldsStart, end: count)
            var event: InputEvent
            do {
                event = try cursor.eventFields()
            } catch {
                throw .malformed(fileName, lineNumber, error.reason)
            }
            if cursor.position - lineStart > RecordingLimits.maximumLineLength {
                throw .malformed(fileName, lineNumber, "line longer than \(RecordingLimits.maximumLineLength) bytes")
            }
            if event.time < lastTime {
                event.time = lastTime
                clamped += 1
            }
            lastTime = event.time
            events.append(event)
            offset = cursor.position + 1
        }
        return clamped
    }
}

/// What is wrong with an event line (the decoder adds the file and line).
struct LineProblem: Error {
    let reason: String
}

/// Reads the fields of event lines, where the line's end is found as the fields are read.
/// Holds no String, so the hot loop retains nothing.
struct ByteCursor {
    let base: UnsafePointer<UInt8>
    var position: Int
    /// The buffer's end; never read.
    let end: Int

    @inline(__always) static func isLineEnd(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "#")
    }

    /// `<sec>.<usec> <type> <code> <value>`, then blanks and an optional comment. Leaves
    /// `position` at the line's newline (or the buffer's end).
    @inline(__always) mutating func eventFields() throws(LineProblem) -> InputEvent {
        let time = try self.time()
        let type = try hex(maxDigits: 4, missing: "truncated line: missing the event type",
                           bad: "bad hex in event type", tooLong: "event type too large (more than 4 hex digits)")
        let code = try hex(maxDigits: 4, missing: "truncated line: missing the event code",
                           bad: "bad hex in event code", tooLong: "event code too large (more than 4 hex digits)")
        let value = try decimal()
        guard type <= UInt32(EventCode.EV_MAX) else {
            throw LineProblem(reason: "event type \(hex2(type)) out of range (largest is 0x1f)")
        }
        guard code <= UInt32(EventCode.KEY_MAX) else {
            throw LineProblem(reason: "event code \(hex2(code)) out of range (largest is 0x2ff)")
        }
        skipBlanks()
        if position < end {
            let byte = base[position]
            if byte == UInt8(ascii: "#") {
                position = endOfLine(base, from: position, count: end)
            } else if byte != UInt8(ascii: "\n") {
                throw LineProblem(reason: "unexpected text after the event value")
            }
        }
        return InputEvent(time: time, type: UInt16(truncatingIfNeeded: type), code: UInt16(truncatingIfNeeded: code),
                          value: value)
    }

    @inline(__always) mutating func skipBlanks() {
        while position < end, LineCursor.isBlank(base[position]) { position += 1 }
    }

    /// Skips blanks before a field; fails when the line ends first.
    @inline(__always) mutating func beginField(_ missing: StaticString) throws(LineProblem) {
        skipBlanks()
        if position >= end || Self.isLineEnd(base[position]) { throw LineProblem(reason: "\(missing)") }
    }

    /// The byte after a field must be a blank or the line's end.
    @inline(__always) func fieldEnded(_ bad: StaticString) throws(LineProblem) {
        if position < end {
            let byte = base[position]
            if !LineCursor.isBlank(byte) && !Self.isLineEnd(byte) { throw LineProblem(reason: "\(bad)") }
        }
    }

    /// `<seconds>.<microseconds>`, as two integers (evemu's own reading): "0.5" is 5 µs.
    @inline(__always) mutating func time() throws(LineProblem) -> Int64 {
        try beginField("truncated line: missing the event time")
        var seconds: Int64 = 0
        let secondsDigits = scanDigits(base, &position, end: end, into: &seconds)
        if secondsDigits == 0 { throw LineProblem(reason: "bad decimal in event time") }
        if position >= end || base[position] != UInt8(ascii: ".") {
            throw LineProblem(reason: "bad event time: expected <seconds>.<microseconds>")
        }
        if secondsDigits > 12 { throw LineProblem(reason: "event time out of range") }
        position += 1
        var microseconds: Int64 = 0
        let microsecondDigits = scanDigits(base, &position, end: end, into: &microseconds)
        if microsecondDigits == 0 { throw LineProblem(reason: "bad event time: expected <seconds>.<microseconds>") }
        try fieldEnded("bad decimal in event time")
        if microsecondDigits > 6 { throw LineProblem(reason: "event time has more than 6 digits of microseconds") }
        return seconds &* 1_000_000 &+ microseconds
    }

    @inline(__always) mutating func hex(maxDigits: Int, missing: StaticString, bad: StaticString,
                                        tooLong: StaticString) throws(LineProblem) -> UInt32 {
        try beginField(missing)
        var value: UInt32 = 0
        let digits = scanHexDigits(base, &position, end: end, into: &value, limit: maxDigits)
        if digits > maxDigits { throw LineProblem(reason: "\(tooLong)") }
        if digits == 0 { throw LineProblem(reason: "\(bad)") }
        try fieldEnded(bad)
        return value
    }

    @inline(__always) mutating func decimal() throws(LineProblem) -> Int32 {
        try beginField("truncated line: missing the event value")
        let value: Int64
        switch scanSignedDecimal(base, &position, end: end) {
        case .value(let scanned): value = scanned
        case .tooLong: throw LineProblem(reason: "event value out of range")
        case .noDigits: throw LineProblem(reason: "bad decimal in event value")
        }
        try fieldEnded("bad decimal in event value")
        guard let result = Int32(exactly: value) else { throw LineProblem(reason: "event value out of range") }
        return result
    }
}
