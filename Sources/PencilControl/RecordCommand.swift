import CEvdev
import PencilDevices
import PencilInput
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// `pencilctl record DEVICE [--duration SECONDS]`: records a live device
/// (`/dev/input/eventN`, or `eventN`) in evemu's format on standard output, for
/// `evemu-play`, `pencild --replay` and `pencilctl events`. Ends at Ctrl-C, SIGTERM, after
/// the duration, or when the device is unplugged; every frame is written as it ends.
public enum RecordCommand: PencilCommand {
    public static let name = "record"
    public static let usage = "record DEVICE [--duration SECONDS] > FILE"
    public static let summary = "record /dev/input/eventN in evemu format (Ctrl-C ends)"

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        var device: String?
        var duration: Int64?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--duration", index + 1 < arguments.count {
                guard let seconds = Double(arguments[index + 1]), seconds > 0, seconds < 1e9 else {
                    io.errors.line("pencilctl record: --duration needs a number of seconds")
                    return ExitCode.usage
                }
                duration = Int64(seconds * 1_000_000)
                index += 2
            } else if !argument.hasPrefix("-"), device == nil {
                device = argument
                index += 1
            } else {
                return usageError("unexpected argument \(argument)", io: io)
            }
        }
        guard let device else {
            io.errors.line("pencilctl record: which device? (e.g. /dev/input/event7; pencilctl devices lists pens)")
            return ExitCode.usage
        }
        let path = device.contains("/") ? device : "/dev/input/" + device

        let live: LiveDevice
        do {
            live = try LiveDevice(path: path)
        } catch {
            var message = "pencilctl record: cannot open \(path): \(error)"
            if error == .permissionDenied { message += " (join the 'input' group, or run as root)" }
            io.errors.line(message)
            return error == .noSuchFile ? ExitCode.noInput : ExitCode.unavailable
        }
        defer { live.close() }

        let epoll: Epoll
        let signals: SignalFD
        do {
            epoll = try Epoll(capacity: 4)
            signals = try SignalFD(signals: [SIGINT, SIGTERM])
            try epoll.add(live.fileDescriptor, events: .readable, token: 1)
            try epoll.add(signals.descriptor, events: .readable, token: 2)
        } catch {
            io.errors.line("pencilctl record: \(error)")
            return ExitCode.software
        }

        io.output.write(EvemuWriter.header(live.description, path: path))
        io.output.flush()
        io.errors.line("pencilctl record: recording \(path) (\(live.description.name)); Ctrl-C ends")
        io.errors.flush()

        var writer = EvemuWriter()
        let started = MonotonicClock.now()
        var stop = false
        var status = ExitCode.success
        while !stop {
            var timeout: Int32 = -1
            if let duration {
                let left = started + duration - MonotonicClock.now()
                if left <= 0 { break }
                timeout = Int32(clamping: (left + 999) / 1000)
            }
            var readable = false
            do {
                try epoll.wait(timeoutMilliseconds: timeout) { token, _ in
                    if token == 1 { readable = true } else if signals.nextSignal() != nil { stop = true }
                }
            } catch {
                io.errors.line("pencilctl record: \(error)")
                status = ExitCode.software
                break
            }
            guard readable else { continue }
            do {
                var more = true
                while more {
                    more = try live.read(limit: 256) { item in
                        io.output.write(writer.line(for: item))
                    } == .more
                }
            } catch {
                if error == .noDevice {
                    io.errors.line("pencilctl record: \(path) was unplugged")
                } else {
                    io.errors.line("pencilctl record: reading \(path): \(error)")
                    status = ExitCode.software
                }
                break
            }
            io.output.flush()
        }
        io.output.flush()
        io.errors.line("pencilctl record: \(writer.eventCount) events")
        return status
    }
}

/// evemu's text format, as `evemu-record` writes it and EvemuRecording reads it: a header
/// describing the device (N:, I:, P:, B: bitmasks in lines of 8 bytes, A: axes), then one
/// `E: seconds.microseconds type code value` line per event, times counted from the first.
struct EvemuWriter {
    private var origin: Int64?
    private(set) var eventCount = 0
    private var frameStart: Int64?

    /// Bitmask sizes in bytes of each type evemu writes (linux/input-event-codes.h *_MAX + 1
    /// bits, rounded up to whole lines of 8).
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

    static func header(_ device: DeviceDescription, path: String) -> String {
        var text = "# EVEMU 1.3\n"
        text += "# Recorded by pencilctl record from \(path)\n"
        text += "# Input device name: \"\(device.name)\"\n"
        text += "N: \(device.name)\n"
        text += "I: \(hex(device.bus, 4)) \(hex(device.vendor, 4)) \(hex(device.product, 4)) \(hex(device.version, 4))\n"
        text += "P: " + bytes(of: device.properties, count: 8) + "\n"
        let types = Set(device.codes.compactMap { $0.value.isEmpty && $0.key != EventCode.EV_SYN ? nil : $0.key })
        text += "B: 00 " + bytes(of: types.union([EventCode.EV_SYN]), count: 8) + "\n"
        for (type, count) in bitmaskTypes {
            let mask = bytes(of: device.codes[type] ?? [], count: count)
            let values = mask.split(separator: " ")
            for start in stride(from: 0, to: values.count, by: 8) {
                text += "B: \(hex(Int(type), 2)) " + values[start..<start + 8].joined(separator: " ") + "\n"
            }
        }
        for code in (device.codes[EventCode.EV_ABS] ?? []).sorted() {
            guard let info = device.absInfo[code] else { continue }
            text += "A: \(hex(Int(code), 2)) \(info.minimum) \(info.maximum) \(info.fuzz) \(info.flat) \(info.resolution)\n"
        }
        return text
    }

    /// The lines for one item read from the device. A resynchronisation (the kernel dropped
    /// events) is a comment: the device's real state that follows is written as ordinary
    /// events ending with a SYN_REPORT, which replays as one frame.
    mutating func line(for item: SourceItem) -> String {
        switch item {
        case .resynchronisation:
            return "# SYN_DROPPED: events were lost; the device's state follows\n"
        case .event(let event):
            eventCount += 1
            let start = origin ?? event.time
            origin = start
            let time = max(event.time - start, 0)
            var text = "E: \(time / 1_000_000).\(String(time % 1_000_000).leftPadded(to: 6, with: "0")) "
            text += "\(Self.hex(Int(event.type), 4)) \(Self.hex(Int(event.code), 4)) \(Self.zeroPadded(event.value))"
            text += "\t# " + Self.name(type: event.type, code: event.code)
            if event.isSynReport {
                let previous = frameStart ?? event.time
                text += " +\((event.time - previous) / 1000)ms"
                frameStart = event.time
            }
            return text + "\n"
        }
    }

    /// libevdev's names ("EV_ABS / ABS_X"), for the reader of the file.
    static func name(type: UInt16, code: UInt16) -> String {
        let typeName = libevdev_event_type_get_name(UInt32(type)).map { String(cString: $0) } ?? "type \(type)"
        let codeName = libevdev_event_code_get_name(UInt32(type), UInt32(code)).map { String(cString: $0) } ?? "code \(code)"
        return "\(typeName) / \(codeName)"
    }

    /// printf's "%04d", as evemu writes values.
    static func zeroPadded(_ value: Int32) -> String {
        value < 0 ? "-" + String(value.magnitude).leftPadded(to: 3, with: "0") : String(value).leftPadded(to: 4, with: "0")
    }

    static func hex(_ value: Int, _ digits: Int) -> String {
        String(UInt32(truncatingIfNeeded: value), radix: 16).leftPadded(to: digits, with: "0")
    }

    /// A little-endian bitmask of `bits`, as `count` two-digit hex bytes.
    static func bytes(of bits: Set<UInt16>, count: Int) -> String {
        var mask = [UInt8](repeating: 0, count: count)
        for bit in bits where Int(bit) / 8 < count {
            mask[Int(bit) / 8] |= 1 << (bit % 8)
        }
        return mask.map { hex(Int($0), 2) }.joined(separator: " ")
    }
}
