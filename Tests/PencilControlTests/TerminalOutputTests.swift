import Foundation
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
@testable import PencilControl

/// A device named to take over root's terminal: an OSC title, a clear screen, a newline that
/// starts a line of its own, and a right-to-left override.
private let hostileName = "Evil Pen\u{1B}]0;owned\u{07}\u{1B}[2J\n<0>forged\u{202E}txt"
private let hostileID = "event7\u{1B}[2J"

private func hostileDevice() -> DeviceInfo {
    DeviceInfo(id: hostileID, name: hostileName, bus: 3, vendor: 0x56a, product: 0x27, direct: false,
               tools: [.pen], axes: [.pressure], buttons: [.stylus], model: "Model\u{9B}31m",
               styli: [Stylus(name: "Stylus\u{1B}[1m", kind: .general, buttons: 2, eraser: .none)])
}

/// True when `text` holds a control character a terminal acts on (newlines between lines aside).
private func hasControls(_ text: String) -> Bool {
    text.unicodeScalars.contains { scalar in
        scalar != "\n" && (scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value)
                           || [0x061c, 0x200e, 0x200f].contains(scalar.value) || (0x202a...0x202e).contains(scalar.value)
                           || (0x2066...0x2069).contains(scalar.value))
    }
}

@Suite("pencilctl shows the daemon's and devices' text escaped, wherever it prints for a person")
struct TerminalOutputTests {
    @Test("devices: the id, name, model and stylus of a hostile device are escaped; a plain one is shown as it is")
    func devices() {
        let text = DevicesCommand.describe(hostileDevice())
        #expect(!hasControls(text), "\(text)")
        #expect(text.hasPrefix("event7\\x1b[2J"))
        #expect(text.contains("Evil Pen\\x1b]0;owned\\x07\\x1b[2J\\x0a<0>forged\\u{202e}txt"))
        var plain = hostileDevice()
        plain.id = "event7"
        plain.name = "Wacom Intuos Pro M Pen"
        #expect(DevicesCommand.describe(plain).hasPrefix("event7    Wacom Intuos Pro M Pen\n"))
    }

    @Test("monitor: the device id and names in a readable line are escaped")
    func monitor() {
        var formatter = EventFormatter()
        let added = formatter.line(for: Event(type: .deviceAdded, time: 0, device: hostileID, deviceInfo: hostileDevice()))
        #expect(!hasControls(added), "\(added)")
        #expect(added.contains("event7\\x1b[2J"))
        let plain = formatter.line(for: Event(type: .proximityOut, time: 0, device: "event7"))
        #expect(plain == " +0.000000s  event7    proximityOut")
    }

    @Test("watch: every line drawn is escaped and still fits the terminal")
    func watch() {
        var model = WatchModel(socketPath: "/run/pencild/pencild.sock")
        model.apply(Event(type: .deviceAdded, time: 0, device: hostileID, deviceInfo: hostileDevice()))
        let size = Terminal.Size(rows: 30, columns: 80)
        let lines = WatchScreen.render(model, size: size)
        #expect(lines.allSatisfy { !hasControls($0) }, "\(lines)")
        #expect(lines.allSatisfy { $0.count <= size.columns })
        #expect(lines[1].hasPrefix("event7\\x1b[2J  Evil Pen\\x1b]0;owned"))
        model.apply(Event(type: .deviceRemoved, time: 1, device: hostileID))
        #expect(!hasControls(WatchScreen.render(model, size: size)[1]))
    }

    @Test("a line for a person: pencilctl's own words as written, line breaks and all; every value put in is escaped")
    func ownWordsAndValues() {
        let io = CommandIO.capturing()
        let said = "NoSuchDevice(device: \"x\n<0>y\u{1B}[2J\")"
        io.errors.line("pencilctl: pencild said \(said)\nsecond line of pencilctl's own")
        #expect(io.errors.capturedText == "pencilctl: pencild said NoSuchDevice(device: \"x\\x0a<0>y\\x1b[2J\")\nsecond line of pencilctl's own\n")
        // A message put into another is kept as it was made: its values were escaped once.
        let inner: TerminalMessage = "first\nname: \("a\u{1B}b")"
        io.output.line("outer: \(inner)")
        #expect(io.output.capturedText == "outer: first\nname: a\\x1bb\n")
        // A plain value is shown as it is.
        let plainIO = CommandIO.capturing()
        plainIO.output.line("device \("event7") is \("Stylet Wacom à pointe fine ✏️")")
        #expect(plainIO.output.capturedText == "device event7 is Stylet Wacom à pointe fine ✏️\n")
        // JSON is written raw: its writer escapes what a terminal acts on.
        plainIO.output.rawLine(#"{"name":"a\u001bb"}"#)
        #expect(plainIO.output.capturedText.hasSuffix(#"{"name":"a\u001bb"}"# + "\n"))
    }

    @Test("pencild not running: pencilctl's explanation keeps its line breaks, the socket path from the environment is escaped")
    func absentDaemonMessage() throws {
        let hostile = try run(["devices"], socket: "/nonexistent-dir/pen\u{1B}[2J\ncild.sock")
        #expect(hostile.status == ExitCode.unavailable)
        let lines = hostile.errors.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "pencilctl: cannot connect to /nonexistent-dir/pen\\x1b[2J\\x0acild.sock: No such file or directory: pencild is not running there.", "\(hostile.errors)")
        #expect(lines.contains("Start it: sudo systemctl start pencild.socket (system service),"), "\(hostile.errors)")
        #expect(lines.contains("or set PENCILD_SOCKET to the socket it listens on."), "\(hostile.errors)")
        #expect(!hostile.errors.contains("\\x0aStart") && !hasControls(hostile.errors), "\(hostile.errors)")
        // The positive control: a plain path is shown as it is, in the same four lines.
        let plain = try run(["devices"], socket: "/nonexistent-dir/pencild.sock")
        #expect(plain.errors.hasPrefix("pencilctl: cannot connect to /nonexistent-dir/pencild.sock: No such file or directory: pencild is not running there.\nStart it: "), "\(plain.errors)")
        #expect(plain.errors.split(separator: "\n").count == 4, "\(plain.errors)")
    }

    /// Runs the pencilctl binary as a person would, with PENCILD_SOCKET set.
    private func run(_ arguments: [String], socket: String) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FileSystem.directoryName(of: RunningDaemon.binaryPath) + "/pencilctl")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PENCILD_SOCKET"] = socket
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("--json: devices and monitor write the daemon's text with \\u escapes, JSON that reads back whole")
    func json() throws {
        // monitor --json writes each event as the daemon's own writer does.
        var writer = JSONWriter()
        writer.write(Event(type: .deviceAdded, time: 0, device: hostileID, deviceInfo: hostileDevice()))
        let monitor = String(decoding: writer.bytes, as: UTF8.self)
        #expect(!hasControls(monitor), "\(monitor)")
        #expect(monitor.contains(#""name":"Evil Pen\u001b]0;owned\u0007\u001b[2J\n<0>forged\u202etxt""#))
        #expect(monitor.contains(#""model":"Model\u009b31m""#))
        let event = try Event(json: JSONReader.parse(monitor))
        #expect(event.device == hostileID && event.deviceInfo == hostileDevice())
        // devices --json writes the daemon's reply as it read it.
        let devices = try JSONReader.parse(monitor)["deviceInfo"].map(\.jsonText) ?? ""
        #expect(!hasControls(devices) && devices.contains(#"Stylus\u001b[1m"#), "\(devices)")
        // The positive control: a plain device's text is written as it is.
        var plain = hostileDevice()
        plain.name = "Stylet Wacom à pointe fine ✏️"
        writer.reset()
        writer.write(plain)
        #expect(String(decoding: writer.bytes, as: UTF8.self).contains(#""name":"Stylet Wacom à pointe fine ✏️""#))
    }

    @Test("actions: the bindings file's path and its commands are shown escaped")
    func actions() throws {
        let io = CommandIO.capturing()
        _ = ActionsCommand.show(config: "/nonexistent-dir/act\u{1B}[2Jions.conf", io: io, socket: "/nonexistent-dir/pencild.sock")
        #expect(!hasControls(io.output.capturedText), "\(io.output.capturedText)")
        #expect(io.output.capturedText.contains("bindings: /nonexistent-dir/act\\x1b[2Jions.conf"))
        #expect(!hasControls(io.errors.capturedText))
    }
}
