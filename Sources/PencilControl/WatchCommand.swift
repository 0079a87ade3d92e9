import CommandLineOptions
import PencilClient
import PencilProtocol
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// `pencilctl watch [--device ID]`: a live view of the pen, redrawn in place: where it is on
/// a canvas with the strokes drawn so far, bars for pressure, distance (zOffset) and tilt,
/// the buttons held, and the last gesture with its action. `q` quits, `c` clears the canvas;
/// with pencild's demo pen attached, `d` and `s` make it double-tap and squeeze (PlayGesture).
/// Needs a terminal; `monitor` is the same stream as text.
public enum WatchCommand: PencilCommand {
    public static let name = "watch"
    public static let summary = "a live view of the pen: canvas, pressure, tilt, distance, gestures (q quits)"

    /// At most this often the screen is redrawn: a pen reports up to a few hundred frames a second.
    static let redrawInterval: Int64 = 33_000

    struct Options: Equatable {
        var devices: [String]?
    }

    static let parser = OptionParser<Options>(command: "pencilctl watch", options: [
        .deviceFilter { $0.devices = ($0.devices ?? []) + [$1] },
    ])

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        guard let options = parsed(arguments, into: Options(), io: io) else { return ExitCode.usage }
        let devices = options.devices
        let output = FileDescriptor(rawValue: 1)
        let input = FileDescriptor(rawValue: 0)
        guard Terminal.isTerminal(output) else {
            io.errors.line("pencilctl watch: standard output is not a terminal (pencilctl monitor prints the same events as text)")
            return ExitCode.usage
        }
        let path = DaemonSocket.path()
        let loop: MonitorLoop
        do {
            loop = try MonitorLoop(path: path, devices: devices, events: nil, extraSignals: [SIGWINCH])
        } catch {
            io.errors.line("pencilctl watch: \(error)")
            return ExitCode.software
        }

        var model = WatchModel(socketPath: path)
        var size = Terminal.size(of: output) ?? Terminal.Size(rows: 24, columns: 80)
        var dirty = true
        var lastDraw: Int64 = 0
        var savedMode: Terminal.SavedMode?
        if Terminal.isTerminal(input) {
            savedMode = try? Terminal.enterKeyMode(input)
            loop.keys = input
        }
        // The alternate screen keeps the user's scrollback; the cursor is hidden while drawing.
        io.output.write("\u{1B}[?1049h\u{1B}[?25l")
        defer {
            io.output.write("\u{1B}[?25h\u{1B}[?1049l")
            io.output.flush()
            if let savedMode { Terminal.restore(input, savedMode) }
        }

        func draw() {
            let lines = WatchScreen.render(model, size: size)
            io.output.write("\u{1B}[H" + lines.joined(separator: "\u{1B}[K\r\n") + "\u{1B}[K\u{1B}[J")
            dirty = false
            lastDraw = MonotonicClock.now()
        }
        loop.onKey = { key in
            switch key {
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): return .quit
            case UInt8(ascii: "c"), UInt8(ascii: "C"):
                model.clearCanvas()
                dirty = true
            case UInt8(ascii: "d"), UInt8(ascii: "D"), UInt8(ascii: "s"), UInt8(ascii: "S"):
                let gesture: Gesture = key == UInt8(ascii: "d") || key == UInt8(ascii: "D") ? .doubleTap : .squeeze
                model.status = play(gesture, on: model.demoPen, path: path)
                dirty = true
            default: break
            }
            return .none
        }
        loop.onResize = {
            size = Terminal.size(of: output) ?? size
            io.output.write("\u{1B}[2J")
            dirty = true
        }
        loop.onStatus = { status in
            model.status = status
            dirty = true
        }
        loop.waitLimit = {
            guard dirty else { return -1 }
            let wait = (lastDraw + redrawInterval - MonotonicClock.now()) / 1000
            return Int32(clamping: max(wait, 0))
        }
        loop.onIdle = {
            if dirty, MonotonicClock.now() - lastDraw >= redrawInterval { draw() }
        }
        draw()
        io.output.flush()
        return loop.run(io: io) { event in
            model.apply(event)
            dirty = true
        } onReconnect: {
            model.reset()
        }
    }

    /// Asks pencild's demo pen for `gesture`; what the status line says of it.
    static func play(_ gesture: Gesture, on demoPen: String?, path: String) -> String {
        guard let demoPen else {
            return "d and s make pencild's demo pen double-tap and squeeze: this pencild has none (pencild --demo)"
        }
        let parameters: JSONValue = .object([("gesture", .string(gesture.rawValue)), ("device", .string(demoPen))])
        do {
            _ = try DaemonCall.call(PenInterface.Method.playGesture.qualifiedName, parameters, path: path)
            return "\(demoPen) makes a \(TryCommand.word(gesture)) as you would with your preferences"
        } catch {
            if case .remote(let remote) = error, let reason = remote.parameters["reason"]?.stringValue {
                return "the demo pen cannot make a \(TryCommand.word(gesture)): " + TerminalMessage(untrusted: reason).text
            }
            return DaemonSocket.explain(error, path: path).text
        }
    }
}
