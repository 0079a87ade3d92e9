#if canImport(Glibc)
import Glibc
#endif
import PencilSystem

/// A recording could not be used. `description` reads `file:line: what is wrong`, as a
/// compiler reports; `exitCode` is the sysexits code a command exits with.
public struct RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The file is missing or cannot be read (EX_NOINPUT).
        case unreadable(Errno)
        /// The file was read but is not a usable evemu recording (EX_DATAERR).
        case malformed
    }

    public var kind: Kind
    public var file: String
    /// 1-based; nil when the problem is the whole file.
    public var line: Int?
    public var reason: String

    public init(kind: Kind, file: String, line: Int?, reason: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.reason = reason
    }

    static func malformed(_ file: String, _ line: Int?, _ reason: String) -> RecordingError {
        RecordingError(kind: .malformed, file: file, line: line, reason: reason)
    }

    /// 66 (EX_NOINPUT) for a file that cannot be read, 65 (EX_DATAERR) for bad content.
    public var exitCode: Int32 {
        if case .unreadable = kind { return 66 }
        return 65
    }

    public var description: String {
        if let line { return "\(file):\(line): \(reason)" }
        return "\(file): \(reason)"
    }
}

/// What the reader accepts, so that no input can make it use unbounded memory or time.
public enum RecordingLimits {
    /// Larger files are refused before they are read (a real hour of pen input is ~100 MiB).
    public static let maximumFileSize = 512 << 20
    /// Longer lines are malformed (evemu's longest, a DMI comment, is a few hundred bytes).
    public static let maximumLineLength = 16 << 10
    /// evemu writes at most 8 bytes per line; KEY_CNT needs 96. More is not a device.
    static let maximumBitmaskBytes = 128
    static let maximumNameLength = 1024
}

/// An evemu recording (`evemu-record` output): the device's description from its header
/// (`N:`, `I:`, `P:`, `B:`, `A:` lines) or from a separate `.desc`, and its events.
///
/// Times are microseconds, read as evemu reads them: `<seconds>.<microseconds>` as two
/// integers. A recording whose times go backwards is accepted, but no event is given a time
/// earlier than the one before it: such an event takes the previous event's time (counted
/// in `clampedTimeCount`), so that everything downstream sees time that never goes back.
public struct EvemuRecording: Sendable {
    public var description: DeviceDescription
    public var events: [InputEvent]
    /// Events whose recorded time was earlier than their predecessor's.
    public var clampedTimeCount: Int

    public init(description: DeviceDescription, events: [InputEvent], clampedTimeCount: Int = 0) {
        self.description = description
        self.events = events
        self.clampedTimeCount = clampedTimeCount
    }

    /// Parses a recording held in memory. `description`, when given, describes the device
    /// instead of the file's header (a `.desc` paired with a headerless `.events`).
    public init(parsing bytes: UnsafeRawBufferPointer, fileName: String,
                description: DeviceDescription? = nil) throws(RecordingError) {
        let header = try EvemuHeader(parsing: bytes, fileName: fileName)
        guard let device = description ?? header.description else {
            if header.eventsStart.offset < bytes.count {
                throw .malformed(fileName, header.eventsStart.line,
                                 "event before any device header (a headerless recording needs its .desc)")
            }
            throw .malformed(fileName, nil, "no device header (N: line) and no events: not an evemu recording")
        }
        var events: [InputEvent] = []
        events.reserveCapacity(EvemuEventDecoder.estimatedEventCount(byteCount: bytes.count - header.eventsStart.offset))
        let clamped = try EvemuEventDecoder.decode(bytes, from: header.eventsStart, fileName: fileName, into: &events)
        self.init(description: device, events: events, clampedTimeCount: clamped)
    }

    public init(parsing bytes: [UInt8], fileName: String, description: DeviceDescription? = nil) throws(RecordingError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(RecordingError) -> EvemuRecording in
                try EvemuRecording(parsing: raw, fileName: fileName, description: description)
            }
        }
        self = try result.get()
    }

    public init(parsing text: String, fileName: String, description: DeviceDescription? = nil) throws(RecordingError) {
        try self.init(parsing: Array(text.utf8), fileName: fileName, description: description)
    }

    /// Reads a device description: the header of a `.desc` (or of any recording; its events
    /// are not decoded).
    public static func parseDescription(_ bytes: UnsafeRawBufferPointer, fileName: String) throws(RecordingError) -> DeviceDescription {
        let header = try EvemuHeader(parsing: bytes, fileName: fileName)
        guard let description = header.description else {
            throw .malformed(fileName, header.eventsStart.offset < bytes.count ? header.eventsStart.line : nil,
                             "no device header (N: line): not an evemu device description")
        }
        return description
    }
}

extension DeviceDescription {
    /// The EV_SYN codes every evdev device has; descriptions list them the same way whatever
    /// they were read from.
    public static let synchronisationCodes: Set<UInt16> = [
        EventCode.SYN_REPORT, EventCode.SYN_CONFIG, EventCode.SYN_MT_REPORT, EventCode.SYN_DROPPED,
    ]
}

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
            guard var cursor = found else {
                offset = lineEnd + 1
                continue
            }
            let kind = try cursor.lineKind()
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

/// "0x1a", "0x01": codes as evemu files write them.
private func hex2(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + (digits.count < 2 ? "0" + digits : digits)
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

/// The line starting at `offset`: where it ends, and a cursor at its first field — nil for
/// a blank or comment line. A line over the length limit is malformed.
private func significantLine(_ base: UnsafePointer<UInt8>, from offset: Int, count: Int, file: String,
                             line: Int) throws(RecordingError) -> (end: Int, cursor: LineCursor?) {
    let lineEnd = endOfLine(base, from: offset, count: count)
    if lineEnd - offset > RecordingLimits.maximumLineLength {
        throw .malformed(file, line, "line longer than \(RecordingLimits.maximumLineLength) bytes")
    }
    var cursor = LineCursor(base: base, position: offset, end: lineEnd, file: file, line: line)
    cursor.skipBlanks()
    if cursor.atEnd || cursor.peek == UInt8(ascii: "#") { return (lineEnd, nil) }
    return (lineEnd, cursor)
}

/// The offset of the line's terminating newline, or `count` for an unterminated last line.
@inline(__always)
private func endOfLine(_ base: UnsafePointer<UInt8>, from offset: Int, count: Int) -> Int {
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
        let start = position
        while position < end, let digit = Self.hexValue(base[position]) {
            value = value &* 16 &+ digit
            position += 1
        }
        if position == start { throw error("bad hex in \(what)") }
        try endField(what, kind: "hex")
        if position - start > maxDigits { throw error("\(what) too large (more than \(maxDigits) hex digits)") }
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
                guard var cursor = found else {
                    offset = lineEnd + 1
                    continue
                }
                let kind = try cursor.lineKind()
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
        var start = position
        while position < end {
            let digit = base[position] &- UInt8(ascii: "0")
            if digit >= 10 { break }
            seconds = seconds &* 10 &+ Int64(digit)
            position += 1
        }
        if position == start { throw LineProblem(reason: "bad decimal in event time") }
        if position >= end || base[position] != UInt8(ascii: ".") {
            throw LineProblem(reason: "bad event time: expected <seconds>.<microseconds>")
        }
        if position - start > 12 { throw LineProblem(reason: "event time out of range") }
        position += 1
        start = position
        var microseconds: Int64 = 0
        while position < end {
            let digit = base[position] &- UInt8(ascii: "0")
            if digit >= 10 { break }
            microseconds = microseconds &* 10 &+ Int64(digit)
            position += 1
        }
        if position == start { throw LineProblem(reason: "bad event time: expected <seconds>.<microseconds>") }
        try fieldEnded("bad decimal in event time")
        if position - start > 6 { throw LineProblem(reason: "event time has more than 6 digits of microseconds") }
        return seconds &* 1_000_000 &+ microseconds
    }

    @inline(__always) mutating func hex(maxDigits: Int, missing: StaticString, bad: StaticString,
                                        tooLong: StaticString) throws(LineProblem) -> UInt32 {
        try beginField(missing)
        var value: UInt32 = 0
        let start = position
        while position < end, let digit = LineCursor.hexValue(base[position]) {
            value = value &* 16 &+ digit
            position += 1
            if position - start > maxDigits { throw LineProblem(reason: "\(tooLong)") }
        }
        if position == start { throw LineProblem(reason: "\(bad)") }
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

/// What a signed decimal field held.
enum DecimalScan {
    case value(Int64)
    /// No digit after the optional sign.
    case noDigits
    /// More than 10 digits: no Int32 has that many.
    case tooLong
}

/// Reads an optional '-' and the decimal digits at `position`, moving past them; the one
/// digit loop of the header's and the events' cursors.
@inline(__always)
func scanSignedDecimal(_ base: UnsafePointer<UInt8>, _ position: inout Int, end: Int) -> DecimalScan {
    var negative = false
    if position < end, base[position] == UInt8(ascii: "-") {
        negative = true
        position += 1
    }
    var value: Int64 = 0
    let start = position
    while position < end {
        let digit = base[position] &- UInt8(ascii: "0")
        if digit >= 10 { break }
        value = value &* 10 &+ Int64(digit)
        position += 1
        if position - start > 10 { return .tooLong }
    }
    if position == start { return .noDigits }
    return .value(negative ? -value : value)
}
