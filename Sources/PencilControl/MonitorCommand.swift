import PencilClient
import PencilProtocol
import PencilSystem
import Varlink
#if canImport(Glibc)
import Glibc
#endif

/// `pencilctl monitor [--json] [--focus] [--device ID]... [--events TYPE,...]`: prints the
/// daemon's events as they come, one line each: readable by default, the protocol's JSON with
/// `--json`. `--focus` claims the user's focus for as long as it runs (docs/protocol.md, "Which app
/// acts"), to try what apps and pencil-actions do. When the daemon goes away it waits for it and subscribes again; it ends at
/// Ctrl-C or SIGTERM. A daemon that is not there at the start is an error (69).
public enum MonitorCommand: PencilCommand {
    public static let name = "monitor"
    public static let usage = "monitor [--json] [--focus] [--device ID]... [--events TYPE,...]"
    public static let summary = "print pen and gesture events from pencild as they happen (Ctrl-C ends)"

    struct Options: Equatable {
        var json = false
        var focus = false
        var devices: [String]?
        var events: [String]?
    }

    static func parse(_ arguments: [String]) -> Result<Options, UsageProblem> {
        var options = Options()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            func value() -> String? {
                if let equals = argument.firstIndex(of: "=") { return String(argument[argument.index(after: equals)...]) }
                index += 1
                return index < arguments.count ? arguments[index] : nil
            }
            switch argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument {
            case "--json":
                options.json = true
            case "--focus":
                options.focus = true
            case "--device":
                guard let id = value(), !id.isEmpty else { return .failure(UsageProblem("--device needs a device id")) }
                options.devices = (options.devices ?? []) + [id]
            case "--events":
                guard let list = value() else { return .failure(UsageProblem("--events needs a list of event types")) }
                let names = list.split(separator: ",").map { String($0).trimmingSpaces }
                for name in names where EventType(rawValue: name) == nil {
                    let known = EventType.allCases.map(\.rawValue).joined(separator: ", ")
                    return .failure(UsageProblem("unknown event type \"\(name)\" (known: \(known))"))
                }
                options.events = (options.events ?? []) + names
            default:
                return .failure(UsageProblem("unexpected argument \(argument)"))
            }
            index += 1
        }
        return .success(options)
    }

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        let options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let problem):
            return usageError(problem.message, io: io)
        }
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

struct UsageProblem: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}

/// Subscribes, hands out events, and subscribes again when the daemon comes back. One
/// epoll set: the stream, SIGINT/SIGTERM (to end cleanly, output flushed), and for `watch`
/// the terminal's keys and size changes. While the daemon is away it tries again with the
/// client library's growing pauses, up to a second: nothing tells a client when a socket
/// reappears.
final class MonitorLoop {
    let path: String
    let devices: [String]?
    let events: [String]?
    /// Claim the user's focus on every subscription (`monitor --focus`).
    let claimingFocus: Bool
    private let epoll: Epoll
    private let signals: SignalFD
    private var stream: MonitorSubscription?
    /// The pauses between attempts to subscribe again while the daemon is away.
    private var backoff = ReconnectBackoff(initialMilliseconds: 100, maximumMilliseconds: 1000)

    enum Token: UInt64 { case stream = 1, signal, keys }

    /// What a key or a resize asks of the loop.
    enum KeyAction { case none, quit }

    var keys: FileDescriptor?
    var onKey: ((UInt8) -> KeyAction)?
    var onResize: (() -> Void)?
    /// Called when every available event has been handed out (a place to redraw or flush).
    var onIdle: (() -> Void)?
    /// Called with a line of status (disconnected, reconnected) for the user.
    var onStatus: ((String) -> Void)?
    /// How long the next wait may last, in milliseconds (-1: until something happens); a
    /// view uses it for a redraw it has put off.
    var waitLimit: (() -> Int32)?

    init(path: String, devices: [String]?, events: [String]?, claimingFocus: Bool = false, extraSignals: [Int32] = []) throws(Errno) {
        self.path = path
        self.devices = devices
        self.events = events
        self.claimingFocus = claimingFocus
        epoll = try Epoll(capacity: 8)
        signals = try SignalFD(signals: [SIGINT, SIGTERM] + extraSignals)
        try epoll.add(signals.descriptor, events: .readable, token: Token.signal.rawValue)
    }

    private func subscribe() throws(VarlinkClientError) {
        let stream = try MonitorSubscription(path: path, devices: devices, events: events, claimingFocus: claimingFocus)
        do {
            try epoll.add(stream.descriptor, events: .readable, token: Token.stream.rawValue)
        } catch {
            throw .io(error)
        }
        self.stream = stream
    }

    private func dropStream() {
        if let stream {
            epoll.remove(stream.descriptor)
            stream.close()
        }
        stream = nil
    }

    /// Runs until a signal or a quitting key; returns the exit status.
    func run(io: CommandIO, _ handle: (Event) -> Void, onReconnect: () -> Void = {}) -> Int32 {
        if onStatus == nil { onStatus = { io.errors.line("pencilctl: \($0)"); io.errors.flush() } }
        do {
            try subscribe()
        } catch {
            io.errors.line("pencilctl: " + DaemonSocket.explain(error, path: path))
            return ExitCode.unavailable
        }
        if let keys { try? epoll.add(keys, events: .readable, token: Token.keys.rawValue) }
        var status: Int32?
        while status == nil {
            var timeout: Int32 = stream == nil ? Int32(backoff.next()) : -1
            if let limit = waitLimit?(), limit >= 0 { timeout = timeout < 0 ? limit : min(timeout, limit) }
            var streamReady = false
            do {
                try epoll.wait(timeoutMilliseconds: timeout) { token, _ in
                    switch Token(rawValue: token) {
                    case .stream: streamReady = true
                    case .signal:
                        while let signal = signals.nextSignal() {
                            if signal == SIGWINCH { onResize?() } else { status = ExitCode.success }
                        }
                    case .keys:
                        var byte: UInt8 = 0
                        let count = withUnsafeMutableBytes(of: &byte) { (try? keys?.read(into: $0)) ?? 0 }
                        if count == 0 { keys.map(epoll.remove); keys = nil } else if onKey?(byte) == .quit { status = ExitCode.success }
                    case nil: break
                    }
                }
            } catch {
                io.errors.line("pencilctl: waiting failed: \(error)")
                return ExitCode.software
            }
            if streamReady, let stream {
                do {
                    // At most 16 reads of 64 KiB a turn (as PencilEvents): a flooding
                    // stream never keeps Ctrl-C, SIGTERM or the keys waiting.
                    let outcome = try stream.readAvailable(chunkLimit: 16) { (json) throws(VarlinkClientError) in
                        let event: PencilEvent
                        do { event = try PencilEvent(json: json) } catch { throw .protocolViolation("event: \(error)") }
                        // An event with a name this pencilctl does not know (a newer
                        // daemon's) is left out, as the protocol asks of older clients.
                        if let known = event.protocolEvent { handle(known) }
                    }
                    if outcome == .ended {
                        dropStream()
                        onStatus?("pencild at \(path) went away; waiting for it to come back")
                    }
                } catch {
                    if case .remote = error {
                        io.errors.line("pencilctl: " + DaemonSocket.explain(error, path: path))
                        return ExitCode.unavailable
                    }
                    dropStream()
                    onStatus?("pencild at \(path): \(error); waiting for it to come back")
                }
            } else if stream == nil, status == nil {
                if (try? subscribe()) != nil {
                    backoff.reset()
                    onReconnect()
                    onStatus?("pencild at \(path) is back")
                }
            }
            onIdle?()
            io.output.flush()
        }
        dropStream()
        io.output.flush()
        return status ?? ExitCode.success
    }
}

/// The readable form of events: one line each, times in seconds since the first event seen.
struct EventFormatter {
    private var origin: Int64?

    mutating func reset() { origin = nil }

    mutating func line(for event: Event) -> String {
        let start = origin ?? event.time
        origin = start
        var text = Self.seconds(event.time - start).leftPadded(to: 11) + "  "
        text += (event.device ?? "-").escapedForTerminal.rightPadded(to: 9) + " "
        var kind = event.type.rawValue
        if let phase = event.phase { kind += " " + phase.rawValue }
        text += kind.rightPadded(to: 16)
        text += Self.details(of: event)
        while text.last == " " { text.removeLast() }
        return text
    }

    static func details(of event: Event) -> String {
        var parts: [String] = []
        if let info = event.deviceInfo {
            parts.append("\"\(info.name.escapedForTerminal)\"")
            if let model = info.model { parts.append("(\(model.escapedForTerminal))") }
            parts.append("tools: " + info.tools.map(\.rawValue).joined(separator: ","))
            if !info.axes.isEmpty { parts.append("axes: " + info.axes.map(\.rawValue).joined(separator: ",")) }
            if !info.buttons.isEmpty { parts.append("buttons: " + info.buttons.map(\.rawValue).joined(separator: ",")) }
        }
        if let tool = event.tool { parts.append(toolName(tool)) }
        if let stylus = event.stylus { parts.append("\"\(stylus.name.escapedForTerminal)\"") }
        if let button = event.button { parts.append(button.rawValue) }
        if let action = event.action { parts.append("→ " + action.rawValue) }
        if let focus = event.focus { parts.append("focus: " + focus.rawValue) }
        if let pose = event.pose { parts.append(poseText(pose)) }
        if let preferences = event.preferences { parts.append(PrefsCommand.summary(of: preferences)) }
        return parts.joined(separator: "  ")
    }

    static func toolName(_ tool: Tool) -> String {
        tool.serial == 0 ? tool.type.rawValue : tool.type.rawValue + "#" + String(tool.serial, radix: 16)
    }

    static func poseText(_ pose: Pose) -> String {
        var parts = ["x \(fixed(pose.x, 3))", "y \(fixed(pose.y, 3))", "p \(fixed(pose.pressure, 3))"]
        if let z = pose.zOffset { parts.append("z \(fixed(z, 2))") }
        if let x = pose.tiltX, let y = pose.tiltY { parts.append("tilt \(signed(x, 1))/\(signed(y, 1))") }
        if let roll = pose.roll { parts.append("roll \(fixed(roll, 2))") }
        if let slider = pose.slider { parts.append("slider \(fixed(slider, 2))") }
        if let wheel = pose.wheel { parts.append("wheel \(signed(wheel, 2))") }
        return parts.joined(separator: " ")
    }

    static func seconds(_ microseconds: Int64) -> String {
        let sign = microseconds < 0 ? "-" : "+"
        let magnitude = microseconds.magnitude
        let fraction = String(magnitude % 1_000_000).leftPadded(to: 6, with: "0")
        return "\(sign)\(magnitude / 1_000_000).\(fraction)s"
    }

    /// `value` with `digits` decimals, without Foundation's formatters.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.0e15 else { return "\(value)" }
        let whole = Int64(scaled)
        let integer = whole / Int64(scale)
        var text = (value < 0 && whole != 0 ? "-" : "") + String(integer)
        if digits > 0 { text += "." + String(whole % Int64(scale)).leftPadded(to: digits, with: "0") }
        return text
    }

    static func signed(_ value: Double, _ digits: Int) -> String {
        let text = fixed(value, digits)
        return text.hasPrefix("-") ? text : "+" + text
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
