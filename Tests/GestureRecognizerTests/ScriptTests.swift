import GestureRecognizer
import PencilInput
import PencilProtocol
import PencilTestSupport
import Testing

/// docs/gestures.md rule by rule, from pen scripts through the whole pipeline (tracker, then
/// recogniser), as a person would use the pen.
@Suite struct ScriptTests {
    // MARK: Double-tap

    @Test func aDoubleClickOfTheBarrelButtonIsADoubleTapAtTheSecondPress() throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach(x: 0.5, y: 0.5)
        pen.wait(ms: 20)
        pen.click(.stylus, holdingMs: 80)
        pen.wait(ms: 120)
        let secondPress = pen.time
        pen.click(.stylus, holdingMs: 80)
        pen.wait(ms: 20)
        pen.leave()
        let events = try replay(pen)
        let tap = try #require(events.first { $0.type == .doubleTap })
        #expect(tap.time == secondPress)
        #expect(tap.action == .switchEraser)
        #expect(tap.tool?.type == .pen)
        #expect(tap.tool?.serial == 0x1234)
        // Buttons are reported at once; the double-tap follows the second buttonDown.
        let frame = events.filter { $0.time == secondPress }.map(\.summary)
        #expect(frame == ["buttonDown stylus", "doubleTap switchEraser"])
        #expect(events.filter(\.isGesture).count == 1)
    }

    @Test(arguments: [(300, 1), (301, 0)])
    func tapMaxDuration(holdingMs: Int, doubleTaps: Int) throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach()
        pen.click(.stylus, holdingMs: holdingMs)
        pen.wait(ms: 50)
        pen.click(.stylus)
        #expect(try gestures(pen, preferences { $0.doubleTapInterval = 1000 }).count == doubleTaps)
    }

    @Test(arguments: [(400, 1), (401, 0)])
    func doubleTapInterval(secondPressAfterMs: Int, doubleTaps: Int) throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach()
        pen.click(.stylus, holdingMs: 100)
        pen.wait(ms: secondPressAfterMs - 100)
        pen.click(.stylus)
        #expect(try gestures(pen).count == doubleTaps)
    }

    @Test(arguments: [(3.9, 1), (4.1, 0)])
    func doubleTapSlopInMillimetres(movedMm: Double, doubleTaps: Int) throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach(x: 0.3, y: 0.3)
        pen.click(.stylus)
        pen.wait(ms: 20)
        pen.move(byMillimetersX: movedMm * 0.6, y: movedMm * 0.8)
        pen.wait(ms: 20)
        pen.click(.stylus)
        #expect(try gestures(pen).count == doubleTaps)
    }

    /// 4 mm count as 1 % of the normalised diagonal √2: 0.014142 along x.
    @Test(arguments: [(0.0140, 1), (0.0143, 0)])
    func doubleTapSlopWithoutResolution(movedX: Double, doubleTaps: Int) throws {
        var pen = PenScript(device: TestPens.noResolution)
        pen.approach(x: 0.3, y: 0.3)
        pen.click(.stylus)
        pen.wait(ms: 20)
        pen.move(toX: 0.3 + movedX, y: 0.3)
        pen.wait(ms: 20)
        pen.click(.stylus)
        #expect(try gestures(pen).count == doubleTaps)
    }

    @Test func aThirdPressStartsANewSequence() throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach()
        for _ in 0..<3 {
            pen.click(.stylus, holdingMs: 60)
            pen.wait(ms: 60)
        }
        #expect(try gestures(pen) == ["doubleTap switchEraser"])
        pen.click(.stylus, holdingMs: 60)
        #expect(try gestures(pen) == ["doubleTap switchEraser", "doubleTap switchEraser"])
    }

    @Test func leavingBetweenTheClicksIsNoDoubleTap() throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach()
        pen.click(.stylus)
        pen.wait(ms: 20)
        pen.leave()
        pen.wait(ms: 20)
        pen.approach()
        pen.click(.stylus)
        #expect(try gestures(pen) == [])
    }

    @Test func onAPenWithoutToolKeysTheForcedProximityOutForgetsTheSequence() throws {
        let slow = preferences { $0.doubleTapInterval = 1000 }
        var hovering = PenScript(device: TestPens.noToolKeys)
        hovering.approach(x: 0.5, y: 0.5)
        hovering.click(.stylus, holdingMs: 10)
        for _ in 0..<6 {  // the pen hovers, so the device keeps sending
            hovering.wait(ms: 100)
            hovering.move(toX: 0.5, y: hovering.y == 0.5 ? 0.5001 : 0.5)
        }
        hovering.click(.stylus)
        var silent = PenScript(device: TestPens.noToolKeys)
        silent.approach(x: 0.5, y: 0.5)
        silent.click(.stylus, holdingMs: 10)
        silent.wait(ms: 600)  // 500 ms of silence take the pen away
        silent.move(toX: 0.5, y: 0.5001)
        silent.click(.stylus)
        #expect(try gestures(hovering, slow) == ["doubleTap switchEraser"])
        #expect(try gestures(silent, slow) == [])
        #expect(try replay(silent, slow).filter { $0.type == .proximityIn }.count == 2)
    }

    @Test(arguments: PreferredAction.allCases)
    func theDoubleTapCarriesThePreferredActionEvenIgnore(action: PreferredAction) throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach()
        pen.click(.stylus)
        pen.click(.stylus)
        #expect(try gestures(pen, preferences { $0.doubleTapAction = action }) == ["doubleTap \(action.rawValue)"])
    }

    @Test func tapButtonNoneTurnsTheDoubleTapOff() throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach()
        pen.click(.stylus)
        pen.click(.stylus)
        #expect(try gestures(pen, preferences { $0.tapButton = .none }) == [])
    }

    // MARK: Squeeze

    @Test func aSqueezeOfTheSecondButtonWhileTouchingAndDrawing() throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach(x: 0.2, y: 0.2)
        pen.touchDown(pressure: 0.4)
        pen.wait(ms: 10)
        pen.press(.stylus2)
        pen.move(toX: 0.3, y: 0.2, overMs: 30, steps: 3)
        pen.wait(ms: 10)
        pen.release(.stylus2)
        pen.lift()
        #expect(try gestures(pen) == ["squeeze began", "squeeze changed", "squeeze changed", "squeeze changed",
                                      "squeeze ended showContextualPalette"])
    }

    @Test func leavingProximityWithTheButtonHeldEndsTheSqueezeInContractOrder() throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach(x: 0.2, y: 0.2)
        pen.press(.stylus2)
        pen.wait(ms: 50)
        pen.leave()
        let events = try replay(pen)
        let last = events.filter { $0.time == pen.time && $0.type != .deviceRemoved }
        #expect(last.map(\.summary) == ["buttonUp stylus2", "squeeze ended showContextualPalette", "hover ended", "proximityOut"])
        let ended = try #require(last.first { $0.type == .squeeze })
        #expect(ended.pose?.x == 0.2, "the pose before the leaving frame zeroed the axes")
    }

    @Test func unpluggingCancelsTheSqueezeInContractOrder() throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach()
        pen.touchDown()
        pen.press(.stylus2)
        pen.wait(ms: 50)
        pen.unplug()
        // A touching pen does not hover, so no hover ended closes it.
        let close = try replay(pen).suffix(5).map(\.summary)
        #expect(close == ["tipUp", "buttonUp stylus2", "squeeze cancelled", "proximityOut", "deviceRemoved"])
    }

    @Test func droppedEventsCancelTheSqueeze() throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach()
        pen.press(.stylus2)
        pen.wait(ms: 50)
        pen.dropEvents()
        pen.wait(ms: 10)
        pen.move(toX: 0.6, y: 0.5)
        pen.wait(ms: 10)
        pen.release(.stylus2)
        pen.wait(ms: 10)
        pen.click(.stylus2)
        #expect(try gestures(pen) == ["squeeze began", "squeeze cancelled", "squeeze began", "squeeze ended showContextualPalette"])
    }

    @Test func flippingToTheEraserMidSqueezeCancelsItBeforeThePenLeaves() throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach()
        pen.press(.stylus2)
        pen.wait(ms: 50)
        pen.release(.stylus2)  // the eraser end has no barrel button
        pen.press(.stylus2)
        pen.wait(ms: 50)
        let flipTime = pen.time
        pen.flip(to: .eraser)
        let events = try replay(pen).filter { $0.time == flipTime }
        #expect(events.map(\.summary).prefix(4) == ["buttonUp stylus2", "squeeze cancelled", "hover ended", "proximityOut"])
        #expect(events.first { $0.type == .squeeze }?.tool?.type == .pen)
        #expect(events.contains { $0.type == .proximityIn && $0.tool?.type == .eraser })
    }

    @Test(arguments: PreferredAction.allCases)
    func theSqueezeEndsWithThePreferredActionEvenIgnore(action: PreferredAction) throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach()
        pen.click(.stylus2)
        #expect(try gestures(pen, preferences { $0.squeezeAction = action }) == ["squeeze began", "squeeze ended \(action.rawValue)"])
    }

    @Test func squeezeButtonNoneTurnsTheSqueezeOff() throws {
        var pen = PenScript(device: TestPens.cintiqLike)
        pen.approach()
        pen.click(.stylus2)
        pen.press(.stylus)
        pen.wait(ms: 800)
        pen.release(.stylus)
        #expect(try gestures(pen, preferences { $0.squeezeButton = .none }) == [])
        // Positive control: the same script with the default preferences has its squeezes.
        #expect(try gestures(pen).contains { $0.hasPrefix("squeeze") })
    }

    // MARK: Long press

    @Test func aOneButtonPenSqueezesByHoldingItsButton() throws {
        var pen = PenScript(device: TestPens.oneButton)
        pen.approach()
        let pressTime = pen.time
        pen.press(.stylus)
        pen.wait(ms: 700)
        pen.move(byMillimetersX: 2)
        pen.release(.stylus)
        let squeezes = try replay(pen).filter(\.isGesture)
        #expect(squeezes.map(\.summary) == ["squeeze began", "squeeze changed", "squeeze ended showContextualPalette"])
        #expect(squeezes.first?.time == pressTime + 500_000, "by the timer, on the recording's clock")
    }

    @Test func aLongPressThatMovesTooFarIsNoSqueeze() throws {
        var pen = PenScript(device: TestPens.oneButton)
        pen.approach(x: 0.4, y: 0.4)
        pen.press(.stylus)
        pen.wait(ms: 200)
        pen.move(byMillimetersX: 5)
        pen.wait(ms: 600)
        pen.release(.stylus)
        #expect(try gestures(pen) == [])
    }

    @Test func aSecondButtonTheDeviceLacksMeansLongPress() throws {
        var pen = PenScript(device: TestPens.oneButton)
        pen.approach()
        pen.click(.stylus, holdingMs: 499)
        pen.wait(ms: 100)
        pen.click(.stylus, holdingMs: 500)
        #expect(try gestures(pen) == ["squeeze began", "squeeze ended showContextualPalette"])
    }
}

/// The same person on every real pen of the test-device table.
@Suite struct TestDeviceScriptTests {
    @Test(arguments: TestDevice.pens)
    func aDoubleClickAndASqueezeOnEveryPen(device: TestDevice) throws {
        let description = device.description
        var pen = PenScript(device: description)
        pen.approach(x: 0.4, y: 0.4)
        pen.wait(ms: 10)
        pen.click(.stylus, holdingMs: 70)
        pen.wait(ms: 90)
        pen.click(.stylus, holdingMs: 70)
        pen.wait(ms: 400)
        let dedicated = description.hasKey(EventCode.BTN_STYLUS2)
        if dedicated {
            pen.press(.stylus2)
        } else {
            pen.press(.stylus)  // a one-button pen squeezes by holding it
        }
        for _ in 0..<10 {  // 700 ms of drawing small circles while holding
            pen.wait(ms: 70)
            pen.move(toX: pen.x + 0.001, y: pen.y)
        }
        pen.release(dedicated ? .stylus2 : .stylus)
        pen.wait(ms: 20)
        pen.leave()
        let summary = try gestures(pen)
        guard description.hasKey(EventCode.BTN_STYLUS) else {
            #expect(summary.isEmpty, "a pen without barrel buttons has no gestures")
            return
        }
        #expect(summary.first == "doubleTap switchEraser")
        #expect(summary.filter { $0 == "doubleTap switchEraser" }.count == 1)
        #expect(summary.filter { $0 == "squeeze began" }.count == 1)
        #expect(summary.last == "squeeze ended showContextualPalette")
    }
}
