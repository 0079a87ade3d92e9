import GestureRecognizer
import PencilInput
import PencilProtocol
import PencilTestSupport
import Testing

/// docs/gestures.md "Squeeze" under longPress: a long hold of tapButton.
@Suite struct LongPressTests {
    @Test func aLongHoldOnAOneButtonPenIsASqueezeThatBeginsByTimer() throws {
        var pen = try FrameHarness(device: FrameHarness.oneButton)
        pen.approach(x: 0.4, y: 0.4)
        let pressTime = pen.time
        pen.press(.stylus)
        #expect(pen.recognizer.nextDeadline == pressTime + 500_000)
        pen.wait(ms: 200)
        pen.move(byMillimetersX: 1)
        #expect(pen.recognizer.nextDeadline == pressTime + 500_000, "moving within the slop keeps the timer")
        pen.wait(ms: 400)
        pen.advanceClock()
        #expect(pen.summary == ["squeeze began"])
        let began = try #require(pen.gestures.first)
        #expect(began.time == pressTime + 500_000, "at the deadline, not the next frame")
        #expect(began.pose == pen.pen.pose, "with the pose current then")
        #expect(pen.recognizer.nextDeadline == nil)
        pen.move(byMillimetersX: 10)
        pen.wait(ms: 10)
        pen.release(.stylus)
        #expect(pen.summary == ["squeeze began", "squeeze changed", "squeeze ended showContextualPalette"])
    }

    @Test func aLongPressIsNeverAClick() throws {
        var pen = try FrameHarness(device: FrameHarness.oneButton, preferences: preferences {
            $0.tapMaxDuration = 1000
            $0.doubleTapInterval = 2000
        })
        pen.approach()
        pen.click(.stylus, holdingMs: 600)
        pen.wait(ms: 50)
        pen.press(.stylus)
        #expect(pen.summary == ["squeeze began", "squeeze ended showContextualPalette"])
    }

    @Test(arguments: [(499, false), (500, true)])
    func theHoldLastsLongPressDuration(holdingMs: Int, squeezed: Bool) throws {
        var pen = try FrameHarness(device: FrameHarness.oneButton)
        pen.approach()
        pen.click(.stylus, holdingMs: holdingMs)
        #expect(pen.summary == (squeezed ? ["squeeze began", "squeeze ended showContextualPalette"] : []))
    }

    @Test func aLongPressThatMovesTooFarIsNoSqueeze() throws {
        var pen = try FrameHarness(device: FrameHarness.oneButton)
        pen.approach(x: 0.4, y: 0.4)
        pen.press(.stylus)
        pen.wait(ms: 100)
        pen.move(byMillimetersX: 4.5)
        #expect(pen.recognizer.nextDeadline == nil)
        pen.wait(ms: 100)
        pen.move(byMillimetersX: -4.5)  // coming back does not re-arm it
        pen.wait(ms: 900)
        pen.advanceClock()
        pen.release(.stylus)
        #expect(pen.summary == [])
    }

    @Test func aQuickPressThatMovedIsStillAClick() throws {
        var pen = try FrameHarness(device: FrameHarness.oneButton)
        pen.approach(x: 0.4, y: 0.4)
        pen.press(.stylus)
        pen.move(byMillimetersX: 6)
        pen.move(byMillimetersX: -6)
        pen.wait(ms: 50)
        pen.release(.stylus)
        pen.wait(ms: 50)
        pen.press(.stylus)
        #expect(pen.summary == ["doubleTap switchEraser"])
    }

    @Test func aSecondPressHeldLongIsNoSqueeze() throws {
        var pen = try FrameHarness(device: FrameHarness.oneButton)
        pen.approach()
        pen.click(.stylus)
        pen.press(.stylus)
        pen.wait(ms: 1000)
        pen.advanceClock()
        pen.release(.stylus)
        #expect(pen.summary == ["doubleTap switchEraser"])
    }

    @Test(arguments: [SqueezeButton.longPress, .stylus3])
    func longPressOnATwoButtonPen(squeezeButton: SqueezeButton) throws {
        var pen = try FrameHarness(preferences: preferences { $0.squeezeButton = squeezeButton })
        pen.approach()
        pen.click(.stylus2)  // no longer a squeeze
        pen.press(.stylus)
        pen.wait(ms: 500)
        pen.release(.stylus)
        #expect(pen.summary == ["squeeze began", "squeeze ended showContextualPalette"])
    }

    /// The pipeline, the one place of the timer rule, fires the long press at its deadline
    /// before a frame that comes later, even one that releases the button.
    @Test func aFrameAfterTheDeadlineGetsTheSqueezeFirst() throws {
        var pen = PenScript(device: TestPens.oneButton)
        pen.approach()
        let pressTime = pen.time
        pen.press(.stylus)
        pen.wait(ms: 700)
        pen.release(.stylus)
        let releaseTime = pen.time
        let squeezes = try replay(pen).filter { $0.type == .squeeze }
        #expect(squeezes.map(\.summary) == ["squeeze began", "squeeze ended showContextualPalette"])
        #expect(squeezes.first?.time == pressTime + 500_000)
        #expect(squeezes.last?.time == releaseTime)
    }

    @Test func unpluggingOrDroppingEventsCancelsALongPressSqueeze() throws {
        var unplugged = try FrameHarness(device: FrameHarness.oneButton)
        unplugged.approach()
        unplugged.press(.stylus)
        unplugged.wait(ms: 600)
        unplugged.unplug()
        var dropped = try FrameHarness(device: FrameHarness.oneButton)
        dropped.approach()
        dropped.press(.stylus)
        dropped.wait(ms: 600)
        dropped.dropEvents()
        dropped.release(.stylus)
        #expect(unplugged.summary == ["squeeze began", "squeeze cancelled"])
        #expect(dropped.summary == ["squeeze began", "squeeze cancelled"])
        #expect(dropped.recognizer.bugs.isEmpty)
    }

    @Test func aTimerNotYetDueDoesNotFire() throws {
        var pen = try FrameHarness(device: FrameHarness.oneButton)
        pen.approach()
        pen.press(.stylus)
        var events: [Event] = []
        pen.recognizer.advance(to: pen.time + 499_999, into: &events)
        #expect(events.isEmpty)
        pen.recognizer.advance(to: pen.time + 500_000, into: &events)
        #expect(events.map(\.summary) == ["squeeze began"])
        pen.recognizer.advance(to: pen.time + 900_000, into: &events)
        #expect(events.count == 1, "a timer fires once")
    }
}
