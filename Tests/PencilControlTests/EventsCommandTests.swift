import GestureRecognizer
import Foundation
import PencilWacom
import Testing
@testable import PencilControl
import PencilDevices
import PencilInput
import PencilProtocol
import PencilTestSupport

/// A file in the temporary directory, removed when the test is done with it.
private struct TemporaryFile {
    let path: String
    init(_ name: String, contents: String) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)")
        try contents.write(to: url, atomically: true, encoding: .utf8)
        path = url.path
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// The pen the recordings here are made with, and its header as `evemu-record` writes it.
private let pen = TestDevice.hid4800Pen.description
private let penHeader = EvemuWriter.header(pen)

/// The 1-based line of `text` that starts with `prefix`.
private func lineNumber(in text: String, startingWith prefix: String) -> Int? {
    text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix(prefix) }.map { $0 + 1 }
}

/// A pen comes in, touches down, moves, lifts and leaves.
private let stroke = """
    E: 10.000000 0001 0140 1
    E: 10.000000 0003 0000 1000
    E: 10.000000 0003 0001 2000
    E: 10.000000 0000 0000 0
    E: 10.010000 0003 0018 900
    E: 10.010000 0000 0000 0
    E: 10.020000 0003 0000 1100
    E: 10.020000 0000 0000 0
    E: 10.030000 0003 0018 0
    E: 10.030000 0000 0000 0
    E: 10.040000 0001 0140 0
    E: 10.040000 0000 0000 0

    """

private func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
    let io = CommandIO.capturing()
    let status = PencilControl.run(arguments: arguments, io: io)
    return (status, io.output.capturedText, io.errors.capturedText)
}

private func decodedEvents(_ output: String) throws -> [PencilProtocol.Event] {
    try output.split(separator: "\n").map { line in try PencilProtocol.Event(json: JSONReader.parse(String(line))) }
}

@Suite("pencilctl events")
struct EventsCommandTests {
    @Test("a recording prints its events, one JSON object a line, deviceAdded first and deviceRemoved last")
    func printsEvents() throws {
        let file = try TemporaryFile("stroke.evemu", contents: penHeader + stroke)
        defer { file.remove() }
        let result = run(["events", file.path])
        #expect(result.status == 0)
        #expect(result.errors == "")
        let events = try decodedEvents(result.output)
        #expect(events.map(\.type) == [.deviceAdded, .proximityIn, .hover, .hover, .tipDown, .motion, .tipUp, .hover,
                                       .hover, .proximityOut, .deviceRemoved])
        #expect(events.first?.deviceInfo?.name == pen.name)
        #expect(events.allSatisfy { $0.device == "replay0" })
        let recording = try EvemuRecording.load(path: file.path)
        #expect(events == penEvents(of: recording).asOnTheWire)
    }

    @Test("a headerless recording runs with --desc, in both spellings")
    func descriptionOption() throws {
        let desc = try TemporaryFile("pen.desc", contents: penHeader)
        let events = try TemporaryFile("pen.events", contents: stroke)
        defer { desc.remove(); events.remove() }
        let spaced = run(["events", events.path, "--desc", desc.path])
        let joined = run(["events", "--desc=\(desc.path)", events.path])
        #expect(spaced.status == 0 && joined.status == 0)
        #expect(spaced.output == joined.output)
        #expect(try decodedEvents(spaced.output).count == 11)
        // Without it: malformed at the first event.
        let bare = run(["events", events.path])
        #expect(bare.status == 65)
        #expect(bare.output == "")
        #expect(bare.errors == "\(events.path):1: event before any device header (a headerless recording needs its .desc)\n")
    }

    @Test("a missing file exits 66 and prints no events")
    func missingFile() {
        let result = run(["events", "no-such-recording.events"])
        #expect(result.status == 66)
        #expect(result.output == "")
        #expect(result.errors == "no-such-recording.events: cannot open: No such file or directory\n")
        let missingDesc = run(["events", "no-such-recording.events", "--desc", "no-such.desc"])
        #expect(missingDesc.status == 66)
        #expect(missingDesc.errors == "no-such.desc: cannot open: No such file or directory\n")
    }

    @Test("a malformed file exits 65 with file:line: what is wrong, and prints no events")
    func malformedFile() throws {
        let broken = stroke.replacingOccurrences(of: "E: 10.020000 0003 0000 1100", with: "E: 10.020000 00x3 0000 1100")
        let text = penHeader + broken
        let file = try TemporaryFile("broken.evemu", contents: text)
        defer { file.remove() }
        let result = run(["events", file.path])
        #expect(result.status == 65)
        #expect(result.output == "")
        let line = try #require(lineNumber(in: text, startingWith: "E: 10.020000 00x3"))
        #expect(line > lineNumber(in: text, startingWith: "E: ")!)
        #expect(result.errors == "\(file.path):\(line): bad hex in event type\n")
    }

    @Test("an absurd axis range exits 65 on its line")
    func absurdRange() throws {
        var reversed = pen
        reversed.absInfo[EventCode.ABS_PRESSURE] = AbsInfo(minimum: 2047, maximum: 0)
        let header = EvemuWriter.header(reversed)
        let file = try TemporaryFile("range.evemu", contents: header + stroke)
        defer { file.remove() }
        let result = run(["events", file.path])
        #expect(result.status == 65)
        let line = try #require(lineNumber(in: header, startingWith: "A: 18 2047 0 "))
        #expect(result.errors == "\(file.path):\(line): axis 0x18 has minimum 2047 ≥ maximum 0\n")
    }

    @Test("a recording of a device that is not a pen exits 65, saying what it is")
    func notAPen() throws {
        let mouse = EvemuWriter.recording(TestDevice.mouse.description, [
            InputEvent(time: 1_000_000, type: EventCode.EV_REL, code: 0, value: 1),
            InputEvent(time: 1_000_000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0),
        ])
        let file = try TemporaryFile("mouse.evemu", contents: mouse)
        defer { file.remove() }
        let result = run(["events", file.path])
        #expect(result.status == 65)
        #expect(result.output == "")
        #expect(result.errors == "\(file.path): not a pen device (a mouse: relative motion, no absolute X and Y): pencild would ignore it\n")
    }

    @Test("usage errors exit 64", arguments: [
        ["events"],
        ["events", "a.events", "b.events"],
        ["events", "a.events", "--desc"],
        ["events", "a.events", "--speed", "2"],
        ["events", "a.events", "--preferences", "{"],
        ["events", "a.events", "--preferences", "{\"tapButton\":\"stylus2\",\"squeezeButton\":\"stylus2\"}"],
        ["events", "a.events", "--preferences", "{\"noSuchPreference\":1}"],
    ])
    func usageErrors(arguments: [String]) {
        let result = run(arguments)
        #expect(result.status == 64)
        #expect(result.output == "")
        #expect(result.errors.hasPrefix("pencilctl events: "))
        #expect(result.errors.hasSuffix("usage: pencilctl events RECORDING [--desc DESC] [--preferences JSON]\n"))
    }

    @Test("valid preferences are accepted")
    func validPreferences() throws {
        let file = try TemporaryFile("stroke.evemu", contents: penHeader + stroke)
        defer { file.remove() }
        #expect(run(["events", file.path, "--preferences", "{\"doubleTapAction\":\"ignore\"}"]).status == 0)
    }

    @Test("the dispatcher: help lists the commands, an unknown command is a usage error")
    func dispatcher() {
        let help = run(["help"])
        #expect(help.status == 0)
        #expect(help.output.contains("pencilctl events RECORDING"))
        #expect(run([]).status == 64)
        let unknown = run(["frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.errors.hasPrefix("pencilctl: unknown command \"frobnicate\"\n"))
    }

    @Test("the Cintiq 22HDT recording prints what the replay reports", .requires(.recordings))
    func realRecording() throws {
        let path = SharedRecordings.path("Wacom Cintiq 22HDT Pen.events")
        let result = run(["events", path])
        #expect(result.status == 0)
        let printed = try decodedEvents(result.output)
        let recording = try EvemuRecording.load(path: path)
        // The same as the gesture pipeline reports; without the gestures, the pen events alone.
        let identity = Self.identity(of: recording.description)
        #expect(identity.model == "Wacom Cintiq 22HD touch", "libwacom knows the recorded tablet")
        let pipeline = try PenPipeline.events(of: recording.events, description: recording.description, identity: identity)
        #expect(printed == pipeline.asOnTheWire)
        let isGesture: (Event) -> Bool = { $0.type == .doubleTap || $0.type == .squeeze }
        #expect(printed.filter { !isGesture($0) } == penEvents(of: recording).asOnTheWire)
        // Each proximityIn names its pen, as libwacom does; the eraser end, the pen it belongs to.
        #expect(printed.first { $0.type == .proximityIn }?.stylus?.name == "Pro Pen")
        #expect(printed.first?.type == .deviceAdded && printed.last?.type == .deviceRemoved)
        #expect(printed.filter { $0.type == .proximityIn }.count == 21)
        #expect(printed.filter { $0.type == .doubleTap }.count == 1)
        #expect(printed.filter { $0.type == .squeeze && $0.phase == .ended }.count == 7)
        #expect(printed.filter { $0.type == .squeeze && $0.phase == .ended }.allSatisfy { $0.action == .showContextualPalette })
    }
}

extension EventsCommandTests {
    /// What libwacom knows of a recorded tablet: `pencilctl events` looks it up as pencild's
    /// replay does.
    static func identity(of device: DeviceDescription) -> PenIdentity {
        WacomDatabase.load()?.identity(of: device) ?? .unknown
    }

    /// A recording's pen events, with what libwacom knows of its tablet.
    func penEvents(of recording: EvemuRecording) -> [Event] {
        let pipeline = PenPipeline(tracker: PenTracker(description: recording.description, id: "replay0",
                                                       identity: Self.identity(of: recording.description)), stage: PenEventsOnly())
        return PenPipeline.events(of: recording.events, pipeline: pipeline)
    }
}

@Suite("pencilctl mirror")
struct MirrorCommandTests {
    /// A pen in range double-clicks its first button (60 ms held, 90 ms apart), then clicks it
    /// once more 600 ms later, and leaves.
    static let clicks = """
        E: 10.000000 0001 0140 1
        E: 10.000000 0003 0000 1000
        E: 10.000000 0003 0001 2000
        E: 10.000000 0000 0000 0
        E: 10.050000 0001 014b 1
        E: 10.050000 0000 0000 0
        E: 10.110000 0001 014b 0
        E: 10.110000 0000 0000 0
        E: 10.200000 0001 014b 1
        E: 10.200000 0000 0000 0
        E: 10.260000 0001 014b 0
        E: 10.260000 0000 0000 0
        E: 10.450000 0003 0000 1010
        E: 10.450000 0000 0000 0
        E: 10.800000 0001 014b 1
        E: 10.800000 0000 0000 0
        E: 10.860000 0001 014b 0
        E: 10.860000 0000 0000 0
        E: 11.300000 0003 0000 1020
        E: 11.300000 0000 0000 0
        E: 11.310000 0001 0140 0
        E: 11.310000 0000 0000 0

        """

    @Test("a recording's mirror: the double-tap's clicks withheld, the lone click passed on late")
    func mirrorOfClicks() throws {
        let file = try TemporaryFile("clicks.evemu", contents: penHeader + Self.clicks)
        defer { file.remove() }
        let result = run(["mirror", file.path])
        #expect(result.status == 0, "\(result.errors)")
        // What it prints is an evemu recording of the same device.
        let mirror = try EvemuRecording(parsing: result.output, fileName: "mirror")
        #expect(mirror.description.name == pen.name)
        let buttons = mirror.events.filter { $0.type == EventCode.EV_KEY && $0.code == EventCode.BTN_STYLUS }
        // The lone click at 10.8 s reaches apps 400 ms after its press, held its 60 ms.
        #expect(buttons.map(\.value) == [1, 0])
        #expect(buttons.map(\.time) == [11_200_000, 11_260_000])
        // Everything else is the pen's, in order.
        #expect(mirror.events.filter { $0.type == EventCode.EV_ABS }.map(\.value) == [1000, 2000, 1010, 1020])
        // The positive control: the events of the same recording, which report every click.
        let events = try decodedEvents(run(["events", file.path]).output)
        #expect(events.filter { $0.type == .buttonDown }.count == 3)
        #expect(events.filter { $0.type == .doubleTap }.count == 1)
    }

    @Test("a recording's name is printed escaped by mirror, and as \\u escapes by events; a plain name as it is")
    func hostileName() throws {
        // A recording whose N: line holds an OSC title, a C1 CSI, DEL and a right-to-left override.
        let hostile = "Evil\u{1B}]0;owned\u{07} Pen\u{9B}2J\u{7F}\u{202E}txt"
        let header = penHeader.replacingOccurrences(of: "N: \(pen.name)\n", with: "N: \(hostile)\n")
        let file = try TemporaryFile("hostile.evemu", contents: header + stroke)
        defer { file.remove() }
        let isControl = { (text: String) in text.unicodeScalars.contains { $0 != "\n" && $0 != "\t" && $0.isTerminalControl } }

        let mirror = run(["mirror", file.path])
        #expect(mirror.status == 0, "\(mirror.errors)")
        #expect(!isControl(mirror.output), "\(mirror.output)")
        #expect(mirror.output.contains(#"N: Evil\x1b]0;owned\x07 Pen\x9b2J\x7f\u{202e}txt"#))

        let events = run(["events", file.path])
        #expect(events.status == 0, "\(events.errors)")
        #expect(!isControl(events.output), "\(events.output)")
        #expect(events.output.contains(#""name":"Evil\u001b]0;owned\u0007 Pen\u009b2J\u007f\u202etxt""#))
        // Still the same name to a JSON reader.
        #expect(try decodedEvents(events.output).first?.deviceInfo?.name == hostile)

        // The positive control: the plain recording's name, in both.
        let plainFile = try TemporaryFile("plain.evemu", contents: penHeader + stroke)
        defer { plainFile.remove() }
        #expect(run(["mirror", plainFile.path]).output.contains("\nN: \(pen.name)\n"))
        #expect(try decodedEvents(run(["events", plainFile.path]).output).first?.deviceInfo?.name == pen.name)
    }

    @Test("a device that is not a pen has no mirror")
    func notAPen() throws {
        let file = try TemporaryFile("mouse.evemu", contents: EvemuWriter.header(TestDevice.mouse.description))
        defer { file.remove() }
        let result = run(["mirror", file.path])
        #expect(result.status == 65)
        #expect(result.errors.contains("not a pen device"))
    }
}
