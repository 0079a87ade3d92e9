import Testing
import PencilDevices
@testable import PencilInput
import PencilProtocol
import PencilTestSupport

@Suite("Evemu writer")
struct EvemuWriterTests {
    @Test("a written header reads back as the same device", arguments: TestDevice.allCases)
    func headerRoundTrip(device: TestDevice) throws {
        let description = device.description
        let header = EvemuWriter.header(description, comments: ["Input device name: \"\(description.name)\""])
        let parsed = try Array(header.utf8).withUnsafeBytes { raw in
            try EvemuRecording.parseDescription(raw, fileName: "header")
        }
        #expect(parsed.name == description.name)
        #expect(parsed.bus == description.bus && parsed.vendor == description.vendor && parsed.product == description.product)
        #expect(parsed.properties == description.properties)
        #expect(parsed.absInfo == description.absInfo)
        for type in [EventCode.EV_KEY, EventCode.EV_ABS, EventCode.EV_MSC, EventCode.EV_REL] {
            #expect((parsed.codes[type] ?? []) == (description.codes[type] ?? []), "codes of type \(type)")
        }
    }

    @Test("a device's name and the comments are written escaped: no terminal escape, and no line of their own; a plain name as it is")
    func hostileNameIsEscaped() throws {
        var device = TestDevice.intuos5Pen.description
        // What `pencilctl record` meets on a uinput device named to attack the terminal that
        // shows the recording, and to add an event line to the file.
        device.name = "Pen\u{1B}]0;owned\u{07}\nE: 0.000000 0001 0074 1\u{9B}2J\u{202E}txt"
        let header = EvemuWriter.header(device, comments: ["Input device name: \"\(device.name)\""])
        #expect(!header.unicodeScalars.contains { $0 != "\n" && $0.isTerminalControl }, "\(header)")
        #expect(!header.contains("\nE:"), "the name starts no line")
        let escaped = #"Pen\x1b]0;owned\x07\x0aE: 0.000000 0001 0074 1\x9b2J\u{202e}txt"#
        #expect(header.contains("\nN: \(escaped)\n"))
        #expect(header.contains("# Input device name: \"\(escaped)\"\n"))
        let parsed = try Array(header.utf8).withUnsafeBytes { raw in try EvemuRecording.parseDescription(raw, fileName: "header") }
        #expect(parsed.name == escaped)
        // The positive control: a plain name, accents and all, is written as it is.
        device.name = "Stylet Wacom à pointe fine ✏️"
        #expect(EvemuWriter.header(device).contains("\nN: Stylet Wacom à pointe fine ✏️\n"))
    }

    @Test("a recorded stroke replays as the same pen events")
    func recordingRoundTrip() throws {
        var pen = PenScript(device: TestDevice.intuos5Pen.description, startingAt: 5_000_000)
        pen.approach(x: 0.3, y: 0.4)
        pen.touchDown(pressure: 0.6)
        pen.move(toX: 0.5, y: 0.45, overMs: 80, steps: 8)
        pen.lift()
        pen.click(.stylus)
        pen.wait(ms: 100)
        pen.click(.stylus)
        pen.leave()

        var writer = EvemuWriter(timeBase: .firstEvent, eventName: EvdevNames.event)
        var text = EvemuWriter.header(pen.device)
        for event in pen.events { text += writer.line(for: .event(event)) }
        #expect(writer.eventCount == pen.events.count)

        let parsed = try EvemuRecording(parsing: text, fileName: "recorded")
        #expect(parsed.events.count == pen.events.count)
        // Times are counted from the first event.
        #expect(parsed.events.first?.time == 0)
        let shifted = pen.events.map { InputEvent(time: $0.time - 5_000_000, type: $0.type, code: $0.code, value: $0.value) }
        #expect(parsed.events == shifted)

        let original = PenPipeline.penEvents(of: EvemuRecording(description: pen.device, events: shifted))
        #expect(PenPipeline.penEvents(of: parsed) == original)
        #expect(original.contains { $0.type == .tipDown })
    }

    @Test("values are written as evemu writes them, negative ones included")
    func valueFormat() {
        #expect(EvemuWriter.zeroPadded(7) == "0007")
        #expect(EvemuWriter.zeroPadded(-5) == "-005")
        #expect(EvemuWriter.zeroPadded(-12345) == "-12345")
        var writer = EvemuWriter(timeBase: .firstEvent, eventName: EvdevNames.event)
        let line = writer.line(for: .event(InputEvent(time: 2_000_003, type: EventCode.EV_ABS, code: EventCode.ABS_TILT_X, value: -12)))
        #expect(line.hasPrefix("E: 0.000000 0003 001a -012\t# EV_ABS / ABS_TILT_X"))
        let later = writer.line(for: .event(InputEvent(time: 3_500_042, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)))
        #expect(later.hasPrefix("E: 1.500039 0000 0000 0000"))
    }

    @Test("a whole recording keeps its events' own times, and writes no comments unless asked")
    func recordingKeepsTimes() throws {
        var pen = PenScript(device: TestDevice.cintiqPro16Pen.description, startingAt: 7_250_000)
        pen.approach(x: 0.5, y: 0.5)
        pen.touchDown(pressure: 0.3)
        pen.lift()
        pen.leave()
        let text = EvemuWriter.recording(pen.device, pen.events)
        #expect(!text.contains("\t#"))
        let parsed = try EvemuRecording(parsing: text, fileName: "script")
        #expect(parsed.events == pen.events)
        #expect(parsed.description.absInfo == pen.device.absInfo)
    }

    @Test("a time before the first event's is written as 0, the format having no negative times")
    func negativeTimeIsZero() throws {
        var writer = EvemuWriter(timeBase: .asRecorded)
        var text = ""
        writer.append(InputEvent(time: -5, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0), to: &text)
        #expect(text == "E: 0.000000 0000 0000 0000\n")
        #expect(writer.eventCount == 1)
    }
}
