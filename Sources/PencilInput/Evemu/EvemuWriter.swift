import PencilProtocol

/// evemu's text format, as `evemu-record` writes it and EvemuRecording reads it: a header
/// describing the device (N:, I:, P:, B: bitmasks in lines of 8 bytes, A: axes), then one
/// `E: seconds.microseconds type code value` line per event. The one writer of the project:
/// `pencilctl record`, the tests' recordings and the benchmarks' all come from here.
///
/// Pure: it builds text, and the caller writes it where it goes.
public struct EvemuWriter {
    /// Where the written times count from.
    public enum TimeBase: Sendable {
        /// The first event is at 0.000000, as evemu-record writes.
        case firstEvent
        /// Each event keeps its own time (a script's or a test's clock).
        case asRecorded
    }

    /// A name for an event's type and code ("EV_ABS / ABS_X"), written as a comment after it.
    public typealias EventNamer = (_ type: UInt16, _ code: UInt16) -> String

    public let timeBase: TimeBase
    private let eventName: EventNamer?
    private var origin: Int64?
    private var frameStart: Int64?
    /// The events written so far.
    public private(set) var eventCount = 0

    /// With `eventName`, each line ends with a comment naming its event, and each SYN_REPORT
    /// the time since the previous one; without it, lines hold the fields alone.
    public init(timeBase: TimeBase = .firstEvent, eventName: EventNamer? = nil) {
        self.timeBase = timeBase
        self.eventName = eventName
    }

    /// Bitmask sizes in bytes of the types evemu always writes (linux/input-event-codes.h
    /// *_MAX + 1 bits, rounded up to whole lines of 8). Other types a device has are written
    /// as long as their largest code needs.
    static let bitmaskTypes: [(type: UInt16, bytes: Int)] = [
        (0x01, 96),  // EV_KEY, KEY_MAX 0x2ff
        (0x02, 8),   // EV_REL
        (0x03, 8),   // EV_ABS, ABS_MAX 0x3f
        (0x04, 8),   // EV_MSC
        (0x05, 8),   // EV_SW
        (0x11, 8),   // EV_LED
        (0x12, 8),   // EV_SND
        (0x14, 8),   // EV_REP
        (0x15, 16),  // EV_FF, FF_MAX 0x7f
    ]

    /// The device's header, after `# EVEMU 1.3` and one `#` line per comment. The name and
    /// the comments are written `escapedForTerminal`: a device's name is the kernel's (any
    /// bytes a uinput device was given), and a recording is printed on terminals (`pencilctl
    /// record`, `pencilctl mirror`), where an escape in it would act, and a newline would start
    /// a line of the file's own.
    public static func header(_ device: DeviceDescription, comments: [String] = []) -> String {
        var text = "# EVEMU 1.3\n"
        for comment in comments { text += "# \(comment.escapedForTerminal)\n" }
        text += "N: \(device.name.escapedForTerminal)\n"
        text += "I: \(hex(device.bus, 4)) \(hex(device.vendor, 4)) \(hex(device.product, 4)) \(hex(device.version, 4))\n"
        appendBitmask(prefix: "P:", bits: device.properties, bytes: 8, to: &text)
        let types = Set(device.codes.compactMap { $0.value.isEmpty && $0.key != EventCode.EV_SYN ? nil : $0.key })
        appendBitmask(prefix: "B: 00", bits: types.union([EventCode.EV_SYN]), bytes: 8, to: &text)
        var sizes = Dictionary(uniqueKeysWithValues: bitmaskTypes.map { ($0.type, $0.bytes) })
        for type in types where type != EventCode.EV_SYN && sizes[type] == nil { sizes[type] = 8 }
        for type in sizes.keys.sorted() {
            appendBitmask(prefix: "B: \(hex(Int(type), 2))", bits: device.codes[type] ?? [], bytes: sizes[type]!, to: &text)
        }
        for code in (device.codes[EventCode.EV_ABS] ?? []).sorted() {
            guard let info = device.absInfo[code] else { continue }
            text += "A: \(hex(Int(code), 2)) \(info.minimum) \(info.maximum) \(info.fuzz) \(info.flat) \(info.resolution)\n"
        }
        return text
    }

    /// A whole recording: the header and every event, times as `timeBase` says.
    public static func recording(_ device: DeviceDescription, _ events: [InputEvent], comments: [String] = [],
                                 timeBase: TimeBase = .asRecorded) -> String {
        var writer = EvemuWriter(timeBase: timeBase)
        var text = header(device, comments: comments)
        for event in events { writer.append(event, to: &text) }
        return text
    }

    /// The lines for one item read from a device. A resynchronisation (the kernel dropped
    /// events) is a comment: the device's real state that follows is written as ordinary
    /// events ending with a SYN_REPORT, which replays as one frame.
    public mutating func line(for item: SourceItem) -> String {
        switch item {
        case .resynchronisation:
            return "# SYN_DROPPED: events were lost; the device's state follows\n"
        case .event(let event):
            var text = ""
            append(event, to: &text)
            return text
        }
    }

    /// Appends the `E:` line of `event`. A time before the base is written as 0: the format
    /// has no negative times.
    public mutating func append(_ event: InputEvent, to text: inout String) {
        eventCount += 1
        var time = event.time
        if timeBase == .firstEvent {
            let start = origin ?? event.time
            origin = start
            time = event.time &- start
        }
        time = max(time, 0)
        text += "E: \(time / 1_000_000).\(Self.padded(String(time % 1_000_000), to: 6)) "
        text += "\(Self.hex(Int(event.type), 4)) \(Self.hex(Int(event.code), 4)) \(Self.zeroPadded(event.value))"
        if let eventName {
            text += "\t# " + eventName(event.type, event.code)
            if event.isSynReport {
                let previous = frameStart ?? event.time
                text += " +\((event.time - previous) / 1000)ms"
                frameStart = event.time
            }
        }
        text += "\n"
    }

    /// printf's "%04d", as evemu writes values.
    static func zeroPadded(_ value: Int32) -> String {
        value < 0 ? "-" + padded(String(value.magnitude), to: 3) : padded(String(value), to: 4)
    }

    static func hex(_ value: Int, _ digits: Int) -> String {
        padded(String(UInt32(truncatingIfNeeded: value), radix: 16), to: digits)
    }

    static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// A little-endian bitmask of `bits`, in lines of 8 two-digit hex bytes after `prefix`:
    /// at least `bytes` bytes, more when a bit lies beyond them.
    static func appendBitmask(prefix: String, bits: Set<UInt16>, bytes: Int, to text: inout String) {
        let needed = ((Int(bits.max() ?? 0) / 8) / 8 + 1) * 8
        var mask = [UInt8](repeating: 0, count: max(bytes, needed))
        for bit in bits { mask[Int(bit) / 8] |= 1 << (bit % 8) }
        for start in stride(from: 0, to: mask.count, by: 8) {
            text += prefix + " " + mask[start..<start + 8].map { hex(Int($0), 2) }.joined(separator: " ") + "\n"
        }
    }
}
