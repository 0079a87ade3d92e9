import Testing
@testable import PencilInput
import PencilProtocol

/// A small Intuos-like pen: tool keys, pressure 0...2047, distance, tilt with a resolution,
/// two barrel buttons, X/Y with 200 units per millimetre.
private let intuosLike: DeviceDescription = {
    var d = DeviceDescription(name: "Test Pen", bus: 3, vendor: 0x56a, product: 0x27)
    d.enableAbs(EventCode.ABS_X, AbsInfo(minimum: 0, maximum: 44704, resolution: 200))
    d.enableAbs(EventCode.ABS_Y, AbsInfo(minimum: 0, maximum: 27940, resolution: 200))
    d.enableAbs(EventCode.ABS_PRESSURE, AbsInfo(minimum: 0, maximum: 2047))
    d.enableAbs(EventCode.ABS_DISTANCE, AbsInfo(minimum: 0, maximum: 63))
    d.enableAbs(EventCode.ABS_TILT_X, AbsInfo(minimum: -64, maximum: 63, resolution: 57))
    d.enableAbs(EventCode.ABS_TILT_Y, AbsInfo(minimum: -64, maximum: 63, resolution: 57))
    d.enableAbs(EventCode.ABS_MISC, AbsInfo(minimum: 0, maximum: 0))
    for key in [EventCode.BTN_TOOL_PEN, EventCode.BTN_TOOL_RUBBER, EventCode.BTN_TOUCH, EventCode.BTN_STYLUS, EventCode.BTN_STYLUS2] {
        d.enable(type: EventCode.EV_KEY, code: key)
    }
    d.enable(type: EventCode.EV_MSC, code: EventCode.MSC_SERIAL)
    return d
}()

/// A UC-Logic-like pen without tool keys and without pressure: BTN_TOUCH is the tip.
private let noToolKeys: DeviceDescription = {
    var d = DeviceDescription(name: "Cheap Pen", bus: 3, vendor: 0x5543, product: 4)
    d.enableAbs(EventCode.ABS_X, AbsInfo(minimum: 0, maximum: 1000))
    d.enableAbs(EventCode.ABS_Y, AbsInfo(minimum: 0, maximum: 1000))
    for key in [EventCode.BTN_TOUCH, EventCode.BTN_STYLUS] { d.enable(type: EventCode.EV_KEY, code: key) }
    return d
}()

private typealias Raw = (type: UInt16, code: UInt16, value: Int32)
private func key(_ code: UInt16, _ down: Bool) -> Raw { (EventCode.EV_KEY, code, down ? 1 : 0) }
private func abs(_ code: UInt16, _ value: Int32) -> Raw { (EventCode.EV_ABS, code, value) }
private let penIn = key(EventCode.BTN_TOOL_PEN, true)
private let penOut = key(EventCode.BTN_TOOL_PEN, false)

/// Drives a tracker frame by frame; `milliseconds` is each frame's time.
private struct Harness {
    var tracker: PenTracker
    var frame = PenFrame()
    var events: [Event] = []
    var frames: [PenFrame] = []

    init(_ device: DeviceDescription) {
        tracker = PenTracker(description: device, id: "event7")
        tracker.start(at: 0, into: &frame)
        events += frame.events
    }

    /// Sends one frame at `ms`, first firing a due forced proximity-out as a daemon would.
    @discardableResult
    mutating func send(at ms: Int64, _ raws: [Raw]) -> [Event] {
        let time = ms * 1000
        var produced: [Event] = []
        if tracker.advance(to: time, into: &frame) { produced += frame.events; frames.append(frame) }
        for raw in raws {
            _ = tracker.feed(InputEvent(time: time, type: raw.type, code: raw.code, value: raw.value), into: &frame)
        }
        if tracker.feed(InputEvent(time: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0), into: &frame) {
            produced += frame.events
            frames.append(frame)
        }
        events += produced
        return produced
    }

    mutating func unplug() -> [Event] {
        tracker.remove(into: &frame)
        events += frame.events
        frames.append(frame)
        return frame.events
    }
}

private func names(_ events: [Event]) -> [String] {
    events.map { $0.type.rawValue + ($0.phase.map { "." + $0.rawValue } ?? "") + ($0.button.map { ":" + $0.rawValue } ?? "") }
}

@Suite("PenTracker: what a person does with the pen")
struct PenTrackerTests {
    @Test func deviceAddedDescribesThePen() {
        let h = Harness(intuosLike)
        #expect(names(h.events) == ["deviceAdded"])
        let info = h.events[0].deviceInfo
        #expect(info?.tools == [.pen, .eraser])
        #expect(info?.axes == [.pressure, .distance, .tilt])
        #expect(info?.buttons == [.stylus, .stylus2])
        #expect(info?.widthMillimeters == 44704.0 / 200)
        #expect(info?.direct == false)
    }

    @Test func approachHoverTouchDrawLiftLeave() {
        var h = Harness(intuosLike)
        #expect(names(h.send(at: 10, [penIn, (EventCode.EV_MSC, EventCode.MSC_SERIAL, 42), abs(EventCode.ABS_X, 22352), abs(EventCode.ABS_Y, 13970), abs(EventCode.ABS_DISTANCE, 30)])) == ["proximityIn", "hover.began"])
        #expect(h.events.last?.tool == Tool(type: .pen, serial: 42, id: 0))
        #expect(h.events.last?.pose?.x == 0.5)
        #expect(names(h.send(at: 20, [abs(EventCode.ABS_X, 22400)])) == ["hover.changed"])
        #expect(names(h.send(at: 25, [abs(EventCode.ABS_Y, 13970)])) == [], "a value that does not change the pose is no event")
        #expect(names(h.send(at: 30, [abs(EventCode.ABS_PRESSURE, 1000), key(EventCode.BTN_TOUCH, true)])) == ["hover.ended", "tipDown"])
        #expect(names(h.send(at: 40, [abs(EventCode.ABS_X, 22500)])) == ["motion"])
        #expect(names(h.send(at: 50, [abs(EventCode.ABS_PRESSURE, 0), key(EventCode.BTN_TOUCH, false)])) == ["tipUp", "hover.began"])
        // Wacom zeroes the axes in the frame that ends proximity: the closing events keep the last pose.
        let out = h.send(at: 60, [penOut, abs(EventCode.ABS_X, 0), abs(EventCode.ABS_Y, 0), (EventCode.EV_MSC, EventCode.MSC_SERIAL, 0)])
        #expect(names(out) == ["hover.ended", "proximityOut"])
        #expect(out.allSatisfy { $0.pose?.x == 22500.0 / 44704 })
    }

    @Test func tipFollowsPressureWithHysteresisNotBTN_TOUCH() {
        var h = Harness(intuosLike)
        h.send(at: 0, [penIn, abs(EventCode.ABS_X, 100)])
        // 5 % of 2047 is 102.35: 102 is not enough, 103 is.
        #expect(names(h.send(at: 10, [abs(EventCode.ABS_PRESSURE, 102), key(EventCode.BTN_TOUCH, true)])) == [])
        #expect(names(h.send(at: 20, [abs(EventCode.ABS_PRESSURE, 103)])) == ["hover.ended", "tipDown"])
        #expect(h.events.last?.pose?.pressure == 103.0 / 2047)
        // Below 5 % but not below 1 % (20.47): still down.
        #expect(names(h.send(at: 30, [abs(EventCode.ABS_PRESSURE, 21)])) == ["motion"])
        #expect(names(h.send(at: 40, [abs(EventCode.ABS_PRESSURE, 20)])) == ["tipUp", "hover.began"])
        #expect(h.events.last?.pose?.pressure == 0, "pressure is 0 while the tip is up")
    }

    @Test func flippingToTheEraserReplacesTheToolInOneFrame() {
        var h = Harness(intuosLike)
        h.send(at: 0, [penIn, (EventCode.EV_MSC, EventCode.MSC_SERIAL, 7), abs(EventCode.ABS_X, 100)])
        h.send(at: 10, [key(EventCode.BTN_STYLUS, true)])
        let out = h.send(at: 20, [key(EventCode.BTN_TOOL_RUBBER, true), abs(EventCode.ABS_X, 200)])
        #expect(names(out) == ["buttonUp:stylus", "hover.ended", "proximityOut", "proximityIn", "hover.began", "buttonDown:stylus"])
        #expect(out[0].tool?.type == .pen && out[3].tool?.type == .eraser)
        #expect(out[2].pose?.x == 100.0 / 44704, "the old tool leaves with its own last pose")
        #expect(h.frames.last?.replacedTool?.type == .pen)
        #expect(h.frames.last?.replacedGestureIndex == 1)
        #expect(h.frames.last?.gestureIndex == 6)
        // The pen's key coming up later is not the tool in proximity: ignored.
        #expect(names(h.send(at: 30, [penOut])) == [])
        #expect(h.tracker.state.tool?.type == .eraser)
    }

    @Test func buttonsAreReleasedBeforeTheToolLeaves() {
        var h = Harness(intuosLike)
        h.send(at: 0, [penIn, abs(EventCode.ABS_X, 100)])
        h.send(at: 10, [abs(EventCode.ABS_PRESSURE, 500), key(EventCode.BTN_STYLUS2, true)])
        #expect(names(h.send(at: 20, [penOut])) == ["tipUp", "buttonUp:stylus2", "proximityOut"])
        #expect(h.frames.last?.gestureIndex == 2)
    }

    @Test func framesBeforeTheFirstToolKeyAreIgnored() {
        var h = Harness(intuosLike)
        #expect(names(h.send(at: 0, [abs(EventCode.ABS_X, 100), abs(EventCode.ABS_PRESSURE, 900), key(EventCode.BTN_TOUCH, true)])) == [])
        #expect(names(h.send(at: 10, [abs(EventCode.ABS_PRESSURE, 0), key(EventCode.BTN_TOUCH, false)])) == [])
        #expect(names(h.send(at: 20, [penIn])) == ["proximityIn", "hover.began"])
    }

    @Test func aToolThatEntersWithTheTipDownDoesNotHover() {
        var h = Harness(intuosLike)
        #expect(names(h.send(at: 0, [penIn, abs(EventCode.ABS_X, 100), abs(EventCode.ABS_PRESSURE, 900)])) == ["proximityIn", "tipDown"])
    }

    @Test func silentHoveringPenIsTakenOutAfter500ms() {
        var h = Harness(noToolKeys)
        h.send(at: 1000, [abs(EventCode.ABS_X, 500), abs(EventCode.ABS_Y, 500)])
        #expect(h.tracker.nextDeadline == 1_500_000)
        h.send(at: 1400, [abs(EventCode.ABS_X, 501)])
        #expect(h.tracker.nextDeadline == 1_900_000, "every frame moves the deadline")
        let out = h.send(at: 2500, [abs(EventCode.ABS_X, 600)])
        #expect(names(out) == ["hover.ended", "proximityOut", "proximityIn", "hover.began"])
        #expect(out[0].time == 1_900_000 && out[1].time == 1_900_000, "fired at the deadline, not at the next frame")
        #expect(out[2].time == 2_500_000)
    }

    @Test func noForcedProximityOutWhileTouchingOrHoldingAButton() {
        var h = Harness(noToolKeys)
        h.send(at: 0, [abs(EventCode.ABS_X, 500), key(EventCode.BTN_TOUCH, true)])
        #expect(h.tracker.nextDeadline == nil)
        h.send(at: 10, [key(EventCode.BTN_TOUCH, false), key(EventCode.BTN_STYLUS, true)])
        #expect(h.tracker.nextDeadline == nil)
        h.send(at: 20, [key(EventCode.BTN_STYLUS, false)])
        #expect(h.tracker.nextDeadline == 520_000)
    }

    @Test func aDeviceThatReportsProximityOutIsNeverForcedOut() {
        var h = Harness(intuosLike)
        h.send(at: 0, [penIn, abs(EventCode.ABS_X, 100)])
        #expect(h.tracker.nextDeadline == 500_000, "until the device shows it reports proximity itself")
        h.send(at: 10, [penOut])
        h.send(at: 20, [penIn, abs(EventCode.ABS_X, 100)])
        #expect(h.tracker.nextDeadline == nil)
    }

    @Test func toolKeyDeviceForcedOutComesBackWithItsNextPosition() {
        var h = Harness(intuosLike)
        h.send(at: 0, [penIn, abs(EventCode.ABS_X, 100)])
        #expect(names(h.send(at: 600, [abs(EventCode.ABS_X, 300)])) == ["hover.ended", "proximityOut", "proximityIn", "hover.began"])
    }

    @Test func unplugClosesEverythingInOrderAtTheLastFrameTime() {
        var h = Harness(intuosLike)
        h.send(at: 0, [penIn, abs(EventCode.ABS_X, 100)])
        h.send(at: 10, [abs(EventCode.ABS_PRESSURE, 900), key(EventCode.BTN_STYLUS, true), key(EventCode.BTN_STYLUS2, true)])
        let out = h.unplug()
        #expect(names(out) == ["tipUp", "buttonUp:stylus", "buttonUp:stylus2", "proximityOut", "deviceRemoved"])
        #expect(out.allSatisfy { $0.time == 10_000 })
        #expect(h.frames.last?.kind == .removed && h.frames.last?.gestureIndex == 3)
        #expect(h.tracker.nextDeadline == nil)
    }

    @Test func unplugWhileHoveringEndsTheHover() {
        var h = Harness(noToolKeys)
        h.send(at: 0, [abs(EventCode.ABS_X, 100)])
        #expect(names(h.unplug()) == ["hover.ended", "proximityOut", "deviceRemoved"])
    }

    @Test func synDroppedDiscardsUpToTheNextReportAndMarksTheNextFrame() {
        var h = Harness(intuosLike)
        h.send(at: 0, [penIn, abs(EventCode.ABS_X, 100)])
        var frame = PenFrame()
        let dropped = [
            InputEvent(time: 5000, type: EventCode.EV_ABS, code: EventCode.ABS_X, value: 900),
            InputEvent(time: 5000, type: EventCode.EV_SYN, code: EventCode.SYN_DROPPED, value: 0),
            InputEvent(time: 5000, type: EventCode.EV_KEY, code: EventCode.BTN_STYLUS, value: 1),
            InputEvent(time: 5000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0),
        ]
        #expect(dropped.allSatisfy { !h.tracker.feed($0, into: &frame) })
        #expect(h.tracker.state.buttons.isEmpty && h.tracker.state.pose.x == 100.0 / 44704)
        let next = h.send(at: 10, [abs(EventCode.ABS_X, 200)])
        #expect(names(next) == ["hover.changed"])
        #expect(h.frames.last?.resynchronised == true)
        h.send(at: 20, [abs(EventCode.ABS_X, 300)])
        #expect(h.frames.last?.resynchronised == false)
    }

    @Test func liveResynchronisationAppliesTheReplayedState() {
        var h = Harness(intuosLike)
        h.send(at: 0, [penIn, abs(EventCode.ABS_X, 100)])
        h.send(at: 10, [key(EventCode.BTN_STYLUS, true)])
        h.tracker.beginResynchronisation()
        // libevdev's sync mode: the delta between what we saw and the device's real state.
        #expect(names(h.send(at: 20, [key(EventCode.BTN_STYLUS, false)])) == ["buttonUp:stylus"])
        #expect(h.frames.last?.resynchronised == true)
    }

    @Test func catchUpBringsANewSubscriberToTheCurrentState() {
        var h = Harness(intuosLike)
        #expect(h.tracker.catchUpEvents(at: 5).isEmpty)
        h.send(at: 0, [penIn, abs(EventCode.ABS_X, 100), abs(EventCode.ABS_PRESSURE, 900), key(EventCode.BTN_STYLUS2, true)])
        #expect(names(h.tracker.catchUpEvents(at: 5)) == ["proximityIn", "tipDown", "buttonDown:stylus2"])
    }

    @Test func serialsAreUnsigned() {
        var h = Harness(intuosLike)
        h.send(at: 0, [penIn, (EventCode.EV_MSC, EventCode.MSC_SERIAL, -1686110160), abs(EventCode.ABS_MISC, 0x100804)])
        #expect(h.events.last?.tool == Tool(type: .pen, serial: 2_608_857_136, id: 0x100804))
    }
}

@Suite("Pose normalisation")
struct PoseNormalizationTests {
    @Test(arguments: [
        // tiltX, tiltY, azimuth, altitude: the W3C Pointer Events test vectors.
        (0.0, 0.0, 0.0, Double.pi / 2), (0, 90, Double.pi / 2, 0), (0, -90, 3 * Double.pi / 2, 0),
        (90, 0, 0, 0), (-90, 0, Double.pi, 0), (90, 90, 0, 0), (0, 45, Double.pi / 2, Double.pi / 4),
        (0, -45, 3 * Double.pi / 2, Double.pi / 4), (45, 0, 0, Double.pi / 4), (-45, 0, Double.pi, Double.pi / 4),
    ])
    func tiltToAzimuthAndAltitude(_ tiltX: Double, _ tiltY: Double, _ azimuth: Double, _ altitude: Double) {
        let result = PoseNormalizer.azimuthAltitude(tiltX: tiltX, tiltY: tiltY)
        #expect(Swift.abs(result.azimuth - azimuth) < 1e-12)
        #expect(Swift.abs(result.altitude - altitude) < 1e-12)
    }

    @Test func obliqueTiltPointsBetweenTheAxes() {
        let result = PoseNormalizer.azimuthAltitude(tiltX: 30, tiltY: 30)
        #expect(Swift.abs(result.azimuth - Double.pi / 4) < 1e-12)
        #expect(result.altitude > 0 && result.altitude < Double.pi / 2 - 30 * Double.pi / 180)
    }

    @Test func tiltUsesTheResolutionWhenTheRangeStraddlesZero() {
        // Cintiq Pro 16: −64...63 at 57 units per radian.
        let scale = AxisScale(AbsInfo(minimum: -64, maximum: 63, resolution: 57))!
        #expect(Swift.abs(scale.degrees(57) - 180 / Double.pi) < 1e-9)
        // Older kernels: 0...127 without resolution maps onto ±64°.
        let old = AxisScale(AbsInfo(minimum: 0, maximum: 127))!
        #expect(old.degrees(0) == -64 && old.degrees(127) == 64)
    }

    @Test func positionsAreHeldInsideTheRange() {
        let scale = AxisScale(AbsInfo(minimum: 0, maximum: 1000, resolution: 10))!
        #expect(scale.unit(-5) == 0 && scale.unit(1200) == 1 && scale.unit(250) == 0.25)
        #expect(scale.millimetres(250) == 25 && scale.millimetres(5000) == 100)
        #expect(AxisScale(AbsInfo(minimum: 0, maximum: 1000))!.millimetres(250) == nil)
    }

    @Test func theArtPenReportsRoll() {
        #expect(PoseNormalizer.isArtPen(Tool(type: .pen, id: 0x100804)))
        #expect(!PoseNormalizer.isArtPen(Tool(type: .pen, id: 0x100802)))
    }
}

@Suite("Close-out times")
struct CloseOutTimeTests {
    @Test func anUnplugAfterAForcedProximityOutIsNotStampedEarlier() {
        var tracker = PenTracker(description: noToolKeys, id: "event7")
        var frame = PenFrame()
        tracker.start(at: 0, into: &frame)
        for event in [InputEvent(time: 1_000, type: EventCode.EV_ABS, code: EventCode.ABS_X, value: 5),
                      InputEvent(time: 1_000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)] {
            _ = tracker.feed(event, into: &frame)
        }
        #expect(tracker.advance(to: 600_000, into: &frame))
        #expect(frame.time == 501_000)
        tracker.remove(into: &frame)
        #expect(frame.events.map(\.type) == [.deviceRemoved])
        #expect(frame.time == 501_000, "not at the last frame's 1 ms: after the proximityOut")
    }

    @Test func aStageTimerAfterTheLastFrameMovesTheCloseOut() {
        var tracker = PenTracker(description: noToolKeys, id: "event7")
        var frame = PenFrame()
        tracker.start(at: 0, into: &frame)
        for event in [InputEvent(time: 1_000, type: EventCode.EV_KEY, code: EventCode.BTN_TOUCH, value: 1),
                      InputEvent(time: 1_000, type: EventCode.EV_ABS, code: EventCode.ABS_X, value: 5),
                      InputEvent(time: 1_000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)] {
            _ = tracker.feed(event, into: &frame)
        }
        tracker.remove(latestTimer: 501_000, into: &frame)
        #expect(frame.events.map(\.type) == [.tipUp, .proximityOut, .deviceRemoved])
        #expect(frame.events.allSatisfy { $0.time == 501_000 })
    }
}

