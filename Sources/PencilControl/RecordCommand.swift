import CommandLineOptions
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
    public static let summary = "record /dev/input/eventN in evemu format on standard output (Ctrl-C ends)"

    struct Options: Equatable {
        var device = ""
        /// Microseconds; nil: until Ctrl-C, SIGTERM or the unplug.
        var duration: Int64?
    }

    static let parser = OptionParser<Options>(command: "pencilctl record", options: [
        .value("--duration", valueName: "SECONDS", help: ["stop after SECONDS"]) { options, text throws(UsageError) in
            guard let seconds = Double(text), seconds > 0, seconds < 1e9 else { throw UsageError("--duration needs a number of seconds") }
            options.duration = Int64(seconds * 1_000_000)
        },
    ], operands: [
        Operand("DEVICE", missing: "which device? (e.g. /dev/input/event7; pencilctl devices lists pens)") { $0.device = $1 },
    ])

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        guard let options = parsed(arguments, into: Options(), io: io) else { return ExitCode.usage }
        let device = options.device
        let duration = options.duration
        let path = device.contains("/") ? device : "/dev/input/" + device

        let live: LiveDevice
        do {
            live = try LiveDevice(path: path)
        } catch {
            let hint: TerminalMessage = error == .permissionDenied ? " (join the 'input' group, or run as root)" : ""
            io.errors.line("pencilctl record: cannot open \(path): \(error)\(hint)")
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

        io.output.write(EvemuWriter.header(live.description, comments: [
            "Recorded by pencilctl record from \(path)", "Input device name: \"\(live.description.name)\"",
        ]))
        io.output.flush()
        io.errors.line("pencilctl record: recording \(path) (\(live.description.name)); Ctrl-C ends")
        io.errors.flush()

        var writer = EvemuWriter(timeBase: .firstEvent, eventName: EvdevNames.event)
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
