import Testing
import PencilDevices
import PencilInput
import PencilSystem
import PencilTestSupport

/// A small Cintiq-like header written as evemu writes it.
private let header = """
    # EVEMU 1.3
    # Input device name: "Test Pen"
    N: Test Pen
    I: 0003 056a 0350 000b
    P: 02 00 00 00 00 00 00 00
    B: 00 1b 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 01 1c 00 00 00 00 00 00
    B: 03 03 00 00 0d 00 00 00 00
    B: 04 01 00 00 00 00 00 00 00
    A: 00 0 69920 0 0 200
    A: 01 0 39980 0 0 200
    A: 18 0 8191 0 0
    A: 1a -64 63 1 0 57
    A: 1b -64 63 1 0 57

    """

private func parse(_ text: String, description: DeviceDescription? = nil) throws(RecordingError) -> EvemuRecording {
    try EvemuRecording(parsing: text, fileName: "test.evemu", description: description)
}

/// The error a malformed recording gives (the test fails when it parses).
private func failure(_ text: String, description: DeviceDescription? = nil) -> RecordingError? {
    do {
        _ = try parse(text, description: description)
        return nil
    } catch {
        return error
    }
}

@Suite("Evemu recordings")
struct EvemuRecordingTests {
    @Test("a header describes the device: name, ids, properties, keys over several B: lines, axes")
    func headerDescribesDevice() throws {
        let recording = try parse(header)
        let device = recording.description
        #expect(device.name == "Test Pen")
        #expect(device.bus == 3 && device.vendor == 0x056a && device.product == 0x0350 && device.version == 0x0b)
        #expect(device.properties == [EventCode.INPUT_PROP_DIRECT])
        // The sixth B: 01 line holds codes 0x140...0x17f: 01 → BTN_TOOL_PEN, 1c → 0x14a, 0x14b, 0x14c.
        #expect(device.codes[EventCode.EV_KEY] == [EventCode.BTN_TOOL_PEN, EventCode.BTN_TOUCH, EventCode.BTN_STYLUS, EventCode.BTN_STYLUS2])
        #expect(device.codes[EventCode.EV_MSC] == [EventCode.MSC_SERIAL])
        #expect(device.codes[EventCode.EV_SYN] == DeviceDescription.synchronisationCodes)
        #expect(device.hasAbs(EventCode.ABS_X) && device.hasAbs(EventCode.ABS_TILT_Y))
        #expect(device.absInfo[EventCode.ABS_X] == AbsInfo(minimum: 0, maximum: 69920, resolution: 200))
        // Four numbers: no resolution.
        #expect(device.absInfo[EventCode.ABS_PRESSURE] == AbsInfo(minimum: 0, maximum: 8191))
        #expect(device.absInfo[EventCode.ABS_TILT_X] == AbsInfo(minimum: -64, maximum: 63, fuzz: 1, resolution: 57))
        #expect(recording.events.isEmpty)
    }

    @Test("E lines: time as seconds and microseconds, hex type and code, signed value, trailing comments")
    func eventLines() throws {
        let recording = try parse(header + """
            E: 12.000001 0001 0140 1\t# EV_KEY / BTN_TOOL_PEN 1
            E: 12.000001 0003 001a -64
            E: 12.5 0003 0000 69920
            E: 12.500000 0000 0000 0000\t# ------------ SYN_REPORT (0) ----------
            """)
        #expect(recording.events == [
            InputEvent(time: 12_000_001, type: EventCode.EV_KEY, code: EventCode.BTN_TOOL_PEN, value: 1),
            InputEvent(time: 12_000_001, type: EventCode.EV_ABS, code: EventCode.ABS_TILT_X, value: -64),
            // evemu reads "12.5" as 12 s and 5 µs.
            InputEvent(time: 12_000_005, type: EventCode.EV_ABS, code: EventCode.ABS_X, value: 69920),
            InputEvent(time: 12_500_000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0),
        ])
        #expect(recording.clampedTimeCount == 0)
    }

    @Test("times that go backwards are kept at the previous time, and counted")
    func backwardsTimesAreClamped() throws {
        let recording = try parse(header + """
            E: 5.000200 0003 0000 10
            E: 5.000100 0000 0000 0
            E: 5.000300 0000 0000 0
            """)
        #expect(recording.events.map(\.time) == [5_000_200, 5_000_200, 5_000_300])
        #expect(recording.clampedTimeCount == 1)
    }

    @Test("CRLF line ends and a last line without a newline are accepted")
    func lineEnds() throws {
        let text = (header + "E: 1.000000 0003 0000 7\r\nE: 1.000000 0000 0000 0").replacingOccurrences("\n", "\r\n")
        let recording = try parse(text)
        #expect(recording.events.count == 2)
        #expect(recording.description.name == "Test Pen")
    }

    @Test("a headerless recording takes the device from its .desc")
    func headerlessWithDescription() throws {
        let description = try parse(header).description
        let recording = try parse("E: 0.000001 0003 0000 1\nE: 0.000001 0000 0000 0\n", description: description)
        #expect(recording.description == description)
        #expect(recording.events.count == 2)
    }

    @Test("malformed lines are reported with file, line and what is wrong", arguments: [
        // (text after the 19-line header, line, reason)
        ("E: 1.000000 0003 0000\n", 20, "truncated line: missing the event value"),
        ("E: 1.000000 0003\n", 20, "truncated line: missing the event code"),
        ("E: 1.000000 0003 0000 1\nE: 1.0000", 21, "truncated line: missing the event type"),
        ("E: 1.000000 00g3 0000 1\n", 20, "bad hex in event type"),
        ("E: 1.000000 0003 zz 1\n", 20, "bad hex in event code"),
        ("E: 1.000000 0003 0000 1x\n", 20, "bad decimal in event value"),
        ("E: 1.000000 0003 0000 99999999999\n", 20, "event value out of range"),
        ("E: 1,000000 0003 0000 1\n", 20, "bad event time: expected <seconds>.<microseconds>"),
        ("E: 1.0000001 0003 0000 1\n", 20, "event time has more than 6 digits of microseconds"),
        ("E: 1.000000 0020 0000 1\n", 20, "event type 0x20 out of range (largest is 0x1f)"),
        ("E: 1.000000 0003 0000 1 2\n", 20, "unexpected text after the event value"),
        ("E: 1.000000 0003 0000 1\nA: 19 0 63 0 0\n", 21, "header line after the first event"),
        ("Q: 1\n", 20, "unknown line \"Q:\": expected N:, I:, P:, B:, A:, E: or a # comment"),
        ("A: 19 0 63 0\n", 20, "truncated line: missing the axis flat"),
        ("A: 19 0 x3 0 0\n", 20, "bad decimal in axis maximum"),
        ("A: 19 63 0 0 0\n", 20, "axis 0x19 has minimum 63 ≥ maximum 0"),
        ("A: 18 100 100 0 0 0\n", 20, "axis 0x18 has minimum 100 ≥ maximum 100"),
        ("A: 40 0 1 0 0\n", 20, "axis code 0x40 out of range (largest is 0x3f)"),
        ("B: 01 00 0g\n", 20, "bad hex in event bit"),
        ("N: Another Pen\n", 20, "a second N: line (one device per file)"),
    ])
    func malformedLines(tail: String, line: Int, reason: String) {
        let error = failure(header + tail)
        #expect(error == RecordingError(kind: .malformed, file: "test.evemu", line: line, reason: reason))
        #expect(error?.exitCode == 65)
        #expect(error?.description == "test.evemu:\(line): \(reason)")
    }

    @Test("an absurd range is reported on its own line")
    func absurdRangeLine() {
        let text = "N: Pen\nI: 0003 056a 0001 0001\n# comment\nA: 00 0 100 0 0\nA: 01 5000 -5000 0 0 10\n"
        #expect(failure(text)?.description == "test.evemu:5: axis 0x01 has minimum 5000 ≥ maximum -5000")
    }

    @Test("a 0..0 ABS_MISC, as Wacom declares it, is not an absurd range")
    func emptyMiscRange() throws {
        let recording = try parse(header + "A: 28 0 0 0 0\n")
        #expect(recording.description.absInfo[EventCode.ABS_MISC] == AbsInfo(minimum: 0, maximum: 0))
    }

    @Test("events before any header need a .desc")
    func eventsWithoutHeader() {
        let error = failure("# recorded without a header\nE: 0.000001 0003 0000 1\n")
        #expect(error?.line == 2)
        #expect(error?.reason == "event before any device header (a headerless recording needs its .desc)")
    }

    @Test("a header without N: is malformed")
    func headerWithoutName() {
        let error = failure("I: 0003 056a 0001 0001\nA: 00 0 100 0 0\nE: 0.000001 0000 0000 0\n")
        #expect(error?.line == 3)
        #expect(error?.reason == "the device header has no N: (name) line")
    }

    @Test("an empty file and a text that is not evemu are malformed")
    func notEvemu() {
        #expect(failure("")?.reason == "no device header (N: line) and no events: not an evemu recording")
        #expect(failure("version: 1\nndevices: 1\n")?.description == "test.evemu:1: not an evemu line: expected N:, I:, P:, B:, A:, E: or a # comment")
    }

    @Test("a line longer than the limit is malformed, not read on")
    func longLine() {
        let long = "# " + String(repeating: "x", count: RecordingLimits.maximumLineLength) + "\n"
        #expect(failure(header + long)?.reason == "line longer than \(RecordingLimits.maximumLineLength) bytes")
        let longEvent = "E: 1.000000 0003 0000 1" + String(repeating: " ", count: RecordingLimits.maximumLineLength) + "\n"
        #expect(failure(header + longEvent)?.line == 20)
    }

    @Test("a missing file is unreadable (66), not malformed")
    func missingFile() {
        do {
            _ = try EvemuRecording.load(path: "/nonexistent/pen.events")
            Issue.record("a missing file loaded")
        } catch {
            #expect(error.kind == .unreadable)
            #expect(error.exitCode == 66)
            #expect(error.description == "/nonexistent/pen.events: cannot open: No such file or directory")
        }
    }

    @Test("a directory is unreadable (66)")
    func directory() {
        do {
            _ = try EvemuRecording.load(path: "/")
            Issue.record("a directory loaded")
        } catch {
            #expect(error.exitCode == 66)
        }
    }

    @Test("no input crashes the reader: mutated recordings either parse or fail with a line")
    func mutatedInputNeverCrashes() {
        let valid = Array((header + """
            E: 12.000001 0001 0140 1\t# EV_KEY / BTN_TOOL_PEN 1
            E: 12.000001 0003 001a -64
            E: 12.500000 0000 0000 0000
            """).utf8)
        let alphabet = Array("0123456789abcdefxEAPBNI:.-# \t\r\n\u{0}\u{ff}".utf8)
        var random = SplitMix64(seed: 0x5eed)
        var parsed = 0
        var rejected = 0
        for _ in 0..<3000 {
            var bytes = valid
            for _ in 0..<Int(random.next() % 4 + 1) {
                let index = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[index] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: index)
                default: bytes.removeSubrange(index...)
                }
                if bytes.isEmpty { break }
            }
            do {
                let recording = try EvemuRecording(parsing: bytes, fileName: "fuzz")
                #expect(recording.events.count <= 3)
                parsed += 1
            } catch {
                if error.line != nil { #expect(error.line! >= 1 && error.line! <= 40) }
                rejected += 1
            }
        }
        #expect(parsed > 0 && rejected > 0)
    }
}

@Suite("Evemu recordings: the shared real recordings", .requires(.recordings))
struct SharedRecordingParsingTests {
    @Test("the Cintiq 22HDT header has four-number A lines")
    func cintiq22HDT() throws {
        let recording = try EvemuRecording.load(path: SharedRecordings.path("Wacom Cintiq 22HDT Pen.events"))
        let device = recording.description
        #expect(device.name == "Wacom Cintiq 22HDT Pen")
        #expect((device.bus, device.vendor, device.product, device.version) == (3, 0x056a, 0x005b, 0x0209))
        #expect(device.hasProperty(EventCode.INPUT_PROP_DIRECT))
        #expect(device.absInfo[EventCode.ABS_X] == AbsInfo(minimum: 0, maximum: 95840, fuzz: 4))
        #expect(device.absInfo[EventCode.ABS_Z] == AbsInfo(minimum: -900, maximum: 899))
        for tool in EventCode.toolKeys where tool.tool != .mouse && tool.tool != .lens {
            #expect(device.hasKey(tool.code))
        }
        #expect(recording.events.count == 28518)
        #expect(recording.events.first == InputEvent(time: 1_369_413_636_405_673, type: EventCode.EV_ABS, code: EventCode.ABS_X, value: 71789))
        #expect(recording.clampedTimeCount == 0)
    }

    @Test("the Dell Canvas header has five-number A lines with tilt resolution")
    func dellCanvas() throws {
        let recording = try EvemuRecording.load(path: SharedRecordings.path("dell_canvas_pen.evemu"))
        #expect(recording.description.name == "Wacom ISD-V4 Pen")
        #expect(recording.description.absInfo[EventCode.ABS_TILT_X] == AbsInfo(minimum: -9000, maximum: 9000, resolution: 5730))
        #expect(recording.events.count == 2839)
        #expect(recording.events.first?.time == 1)
    }

    @Test("headerless Intuos4 recordings pair with their .desc", arguments: [
        ("Wacom Intuos4 6x9.stylus-move.events", 2181),
        ("Wacom Intuos4 6x9.stylus-drag.events", 1799),
        ("Wacom Intuos4 6x9.stylus-tap.events", 396),
    ])
    func intuos4(file: String, eventCount: Int) throws {
        let recording = try EvemuRecording.load(path: SharedRecordings.path(file),
                                                descriptionPath: SharedRecordings.path("Wacom Intuos4 6x9 Pen.desc"))
        #expect(recording.description.name == "Wacom Intuos4 6x9 Pen")
        #expect(recording.description.absInfo[EventCode.ABS_TILT_X] == AbsInfo(minimum: -64, maximum: 63, resolution: 57))
        #expect(recording.events.count == eventCount)
    }

    @Test("a headerless recording without its .desc is malformed at its first event")
    func intuos4WithoutDescription() {
        let path = SharedRecordings.path("Wacom Intuos4 6x9.stylus-tap.events")
        do {
            _ = try EvemuRecording.load(path: path)
            Issue.record("a headerless recording loaded without a .desc")
        } catch {
            #expect(error.exitCode == 65)
            #expect(error.description == "\(path):1: event before any device header (a headerless recording needs its .desc)")
        }
    }

    @Test("every shared recording parses, and its times never go back")
    func everyRecording() throws {
        for (events, desc) in SharedRecordings.all {
            let recording = try EvemuRecording.load(path: SharedRecordings.path(events),
                                                    descriptionPath: desc.map(SharedRecordings.path))
            #expect(!recording.events.isEmpty, "\(events)")
            #expect(zip(recording.events, recording.events.dropFirst()).allSatisfy { $0.time <= $1.time }, "\(events)")
            #expect(recording.events.last?.isSynReport == true, "\(events)")
        }
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
