import GestureRecognizer
import PencilInput
import PencilProtocol
import Testing

/// docs/gestures.md "Double-tap", one rule at a time, on hand-built frames.
@Suite struct DoubleTapTests {
    @Test func doubleTapIsRecognisedAtTheSecondPressWithItsPose() throws {
        var pen = try FrameHarness()
        pen.approach(x: 0.5, y: 0.5)
        pen.wait(ms: 20)
        pen.click(.stylus, holdingMs: 80)
        pen.wait(ms: 100)
        pen.move(toX: 0.501, y: 0.5)
        let secondPress = pen.time
        pen.press(.stylus)
        #expect(pen.summary == ["doubleTap switchEraser"])
        let tap = try #require(pen.gestures.first)
        #expect(tap.time == secondPress)
        #expect(tap.pose == FrameHarness.pose(x: 0.501, y: 0.5))
        #expect(tap.tool == FrameHarness.pen)
        #expect(tap.device == "event7")
        pen.wait(ms: 80)
        pen.release(.stylus)
        #expect(pen.summary == ["doubleTap switchEraser"], "the second press's release is no click")
        #expect(pen.recognizer.bugs.isEmpty)
    }

    @Test(arguments: [(300, true), (301, false)])
    func aClickLastsAtMostTapMaxDuration(holdingMs: Int, recognised: Bool) throws {
        var pen = try FrameHarness(preferences: preferences { $0.doubleTapInterval = 1000 })
        pen.approach()
        pen.click(.stylus, holdingMs: holdingMs)
        pen.wait(ms: 50)
        pen.press(.stylus)
        #expect(pen.summary == (recognised ? ["doubleTap switchEraser"] : []))
    }

    @Test(arguments: [(400, true), (401, false)])
    func theSecondPressComesWithinDoubleTapInterval(afterMs interval: Int, recognised: Bool) throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.click(.stylus, holdingMs: 100)
        pen.wait(ms: interval - 100)
        pen.press(.stylus)
        #expect(pen.summary == (recognised ? ["doubleTap switchEraser"] : []))
    }

    @Test(arguments: [(3.9, true), (4.0, true), (4.1, false)])
    func thePressesAreWithinDoubleTapSlopInMillimetres(distance: Double, recognised: Bool) throws {
        var pen = try FrameHarness()
        pen.approach(x: 0.25, y: 0.5)
        pen.click(.stylus)
        pen.wait(ms: 50)
        // Exactly 4 mm is not exactly representable after normalising: stay a hair inside.
        pen.move(byMillimetersX: distance == 4.0 ? 3.999999 : distance)
        pen.press(.stylus)
        #expect(pen.summary == (recognised ? ["doubleTap switchEraser"] : []))
    }

    /// Without resolution 4 mm count as 1 % of the normalised diagonal: 0.01414 in x alone.
    @Test(arguments: [(0.0141, true), (0.0142, false)])
    func withoutResolutionTheSlopIsAShareOfTheDiagonal(dx: Double, recognised: Bool) throws {
        var pen = try FrameHarness()
        pen.approach(x: 0.25, y: 0.5, mm: false)
        pen.click(.stylus)
        pen.wait(ms: 50)
        pen.move(toX: 0.25 + dx, y: 0.5, mm: false)
        pen.press(.stylus)
        #expect(pen.summary == (recognised ? ["doubleTap switchEraser"] : []))
    }

    @Test func theSlopScalesWithThePreference() throws {
        var pen = try FrameHarness(preferences: preferences { $0.doubleTapSlop = 10 })
        pen.approach(x: 0.25, y: 0.5)
        pen.click(.stylus)
        pen.move(byMillimetersX: 9.5)
        pen.press(.stylus)
        #expect(pen.summary == ["doubleTap switchEraser"])
    }

    @Test func aThirdPressStartsANewSequence() throws {
        var pen = try FrameHarness(preferences: preferences { $0.doubleTapInterval = 1000 })
        pen.approach()
        pen.click(.stylus)
        pen.wait(ms: 50)
        pen.click(.stylus)  // the double-tap
        pen.wait(ms: 50)
        pen.click(.stylus)  // the first press of a new sequence, not a second double-tap
        #expect(pen.summary == ["doubleTap switchEraser"])
        pen.wait(ms: 50)
        pen.press(.stylus)  // its second press
        #expect(pen.summary == ["doubleTap switchEraser", "doubleTap switchEraser"])
    }

    @Test func aPressTooLongForAClickIsNoFirstClick() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.click(.stylus, holdingMs: 350)
        pen.wait(ms: 40)
        pen.press(.stylus)  // 390 ms after the first press, but the first was no click
        #expect(pen.summary == [])
        pen.wait(ms: 50)
        pen.release(.stylus)
        pen.wait(ms: 50)
        pen.press(.stylus)  // the previous press was a click: now a double-tap
        #expect(pen.summary == ["doubleTap switchEraser"])
    }

    @Test func aSecondPressTooLateIsTheFirstOfANewSequence() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.click(.stylus)
        pen.wait(ms: 500)
        pen.click(.stylus)
        pen.wait(ms: 100)
        pen.press(.stylus)
        #expect(pen.summary == ["doubleTap switchEraser"])
    }

    @Test func leavingProximityBetweenTheClicksForgetsTheSequence() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.click(.stylus)
        pen.wait(ms: 20)
        pen.leave()
        pen.wait(ms: 20)
        pen.approach()
        pen.wait(ms: 20)
        pen.press(.stylus)
        #expect(pen.summary == [])
        // Positive control: that press was the first of a new sequence, so the next one is a double-tap.
        pen.release(.stylus)
        pen.wait(ms: 50)
        pen.press(.stylus)
        #expect(pen.summary == ["doubleTap switchEraser"])
    }

    @Test func anotherToolBetweenTheClicksForgetsTheSequence() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.click(.stylus)
        pen.wait(ms: 20)
        pen.flip(to: FrameHarness.eraser)
        pen.wait(ms: 20)
        pen.press(.stylus)
        #expect(pen.summary == [])
        // Positive control: the same clicks, 40 ms apart, without the other tool.
        var same = try FrameHarness()
        same.approach()
        same.click(.stylus)
        same.wait(ms: 40)
        same.press(.stylus)
        #expect(same.summary == ["doubleTap switchEraser"])
    }

    @Test func droppedEventsForgetThePendingSequence() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.click(.stylus)
        pen.wait(ms: 20)
        pen.dropEvents()
        pen.wait(ms: 20)
        pen.press(.stylus)
        #expect(pen.summary == [])
        // Positive control: that press began a new sequence, and its second press completes it.
        pen.release(.stylus)
        pen.wait(ms: 50)
        pen.press(.stylus)
        #expect(pen.summary == ["doubleTap switchEraser"])
    }

    @Test func aButtonFirstSeenDownAfterDroppedEventsWaitsForItsRelease() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.dropEvents { $0.buttons = .stylus }
        pen.wait(ms: 50)
        pen.release(.stylus)
        pen.wait(ms: 50)
        pen.press(.stylus)  // the first press of a sequence: the one before had no known time
        #expect(pen.summary == [])
        #expect(pen.recognizer.bugs.isEmpty)
        // Positive control: its second press is a double-tap.
        pen.release(.stylus)
        pen.wait(ms: 50)
        pen.press(.stylus)
        #expect(pen.summary == ["doubleTap switchEraser"])
    }

    @Test func theTipDoesNotMatter() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.click(.stylus)  // hovering
        pen.wait(ms: 30)
        pen.touchDown()
        pen.wait(ms: 30)
        pen.press(.stylus)  // touching
        #expect(pen.summary == ["doubleTap switchEraser"])
    }

    @Test(arguments: PreferredAction.allCases)
    func theActionIsThePreferredOneIgnoreIncluded(action: PreferredAction) throws {
        var pen = try FrameHarness(preferences: preferences { $0.doubleTapAction = action })
        pen.approach()
        pen.click(.stylus)
        pen.press(.stylus)
        #expect(pen.summary == ["doubleTap \(action.rawValue)"])
    }

    @Test func tapButtonNoneTurnsDoubleTapOff() throws {
        var pen = try FrameHarness(preferences: preferences { $0.tapButton = .none })
        pen.approach()
        pen.click(.stylus)
        pen.press(.stylus)
        pen.click(.stylus2)  // the squeeze still works
        #expect(pen.summary == ["squeeze began", "squeeze ended showContextualPalette"])
    }

    @Test func anotherTapButtonIsHonoured() throws {
        var pen = try FrameHarness(preferences: preferences { $0.tapButton = .stylus2; $0.squeezeButton = .stylus })
        pen.approach()
        pen.click(.stylus2)
        pen.press(.stylus2)
        #expect(pen.summary == ["doubleTap switchEraser"])
    }

    @Test func theOtherButtonsDoNotDisturbASequence() throws {
        var pen = try FrameHarness(preferences: preferences { $0.squeezeButton = .none })
        pen.approach()
        pen.click(.stylus)
        pen.click(.stylus2, holdingMs: 20)
        pen.press(.stylus)
        #expect(pen.summary == ["doubleTap switchEraser"])
    }
}
