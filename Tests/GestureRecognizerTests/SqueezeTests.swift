import GestureRecognizer
import PencilInput
import PencilProtocol
import Testing

/// docs/gestures.md "Squeeze" with a dedicated button, on hand-built frames.
@Suite struct SqueezeTests {
    @Test func aSqueezeBeginsChangesWithThePoseAndEndsWithTheAction() throws {
        var pen = try FrameHarness()
        pen.approach(x: 0.3, y: 0.3)
        pen.wait(ms: 10)
        pen.press(.stylus2)
        pen.wait(ms: 10)
        pen.move(toX: 0.31, y: 0.3)
        pen.wait(ms: 10)
        pen.touchDown()  // pressure changes the pose too
        pen.wait(ms: 10)
        pen.frame { _ in }  // a frame with nothing new
        pen.wait(ms: 10)
        let releaseTime = pen.time
        pen.release(.stylus2)
        #expect(pen.summary == ["squeeze began", "squeeze changed", "squeeze changed", "squeeze ended showContextualPalette"])
        #expect(pen.gestures[0].pose == FrameHarness.pose(x: 0.3, y: 0.3))
        #expect(pen.gestures[1].pose == FrameHarness.pose(x: 0.31, y: 0.3))
        #expect(pen.gestures[3].time == releaseTime)
        #expect(pen.gestures.allSatisfy { $0.tool == FrameHarness.pen })
        #expect(pen.gestures.dropLast().allSatisfy { $0.action == nil }, "only ended carries the action")
    }

    @Test func leavingProximityWithTheButtonHeldEndsTheSqueeze() throws {
        var pen = try FrameHarness()
        pen.approach(x: 0.3, y: 0.3)
        pen.press(.stylus2)
        pen.wait(ms: 10)
        pen.move(toX: 0.4, y: 0.3)
        pen.wait(ms: 10)
        pen.leave()
        #expect(pen.summary == ["squeeze began", "squeeze changed", "squeeze ended showContextualPalette"])
        #expect(pen.gestures.last?.pose == FrameHarness.pose(x: 0.4, y: 0.3), "the last pose before leaving")
    }

    @Test func aForcedProximityOutEndsTheSqueezeToo() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.press(.stylus2)
        pen.wait(ms: 500)
        pen.leave(kind: .forcedProximityOut)
        #expect(pen.summary == ["squeeze began", "squeeze ended showContextualPalette"])
    }

    @Test func unpluggingCancelsTheSqueeze() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.press(.stylus2)
        pen.wait(ms: 30)
        pen.unplug()
        #expect(pen.summary == ["squeeze began", "squeeze cancelled"])
        #expect(pen.gestures.last?.tool == FrameHarness.pen)
    }

    @Test func droppedEventsCancelTheSqueezeAndTheHeldButtonWaitsForRelease() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.press(.stylus2)
        pen.wait(ms: 30)
        pen.dropEvents()
        pen.wait(ms: 30)
        pen.move(toX: 0.6, y: 0.5)
        pen.release(.stylus2)
        #expect(pen.summary == ["squeeze began", "squeeze cancelled"])
        pen.wait(ms: 30)
        pen.click(.stylus2)
        #expect(pen.summary == ["squeeze began", "squeeze cancelled", "squeeze began", "squeeze ended showContextualPalette"])
        #expect(pen.recognizer.bugs.isEmpty)
    }

    @Test func aReleaseLostInDroppedEventsStillCancels() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.press(.stylus2)
        pen.dropEvents { $0.buttons = [] }
        #expect(pen.summary == ["squeeze began", "squeeze cancelled"])
    }

    @Test func flippingToTheEraserCancelsTheSqueezeBeforeTheOldToolLeaves() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.press(.stylus2)
        pen.wait(ms: 30)
        pen.flip(to: FrameHarness.eraser)
        #expect(pen.summary == ["squeeze began", "squeeze cancelled"])
        #expect(pen.gestures.last?.tool == FrameHarness.pen)
        #expect(pen.replacedGestures.count == 1, "the cancel belongs to the replaced tool")
    }

    @Test func aNewToolThatComesWithTheButtonHeldSqueezesAfresh() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.press(.stylus2)
        pen.flip(to: FrameHarness.eraser, holding: .stylus2)
        #expect(pen.summary == ["squeeze began", "squeeze cancelled", "squeeze began"])
        #expect(pen.replacedGestures.map(\.summary) == ["squeeze cancelled"])
        #expect(pen.frameGestures.first?.tool == FrameHarness.eraser)
    }

    @Test func buttonsWorkWhileTouching() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.touchDown()
        pen.click(.stylus)
        pen.wait(ms: 50)
        pen.press(.stylus)
        pen.press(.stylus2)
        pen.release(.stylus2)
        #expect(pen.summary == ["doubleTap switchEraser", "squeeze began", "squeeze ended showContextualPalette"])
    }

    @Test func aDoubleTapComesBeforeASqueezeInTheSameFrame() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.click(.stylus)
        pen.frame { $0.buttons = [.stylus, .stylus2] }
        #expect(pen.summary == ["doubleTap switchEraser", "squeeze began"])
    }

    @Test(arguments: PreferredAction.allCases)
    func theEndedCarriesThePreferredActionIgnoreIncluded(action: PreferredAction) throws {
        var pen = try FrameHarness(preferences: preferences { $0.squeezeAction = action })
        pen.approach()
        pen.click(.stylus2)
        #expect(pen.summary == ["squeeze began", "squeeze ended \(action.rawValue)"])
    }

    @Test func squeezeButtonNoneTurnsTheSqueezeOff() throws {
        var pen = try FrameHarness(device: FrameHarness.oneButton, preferences: preferences { $0.squeezeButton = .none })
        pen.approach()
        pen.press(.stylus)
        pen.wait(ms: 2000)
        pen.release(.stylus)
        var twoButtons = try FrameHarness(preferences: preferences { $0.squeezeButton = .none })
        twoButtons.approach()
        twoButtons.click(.stylus2)
        #expect(pen.summary == [])
        #expect(twoButtons.summary == [])
        // Positive control: the same presses with the default squeeze button squeeze.
        var defaults = try FrameHarness(device: FrameHarness.oneButton)
        defaults.approach()
        defaults.press(.stylus)
        defaults.wait(ms: 2000)
        defaults.release(.stylus)
        var twoDefaults = try FrameHarness()
        twoDefaults.approach()
        twoDefaults.click(.stylus2)
        #expect(defaults.summary.last == "squeeze ended showContextualPalette", "\(defaults.summary)")
        #expect(twoDefaults.summary == ["squeeze began", "squeeze ended showContextualPalette"])
    }

    @Test func aNewSubscriberLearnsOfTheSqueezeInProgress() throws {
        var pen = try FrameHarness()
        pen.approach(x: 0.2, y: 0.2)
        #expect(pen.recognizer.catchUpEvents(at: pen.time).isEmpty)
        pen.press(.stylus2)
        pen.move(toX: 0.25, y: 0.2)
        let catchUp = pen.recognizer.catchUpEvents(at: 42)
        #expect(catchUp.map(\.summary) == ["squeeze began"])
        #expect(catchUp.first?.time == 42)
        #expect(catchUp.first?.pose == FrameHarness.pose(x: 0.25, y: 0.2))
        #expect(catchUp.first?.tool == FrameHarness.pen)
    }

    @Test func aRecogniserMadeWhileTheButtonIsHeldWaitsForItsRelease() throws {
        var state = PenState(tool: FrameHarness.pen, buttons: .stylus2, pose: FrameHarness.pose(x: 0.5, y: 0.5))
        state.tipDown = false
        var pen = try FrameHarness()
        pen.recognizer = try GestureRecognizer(device: FrameHarness.twoButtons, state: state)
        pen.pen = state
        pen.move(toX: 0.6, y: 0.5)
        pen.release(.stylus2)
        #expect(pen.summary == [])
        #expect(pen.recognizer.bugs.isEmpty)
        // Positive control: the next press, seen going down, squeezes.
        pen.wait(ms: 30)
        pen.click(.stylus2)
        #expect(pen.summary == ["squeeze began", "squeeze ended showContextualPalette"])
    }
}
