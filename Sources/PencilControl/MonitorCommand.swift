import CommandLineOptions
import PencilClient
import PencilProtocol
import PencilSystem
import Varlink

/// `pencilctl monitor [--json] [--focus] [--device ID]... [--events TYPE,...]`: prints the
/// daemon's events as they come, one line each: readable by default, the protocol's JSON with
/// `--json`. `--focus` claims the user's focus for as long as it runs (docs/protocol.md, "Which app
/// acts"), to try what apps and pencil-actions do. When the daemon goes away it waits for it and subscribes again; it ends at
/// Ctrl-C or SIGTERM. A daemon that is not there at the start is an error (69).
public enum MonitorCommand: PencilCommand {
    public static let name = "monitor"
    public static let summary = "print pen and gesture events from pencild as they happen (Ctrl-C ends)"

    struct Options: Equatable {
        var json = false
        var focus = false
        var devices: [String]?
        var events: [String]?
    }

    static let parser = OptionParser<Options>(command: "pencilctl monitor", options: [
        .flag("--json", help: ["print each event as the protocol's JSON"]) { $0.json = true },
        .flag("--focus", help: ["claim your focus while it runs, as the app in front would"]) { $0.focus = true },
        .deviceFilter { $0.devices = ($0.devices ?? []) + [$1] },
        .value("--events", valueName: "TYPE,...", help: ["only these event types"]) { options, list throws(UsageError) in
            let names = list.split(separator: ",").map { String($0).trimmingSpaces }
            for name in names where EventType(rawValue: name) == nil {
                let known = EventType.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("unknown event type \"\(name)\" (known: \(known))")
            }
            options.events = (options.events ?? []) + names
        },
    ])

    static func parse(_ arguments: [String]) -> Result<Options, UsageError> { parser.parse(arguments, into: Options()) }

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        guard let options = parsed(arguments, into: Options(), io: io) else { return ExitCode.usage }
        let path = DaemonSocket.path()
        var formatter = EventFormatter()
        var writer = JSONWriter(capacity: 1024)
        let loop: MonitorLoop
        do {
            loop = try MonitorLoop(path: path, devices: options.devices, events: options.events, claimingFocus: options.focus)
        } catch {
            io.errors.line("pencilctl monitor: \(error)")
            return ExitCode.software
        }
        return loop.run(io: io) { event in
            if options.json {
                writer.reset()
                writer.write(event)
                writer.bytes.append(UInt8(ascii: "\n"))
                io.output.write(writer.bytes)
            } else {
                io.output.rawLine(formatter.line(for: event))
            }
        } onReconnect: {
            formatter.reset()
        }
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = " ") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }

    func rightPadded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
