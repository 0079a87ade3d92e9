import GestureRecognizer
import PencilInput
import PencilProtocol
import PencilTestSupport
import Testing

/// docs/gestures.md, "An eraser that is a button": an AES pen (the Dell Venue's, libinput's
/// wacom-hid4800-pen test device, with libwacom's isdv4-4800 styli) whose firmware reports the
/// eraser button as the pen leaving and the eraser entering, 2 ms apart.
@Suite struct EraserButtonTests {
    static let device = TestDevice.hid4800Pen.description
    static let asButton = preferences { $0.eraserButton = .button; $0.tapButton = .eraser; $0.squeezeButton = .stylus }

    /// What a stream shows of a replay: each event as short words.
    func summaries(_ events: [Event]) -> [String] {
        events.filter { $0.type != .hover || $0.phase != .changed }.map { event in
            switch event.type {
            case .proximityIn, .proximityOut: return "\(event.type.rawValue) \(event.tool?.type.rawValue ?? "-")"
            default: return event.summary
            }
        }
    }

    @Test func aDoubleClickOfTheEraserButtonIsADoubleTapAndThePenStaysInRange() throws {
        var pen = PenScript(device: Self.device)
        pen.approach(x: 0.5, y: 0.5)
        pen.wait(ms: 50)
        pen.click(.eraser, holdingMs: 80)
        pen.wait(ms: 120)
        let secondPress = pen.time
        pen.click(.eraser, holdingMs: 80)
        pen.wait(ms: 50)
        pen.leave()
        let events = try replay(pen, Self.asButton, identity: TestIdentities.aes)
        #expect(summaries(events) == [
            "deviceAdded", "proximityIn pen", "hover began",
            "buttonDown eraser", "buttonUp eraser",
            "buttonDown eraser", "doubleTap switchEraser", "buttonUp eraser",
            "hover ended", "proximityOut pen", "deviceRemoved",
        ])
        let tap = try #require(events.first { $0.type == .doubleTap })
        // The firmware's eraser entered 2 ms after the press began: that frame is the press.
        #expect(tap.time == secondPress + 2_000)
        #expect(events.allSatisfy { $0.tool == nil || $0.tool?.type == .pen })
    }

    @Test func withEraserButtonEraserTheSwapIsTheToolsOwnProximity() throws {
        var pen = PenScript(device: Self.device)
        pen.approach()
        pen.wait(ms: 50)
        pen.click(.eraser, holdingMs: 80)
        pen.wait(ms: 120)
        pen.click(.eraser, holdingMs: 80)
        pen.wait(ms: 50)
        pen.leave()
        var eraserTool = Self.asButton
        eraserTool.eraserButton = .eraser
        let events = try replay(pen, eraserTool, identity: TestIdentities.aes)
        #expect(events.filter { $0.type == .proximityIn }.map { $0.tool?.type } == [.pen, .eraser, .pen, .eraser, .pen])
        #expect(!events.contains { $0.type == .doubleTap })
        #expect(!events.contains { $0.button == .eraser })
        // The positive control: the same hand with eraserButton button is a double-tap.
        #expect(try gestures(pen, Self.asButton, identity: TestIdentities.aes) == ["doubleTap switchEraser"])
    }

    @Test func aHeldEraserButtonIsASqueezeThatEndsAtItsRelease() throws {
        var pen = PenScript(device: Self.device)
        pen.approach()
        pen.wait(ms: 50)
        pen.press(.eraser)
        pen.wait(ms: 30)
        pen.move(toX: 0.52, y: 0.5)
        pen.wait(ms: 600)
        pen.release(.eraser)
        pen.wait(ms: 50)
        pen.leave()
        let squeezeOnEraser = preferences { $0.eraserButton = .button; $0.squeezeButton = .eraser }
        #expect(try gestures(pen, squeezeOnEraser, identity: TestIdentities.aes)
            == ["squeeze began", "squeeze changed", "squeeze ended showContextualPalette"])
        // Without libwacom's word that the eraser is a button, the swap stays a swap.
        #expect(try gestures(pen, squeezeOnEraser) == [])
    }

    @Test func aRealEraserEndIsNoButton() throws {
        // A Cintiq's pen turned around: libwacom says its eraser is the other end.
        var pen = PenScript(device: TestDevice.cintiqPro16Pen.description)
        pen.approach()
        pen.wait(ms: 50)
        pen.leave()
        pen.wait(ms: 5)
        pen.approach(tool: .eraser)
        pen.wait(ms: 50)
        pen.leave()
        let identity = PenIdentity(model: "Wacom Cintiq Pro 16", styli: [0x802: Stylus(name: "Grip Pen", kind: .general, buttons: 2, eraser: .invert)])
        let events = try replay(pen, Self.asButton, identity: identity)
        #expect(events.filter { $0.type == .proximityIn }.map { $0.tool?.type } == [.pen, .eraser])
        #expect(!events.contains { $0.button == .eraser })
    }

    @Test func thePenLeavingWithTheEraserButtonHeldReleasesItAndLeaves() throws {
        var pen = PenScript(device: Self.device)
        pen.approach()
        pen.wait(ms: 50)
        pen.press(.eraser)
        pen.wait(ms: 100)
        let left = pen.time
        pen.leave()
        let events = try replay(pen, Self.asButton, identity: TestIdentities.aes)
        #expect(summaries(events) == [
            "deviceAdded", "proximityIn pen", "hover began", "buttonDown eraser",
            "buttonUp eraser", "hover ended", "proximityOut pen", "deviceRemoved",
        ])
        // Each at the time the eraser left: the window only decided what it was.
        let closing = events.filter { $0.type == .buttonUp || $0.type == .proximityOut }
        #expect(closing.map(\.time) == [left, left])
        #expect(events.filter(\.isGesture).isEmpty, "one press is no double-tap")
    }

    @Test func aPenThatLeavesAndNoEraserFollowsLeavesAtItsTime() throws {
        var pen = PenScript(device: Self.device)
        pen.approach()
        pen.wait(ms: 50)
        let left = pen.time
        pen.leave()
        pen.wait(ms: 31)
        pen.approach(tool: .eraser)
        pen.wait(ms: 50)
        pen.leave()
        let events = try replay(pen, Self.asButton, identity: TestIdentities.aes)
        // An eraser 31 ms after the pen is a tool of its own.
        #expect(events.filter { $0.type == .proximityIn }.map { $0.tool?.type } == [.pen, .eraser])
        #expect(events.first { $0.type == .proximityOut }?.time == left)
        #expect(!events.contains { $0.button == .eraser })
        // The positive control: 30 ms is still one swap.
        var quick = PenScript(device: Self.device)
        quick.approach()
        quick.wait(ms: 50)
        quick.leave()
        quick.wait(ms: 30)
        quick.approach(tool: .eraser)
        #expect(try replay(quick, Self.asButton, identity: TestIdentities.aes).filter { $0.type == .proximityIn }.count == 1)
    }

    @Test func aPenLeavingWithItsTipDownIsNoSwap() throws {
        var pen = PenScript(device: Self.device)
        pen.approach()
        pen.touchDown()
        pen.wait(ms: 20)
        pen.leave()
        pen.wait(ms: 2)
        pen.approach(tool: .eraser)
        let events = try replay(pen, Self.asButton, identity: TestIdentities.aes)
        #expect(events.filter { $0.type == .proximityIn }.map { $0.tool?.type } == [.pen, .eraser])
    }

    @Test func aPenThatReturnsWithAnotherIdLeavesAndEntersAgain() throws {
        // A pen with tool ids (ABS_MISC): back from the eraser with another id, it is another
        // tool to a stream that saw the first; with the same id it simply stayed.
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach()
        pen.wait(ms: 50)
        pen.press(.eraser)
        pen.wait(ms: 50)
        pen.toolIDs[.pen] = 0x812
        pen.release(.eraser)
        pen.wait(ms: 50)
        pen.leave()
        let events = try replay(pen, Self.asButton, identity: TestIdentities.aes)
        #expect(events.filter { $0.type == .proximityIn }.map { $0.tool?.id } == [0x802, 0x812])
        #expect(events.filter { $0.button == .eraser }.map(\.type) == [.buttonDown, .buttonUp])
        // The positive control: the same id, and the pen never left.
        var same = PenScript(device: TestPens.cintiqLike)
        same.approach()
        same.wait(ms: 50)
        same.click(.eraser, holdingMs: 50)
        same.wait(ms: 50)
        same.leave()
        #expect(try replay(same, Self.asButton, identity: TestIdentities.aes).filter { $0.type == .proximityIn }.count == 1)
    }

    @Test func aSubscriberArrivingWhileTheButtonIsHeldSeesThePenWithItsButton() throws {
        var pen = PenScript(device: Self.device)
        pen.approach()
        pen.wait(ms: 50)
        pen.press(.eraser)
        var pipeline = try GesturePipeline(description: Self.device, id: "event7", preferences: Self.asButton, identity: TestIdentities.aes)
        var output: [Event] = []
        pipeline.start(at: 0, into: &output)
        for event in pen.events { pipeline.feed(event, into: &output) }
        let state = try #require(pipeline.recognizer.presentedState)
        #expect(state.tool?.type == .pen)
        #expect(state.buttons == .eraser)
        // The device itself reports the eraser.
        #expect(pipeline.tracker.state.tool?.type == .eraser)
    }
}

/// A third barrel button (BTN_STYLUS3, the Pro Pen 3 of a Cintiq Pro 27) as a gesture button.
@Suite struct ThirdButtonTests {
    static let device = TestDevice.cintiqPro27Pen.description

    @Test func aDoubleClickOfTheThirdButtonIsADoubleTap() throws {
        var pen = PenScript(device: Self.device)
        pen.approach()
        pen.wait(ms: 20)
        pen.click(.stylus3, holdingMs: 80)
        pen.wait(ms: 120)
        pen.click(.stylus3, holdingMs: 80)
        pen.leave()
        #expect(try gestures(pen, preferences { $0.tapButton = .stylus3 }) == ["doubleTap switchEraser"])
        // The positive control's twin: with the default tapButton the same clicks are no double-tap.
        #expect(try gestures(pen).filter { $0.hasPrefix("doubleTap") } == [])
    }

    @Test func theThirdButtonHeldIsASqueeze() throws {
        var pen = PenScript(device: Self.device)
        pen.approach()
        pen.wait(ms: 20)
        pen.press(.stylus3)
        pen.wait(ms: 400)
        pen.release(.stylus3)
        pen.leave()
        #expect(try gestures(pen, preferences { $0.squeezeButton = .stylus3 }) == ["squeeze began", "squeeze ended showContextualPalette"])
        #expect(try gestures(pen).filter { $0.hasPrefix("squeeze") } == [])
    }

    @Test func theProPen3IsNamedWhenItComesIntoRange() throws {
        var pen = PenScript(device: Self.device)
        pen.toolIDs[.pen] = 0x200
        pen.approach()
        pen.leave()
        let events = try replay(pen, identity: TestIdentities.cintiqPro27)
        let entered = try #require(events.first { $0.type == .proximityIn })
        #expect(entered.stylus?.name == "Pro Pen 3")
        #expect(entered.stylus?.buttons == 3)
        #expect(events.filter { $0.stylus != nil }.count == 1, "only proximityIn carries the stylus")
    }
}
