import GestureRecognizer
import PencilInput
import PencilProtocol
import PencilTestDevices
import PencilTestSupport
import Testing

/// docs/gestures.md, "The pen switches tool through its mirror", case by case: the tool a reader
/// of the mirror sees, as a person double-taps, draws and turns the pen over.
@Suite struct MirrorToolSwitchTests {
    /// An Intuos5 with its Grip Pen (0x802), whose eraser end is 0x80a in libwacom.
    static let intuos = TestDevice.intuos5Pen.description
    static let gripPen = PenIdentity(model: "Wacom Intuos5 M", eraserIDs: [0x802: 0x80a])
    /// A pen with neither eraser nor ids (a UC-Logic tablet's).
    static let plain = TestDevice.huionPenTablet.description

    func mirror(_ script: PenScript, _ preferences: Preferences = .defaults, identity: PenIdentity = gripPen) throws -> [InputEvent] {
        try PenPipeline.mirrorFrames(of: script.events, description: script.device, preferences: preferences, identity: identity)
    }

    /// The tool keys, ABS_MISC and MSC_SERIAL the mirror writes, as words: "eraser in", "pen
    /// out", "id 0x80a", "serial 0x1234".
    func tools(_ frames: [InputEvent]) -> [String] {
        frames.compactMap { event in
            switch (event.type, event.code) {
            case (EventCode.EV_KEY, EventCode.BTN_TOOL_PEN): return "pen \(event.value != 0 ? "in" : "out")"
            case (EventCode.EV_KEY, EventCode.BTN_TOOL_RUBBER): return "eraser \(event.value != 0 ? "in" : "out")"
            case (EventCode.EV_ABS, EventCode.ABS_MISC): return "id 0x\(String(event.value, radix: 16))"
            default: return nil
            }
        }
    }

    func doubleTap(_ pen: inout PenScript) {
        pen.wait(ms: 20)
        pen.click(.stylus, holdingMs: 60)
        pen.wait(ms: 80)
        pen.click(.stylus, holdingMs: 60)
        pen.wait(ms: 20)
    }

    @Test func aDoubleTapReportsTheTipAsTheStylussOwnEraser() throws {
        var pen = PenScript(device: Self.intuos)
        pen.approach()
        doubleTap(&pen)
        pen.touchDown()
        pen.move(toX: 0.6, y: 0.5, overMs: 100, steps: 5)
        pen.lift()
        pen.leave()
        let frames = try mirror(pen)
        #expect(tools(frames) == ["pen in", "id 0x802", "pen out", "id 0x0", "eraser in", "id 0x80a", "id 0x0", "eraser out"], "\(tools(frames))")
        // The eraser enters with the stylus's serial, at once after the second press.
        let entering = frames.firstIndex { $0.type == EventCode.EV_KEY && $0.code == EventCode.BTN_TOOL_RUBBER && $0.value == 1 }!
        #expect(frames[entering...].contains { $0.type == EventCode.EV_MSC && $0.code == EventCode.MSC_SERIAL && $0.value == 0x1234 })
        // The stroke that follows is the eraser's: its tip goes down and its axes flow.
        #expect(frames[entering...].contains { $0.type == EventCode.EV_KEY && $0.code == EventCode.BTN_TOUCH && $0.value == 1 })
        #expect(frames[entering...].contains { $0.type == EventCode.EV_ABS && $0.code == EventCode.ABS_PRESSURE && $0.value > 0 })
        #expect(frames[entering...].filter { $0.type == EventCode.EV_ABS && $0.code == EventCode.ABS_X }.count >= 5)
        // The positive control of the switch itself: with mirrorSwitchesTool off, the pen stays a pen.
        var off = Preferences.defaults
        off.mirrorSwitchesTool = false
        #expect(tools(try mirror(pen, off)) == ["pen in", "id 0x802", "id 0x0", "pen out"])
    }

    @Test func aSecondDoubleTapReturnsToThePenAndTheSwitchLastsAcrossProximity() throws {
        var pen = PenScript(device: Self.intuos)
        pen.approach()
        doubleTap(&pen)
        pen.leave()
        pen.wait(ms: 500)
        pen.approach()
        pen.wait(ms: 500)
        doubleTap(&pen)
        pen.leave()
        let words = tools(try mirror(pen))
        #expect(words == ["pen in", "id 0x802", "pen out", "id 0x0", "eraser in", "id 0x80a", "id 0x0", "eraser out",
                          "eraser in", "id 0x80a", "eraser out", "id 0x0", "pen in", "id 0x802", "id 0x0", "pen out"], "\(words)")
    }

    @Test func noSwitchIsWrittenWithTheTipDown() throws {
        var pen = PenScript(device: Self.intuos)
        pen.approach()
        pen.touchDown()
        doubleTap(&pen)
        pen.move(toX: 0.6, y: 0.5, overMs: 100, steps: 5)
        let beforeLift = try mirror(pen)
        #expect(!tools(beforeLift).contains("eraser in"), "\(tools(beforeLift))")
        pen.lift()
        pen.leave()
        let frames = try mirror(pen)
        // The switch waits for the lift: the tip's up comes before the eraser enters.
        let lifted = frames.firstIndex { $0.type == EventCode.EV_KEY && $0.code == EventCode.BTN_TOUCH && $0.value == 0 }!
        let entering = frames.firstIndex { $0.type == EventCode.EV_KEY && $0.code == EventCode.BTN_TOOL_RUBBER && $0.value == 1 }!
        #expect(lifted < entering)
    }

    @Test func turningThePenOverNeverChangesTheSwitch() throws {
        var pen = PenScript(device: Self.intuos)
        pen.approach()
        doubleTap(&pen)
        pen.leave()
        pen.wait(ms: 300)
        pen.approach(tool: .eraser)
        pen.wait(ms: 300)
        pen.leave()
        pen.wait(ms: 300)
        pen.approach()
        pen.wait(ms: 300)
        pen.leave()
        // The real eraser enters as itself (0x80a written by the pen); the tip comes back as the eraser.
        let words = tools(try mirror(pen))
        #expect(words == ["pen in", "id 0x802", "pen out", "id 0x0", "eraser in", "id 0x80a", "id 0x0", "eraser out",
                          "eraser in", "id 0x80a", "id 0x0", "eraser out", "eraser in", "id 0x80a", "id 0x0", "eraser out"], "\(words)")
    }

    @Test func aPenWithoutAnEraserGetsTheEraserToolWithItsOwnIds() throws {
        #expect(!Self.plain.hasKey(EventCode.BTN_TOOL_RUBBER))
        #expect(Self.plain.mirrorDescription().hasKey(EventCode.BTN_TOOL_RUBBER))
        var pen = PenScript(device: Self.plain)
        pen.approach()
        doubleTap(&pen)
        pen.leave()
        #expect(tools(try mirror(pen, identity: .unknown)) == ["pen in", "pen out", "eraser in", "eraser out"])
    }

    @Test func anAppHoldingTheFocusActsItself() throws {
        var pen = PenScript(device: Self.intuos)
        pen.approach()
        doubleTap(&pen)
        pen.leave()
        let tracker = PenTracker(description: pen.device, id: "mirror", identity: Self.gripPen)
        var router = try MirrorRouter(device: tracker.deviceInfo, preferences: .defaults, identity: Self.gripPen)
        router.appHoldsFocus = true
        var pipeline = PenPipeline(tracker: tracker, stage: router)
        var output: [InputEvent] = []
        pipeline.start(at: pen.events.first?.time ?? 0, into: &output)
        for event in pen.events { pipeline.feed(event, into: &output) }
        pipeline.finish(into: &output)
        #expect(tools(output) == ["pen in", "id 0x802", "id 0x0", "pen out"])
        #expect(!pipeline.stage.reportsEraser)
    }

    @Test func theMirrorWritesValuesWithoutFuzz() {
        #expect(Self.intuos.absInfo.values.contains { $0.fuzz > 0 })
        #expect(Self.intuos.mirrorDescription().absInfo.values.allSatisfy { $0.fuzz == 0 })
    }
}

extension MirrorToolSwitchTests {
    /// The Cintiq 22HDT recording's one double-tap (the recordings' README): with the defaults
    /// the mirror reports its tip as the eraser from then on; every axis event still passes.
    @Test(.requires(.recordings))
    func theRecordedDoubleTapSwitchesTheCintiqsPen() throws {
        let recording = try EvemuRecording.load(path: SharedRecordings.path("Wacom Cintiq 22HDT Pen.events"))
        let frames = try PenPipeline.mirrorFrames(of: recording.events, description: recording.description)
        let entering = frames.filter { $0.type == EventCode.EV_KEY && $0.code == EventCode.BTN_TOOL_RUBBER && $0.value == 1 }
        #expect(!entering.isEmpty)
        let axes = { (events: [InputEvent]) in events.filter { $0.type == EventCode.EV_ABS && $0.code != EventCode.ABS_MISC } }
        #expect(axes(frames) == axes(recording.events))
        var off = Preferences.defaults
        off.mirrorSwitchesTool = false
        let unswitched = try PenPipeline.mirrorFrames(of: recording.events, description: recording.description, preferences: off)
        #expect(unswitched.filter { $0.type == EventCode.EV_KEY && $0.code == EventCode.BTN_TOOL_RUBBER && $0.value == 1 }.count
                == recording.events.filter { $0.type == EventCode.EV_KEY && $0.code == EventCode.BTN_TOOL_RUBBER && $0.value == 1 }.count)
    }
}
