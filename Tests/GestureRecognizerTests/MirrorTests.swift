import GestureRecognizer
import PencilInput
import PencilProtocol
import PencilTestSupport
import Testing

/// docs/gestures.md, "What apps receive: gesture clicks withheld", case by case: what the mirror
/// writes for what a person does, as pen scripts.
@Suite struct MirrorTests {
    static let pen = TestPens.cintiqLike

    /// The mirror's frames for a script.
    func mirror(_ script: PenScript, _ preferences: Preferences = .defaults) throws -> [InputEvent] {
        try PenPipeline.mirrorFrames(of: script.events, description: script.device, preferences: preferences)
    }

    /// The barrel buttons' events the mirror writes, as words with their time since `origin`
    /// in milliseconds: "stylus down @120".
    func buttons(_ frames: [InputEvent], from origin: Int64) -> [String] {
        frames.compactMap { event in
            guard event.type == EventCode.EV_KEY else { return nil }
            let name: String
            switch event.code {
            case EventCode.BTN_STYLUS: name = "stylus"
            case EventCode.BTN_STYLUS2: name = "stylus2"
            default: return nil
            }
            return "\(name) \(event.value != 0 ? "down" : "up") @\((event.time - origin) / 1000)"
        }
    }

    @Test func aDoubleTapGivesAppsNoButtonEvent() throws {
        var pen = PenScript(device: Self.pen)
        pen.approach()
        let origin = pen.time
        pen.wait(ms: 20)
        pen.click(.stylus, holdingMs: 80)
        pen.wait(ms: 100)
        pen.click(.stylus, holdingMs: 80)
        pen.wait(ms: 600)
        pen.leave()
        #expect(buttons(try mirror(pen), from: origin) == [])
        // The positive control: the same clicks far apart are two clicks, each passed on
        // doubleTapInterval after its press; the first one's release, due 80 ms after that, goes
        // just before the second press, which comes sooner.
        var slow = PenScript(device: Self.pen)
        slow.approach()
        let start = slow.time
        slow.wait(ms: 20)
        slow.click(.stylus, holdingMs: 80)
        slow.wait(ms: 350)
        slow.click(.stylus, holdingMs: 80)
        slow.wait(ms: 450)
        slow.leave()
        let slowButtons = buttons(try mirror(slow), from: start)
        #expect(slowButtons == ["stylus down @420", "stylus up @450", "stylus down @850", "stylus up @930"], "\(slowButtons)")
    }

    /// Every gesture of the interface, as the demo pen makes it under the defaults on a pen with
    /// every button: none of its buttons' events reach apps.
    @Test(arguments: Gesture.allCases)
    func noGestureGivesAppsItsButtonEvents(_ gesture: Gesture) throws {
        let device = TestPens.threeButtons
        let script = try #require(try? GestureDemonstration.script(for: gesture, preferences: .defaults,
                                                                    device: device.penDeviceInfo(id: "mirror")).get())
        var pen = PenScript(device: device)
        pen.play(script, thenWaitMs: 600)
        let codes = Set(script.changes.map { change -> UInt16 in
            switch change.button {
            case .stylus: EventCode.BTN_STYLUS
            case .stylus2: EventCode.BTN_STYLUS2
            case .stylus3: EventCode.BTN_STYLUS3
            case .eraser: EventCode.BTN_TOOL_RUBBER
            }
        })
        func keys(_ frames: [InputEvent]) -> Int {
            frames.filter { $0.type == EventCode.EV_KEY && codes.contains($0.code) }.count
        }
        #expect(keys(try mirror(pen)) == 0, "\(gesture)")
        // The control: the pen's own events hold every press and release the count looks for.
        #expect(keys(pen.events) == script.changes.count)
    }

    @Test func aLoneClickArrivesOnceDoubleTapIntervalAfterItsPress() throws {
        var pen = PenScript(device: Self.pen)
        pen.approach()
        let origin = pen.time
        pen.wait(ms: 20)
        pen.click(.stylus, holdingMs: 80)
        pen.wait(ms: 1000)
        pen.leave()
        // Held as long as the person held it: a compositor that gathers what it reads at once
        // into one frame never gives an app the press and its release together.
        #expect(buttons(try mirror(pen), from: origin) == ["stylus down @420", "stylus up @500"])
    }

    @Test func aLateClicksReleaseGoesBeforeTheToolLeaves() throws {
        var pen = PenScript(device: Self.pen)
        pen.approach()
        let origin = pen.time
        pen.wait(ms: 20)
        pen.click(.stylus, holdingMs: 80)
        pen.wait(ms: 350)
        pen.leave()
        // Written at 420, due up at 500; the pen leaves at 450, and the click ends first.
        let written = try mirror(pen)
        #expect(buttons(written, from: origin) == ["stylus down @420", "stylus up @450"])
        let ends = written.filter { $0.type == EventCode.EV_KEY && ($0.code == EventCode.BTN_STYLUS || $0.code == EventCode.BTN_TOOL_PEN) && $0.value == 0 }
        #expect(ends.map(\.code) == [EventCode.BTN_STYLUS, EventCode.BTN_TOOL_PEN])
    }

    @Test func aPendingClickGoesJustBeforeTheToolLeaves() throws {
        var pen = PenScript(device: Self.pen)
        pen.approach()
        let origin = pen.time
        pen.wait(ms: 20)
        pen.click(.stylus, holdingMs: 80)
        pen.wait(ms: 50)
        pen.leave()
        #expect(buttons(try mirror(pen), from: origin) == ["stylus down @150", "stylus up @150"])
    }

    @Test func aClickFollowedByAFarPressGoesBeforeThatPress() throws {
        var pen = PenScript(device: Self.pen)
        pen.approach(x: 0.2, y: 0.5)
        let origin = pen.time
        pen.wait(ms: 20)
        pen.click(.stylus, holdingMs: 80)
        pen.wait(ms: 50)
        pen.move(toX: 0.6, y: 0.5)
        pen.press(.stylus)
        pen.wait(ms: 60)
        pen.release(.stylus)
        pen.wait(ms: 1000)
        pen.leave()
        // The first click at the second press (which is no second press), then the second
        // click doubleTapInterval after its own press, held its 60 ms.
        #expect(buttons(try mirror(pen), from: origin) == ["stylus down @150", "stylus up @150", "stylus down @550", "stylus up @610"])
    }

    @Test func aDragWithTheButtonHeldStartsTapMaxDurationLate() throws {
        var pen = PenScript(device: Self.pen)
        pen.approach()
        let origin = pen.time
        pen.wait(ms: 20)
        pen.press(.stylus)
        pen.move(toX: 0.6, y: 0.5, overMs: 600, steps: 12)
        pen.release(.stylus)
        pen.wait(ms: 20)
        pen.leave()
        #expect(buttons(try mirror(pen), from: origin) == ["stylus down @320", "stylus up @620"])
    }

    @Test func theButtonAsAModifierOfAStrokeGoesJustBeforeTheTip() throws {
        var pen = PenScript(device: Self.pen)
        pen.approach()
        let origin = pen.time
        pen.wait(ms: 20)
        pen.press(.stylus)
        pen.wait(ms: 50)
        pen.touchDown()
        pen.wait(ms: 50)
        pen.lift()
        pen.release(.stylus)
        pen.wait(ms: 20)
        pen.leave()
        #expect(buttons(try mirror(pen), from: origin) == ["stylus down @70", "stylus up @120"])
        let frames = try mirror(pen)
        // The press is a frame of its own, before the tip's frame.
        let press = try #require(frames.firstIndex { $0.type == EventCode.EV_KEY && $0.code == EventCode.BTN_STYLUS })
        #expect(frames[press + 1].code == EventCode.SYN_REPORT)
        #expect(frames[(press + 2)...].contains { $0.type == EventCode.EV_KEY && $0.code == EventCode.BTN_TOUCH && $0.value == 1 })
    }

    @Test func theSqueezeButtonNeverReachesApps() throws {
        var pen = PenScript(device: Self.pen)
        pen.approach()
        let origin = pen.time
        pen.wait(ms: 20)
        pen.click(.stylus2, holdingMs: 400)
        pen.wait(ms: 20)
        pen.click(.stylus2, holdingMs: 50)
        pen.wait(ms: 20)
        pen.leave()
        #expect(buttons(try mirror(pen), from: origin) == [])
        // The positive control: with squeezeButton none it is an ordinary button, passed as it is.
        #expect(buttons(try mirror(pen, preferences { $0.squeezeButton = .none }), from: origin)
                == ["stylus2 down @20", "stylus2 up @420", "stylus2 down @440", "stylus2 up @490"])
    }

    @Test func underLongPressALongHoldIsASqueezeAndWithheld() throws {
        var pen = PenScript(device: Self.pen)
        pen.approach()
        let origin = pen.time
        pen.wait(ms: 20)
        pen.press(.stylus)
        pen.wait(ms: 700)
        pen.release(.stylus)
        pen.wait(ms: 20)
        pen.leave()
        let longPress = preferences { $0.squeezeButton = .longPress }
        #expect(buttons(try mirror(pen, longPress), from: origin) == [])
        // Released between tapMaxDuration and longPressDuration: press and release at the release.
        var middle = PenScript(device: Self.pen)
        middle.approach()
        let start = middle.time
        middle.wait(ms: 20)
        middle.press(.stylus)
        middle.wait(ms: 400)
        middle.release(.stylus)
        middle.wait(ms: 20)
        middle.leave()
        #expect(buttons(try mirror(middle, longPress), from: start) == ["stylus down @420", "stylus up @420"])
    }

    @Test func underLongPressAHeldPressThatWandersIsADrag() throws {
        var pen = PenScript(device: Self.pen)
        pen.approach(x: 0.2, y: 0.5)
        let origin = pen.time
        pen.wait(ms: 20)
        pen.press(.stylus)
        pen.move(toX: 0.5, y: 0.5, overMs: 400, steps: 8)
        pen.wait(ms: 300)
        pen.release(.stylus)
        pen.wait(ms: 20)
        pen.leave()
        // Beyond the slop before tapMaxDuration: written at tapMaxDuration.
        #expect(buttons(try mirror(pen, preferences { $0.squeezeButton = .longPress }), from: origin)
                == ["stylus down @320", "stylus up @720"])
    }

    @Test func aPressHeldWhenTheToolLeavesIsDropped() throws {
        var pen = PenScript(device: Self.pen)
        pen.approach()
        let origin = pen.time
        pen.wait(ms: 20)
        pen.press(.stylus)
        pen.wait(ms: 100)
        pen.leave(releasingButtons: true)
        #expect(buttons(try mirror(pen), from: origin) == [])
        // The positive control: held longer than tapMaxDuration it was written, and is
        // released before its tool leaves.
        var longer = PenScript(device: Self.pen)
        longer.approach()
        let start = longer.time
        longer.wait(ms: 20)
        longer.press(.stylus)
        longer.wait(ms: 400)
        longer.leave()
        #expect(buttons(try mirror(longer), from: start) == ["stylus down @320", "stylus up @420"])
    }

    @Test func aFrameWithoutWithheldEventsIsWrittenUnchanged() throws {
        var pen = PenScript(device: Self.pen)
        pen.approach()
        pen.wait(ms: 10)
        pen.touchDown()
        pen.move(toX: 0.6, y: 0.5, overMs: 100, steps: 5)
        pen.lift()
        pen.wait(ms: 10)
        pen.leave()
        #expect(try mirror(pen) == pen.events)
    }

    @Test(.requires(.recordings))
    func theRecordedPensButtonEventsAreTheContracts() throws {
        // Derived from the recordings' README and the contract, with default preferences:
        // every BTN_STYLUS2 event is the squeeze button's (withheld); the Cintiq's 16 stylus
        // clicks include one double-tap, so 14 clicks (28 events) reach apps; the Dell
        // Canvas's one stylus press is one click. The tool switch is off: this is about clicks
        // (MirrorToolSwitchTests has the switch on the same recording).
        var preferences = Preferences.defaults
        preferences.mirrorSwitchesTool = false
        for (file, stylus, stylus2) in [("Wacom Cintiq 22HDT Pen.events", 28, 0), ("dell_canvas_pen.evemu", 2, 0)] {
            let recording = try EvemuRecording.load(path: SharedRecordings.path(file))
            let frames = try PenPipeline.mirrorFrames(of: recording.events, description: recording.description, preferences: preferences)
            let written = frames.filter { $0.type == EventCode.EV_KEY }
            #expect(written.filter { $0.code == EventCode.BTN_STYLUS }.count == stylus, "\(file)")
            #expect(written.filter { $0.code == EventCode.BTN_STYLUS2 }.count == stylus2, "\(file)")
            // Every other event of the recording reaches the mirror.
            let others = recording.events.filter { !($0.type == EventCode.EV_KEY && ($0.code == EventCode.BTN_STYLUS || $0.code == EventCode.BTN_STYLUS2)) && $0.type != EventCode.EV_SYN }
            #expect(frames.filter { !($0.type == EventCode.EV_KEY && ($0.code == EventCode.BTN_STYLUS || $0.code == EventCode.BTN_STYLUS2)) && $0.type != EventCode.EV_SYN } == others, "\(file)")
        }
    }
}
