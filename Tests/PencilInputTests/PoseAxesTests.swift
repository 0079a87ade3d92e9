import Testing
import PencilInput
import PencilProtocol
import PencilTestSupport

/// The pose's rarer axes (docs/gestures.md, "Pose") on a real device's capabilities: zOffset from
/// distance, the airbrush's slider, the mouse's wheel, the Art Pen's roll, and millimetres
/// from the resolution; and how they go on the wire.
@Suite("Pose axes on an Intuos5's capabilities")
struct PoseAxesTests {
    /// Intuos5 touch M: X 0...44704 and Y 0...27940 at 200 units/mm, distance 0...63,
    /// wheel 0...1023 (the airbrush's slider), throttle ±1023 (the mouse's wheel), Z ±900.
    static let device = TestDevice.intuos5Pen.description

    /// The pose of the proximityIn that one frame with `tool`'s key and `axes` gives.
    static func pose(tool: UInt16, _ axes: [(UInt16, Int32)]) throws -> Pose {
        var tracker = PenTracker(description: device, id: "event3")
        var frame = PenFrame()
        tracker.start(at: 0, into: &frame)
        var events: [InputEvent] = [InputEvent(time: 1000, type: EventCode.EV_KEY, code: tool, value: 1)]
        for (code, value) in axes { events.append(InputEvent(time: 1000, type: EventCode.EV_ABS, code: code, value: value)) }
        events.append(InputEvent(time: 1000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
        var produced: [Event] = []
        for event in events where tracker.feed(event, into: &frame) { produced += frame.events }
        return try #require(produced.first { $0.type == .proximityIn }?.pose)
    }

    @Test("the airbrush: position in millimetres, zOffset from distance, the slider from the wheel axis")
    func airbrush() throws {
        let pose = try Self.pose(tool: EventCode.BTN_TOOL_AIRBRUSH, [
            (EventCode.ABS_X, 22352), (EventCode.ABS_Y, 6985), (EventCode.ABS_DISTANCE, 21), (EventCode.ABS_WHEEL, 1023),
        ])
        #expect(pose.x == 0.5)
        #expect(pose.y == 0.25)
        #expect(pose.xMillimeters == 111.76)
        #expect(pose.yMillimeters == 34.925)
        #expect(pose.zOffset.map { abs($0 - 1.0 / 3) < 1e-12 } == true)
        #expect(pose.slider == 1)
        #expect(pose.wheel == nil, "only a mouse or lens has a wheel")
        #expect(pose.roll == nil, "only the Art Pen has a roll")
        // On the wire: millimetres at 3 decimals, 0...1 values at 6.
        let text = Event(type: .proximityIn, time: 1000, device: "event3", tool: Tool(type: .airbrush), pose: pose).jsonText
        #expect(text.contains(#""xMillimeters":111.76,"yMillimeters":34.925"#), "\(text)")
        #expect(text.contains(#""zOffset":0.333333"#), "\(text)")
        #expect(text.contains(#""slider":1"#), "\(text)")
    }

    @Test("the mouse: the wheel from the throttle axis, -1 to 1", arguments: [(-1023, -1.0), (0, 0.0), (1023, 1.0)])
    func mouseWheel(raw: Int32, expected: Double) throws {
        let pose = try Self.pose(tool: EventCode.BTN_TOOL_MOUSE, [(EventCode.ABS_X, 100), (EventCode.ABS_Y, 100), (EventCode.ABS_THROTTLE, raw)])
        #expect(pose.wheel == expected)
        #expect(pose.slider == nil, "only the airbrush has a slider")
    }

    @Test("the Art Pen: its barrel rotation is the roll, one turn over the Z range")
    func artPenRoll() throws {
        let pose = try Self.pose(tool: EventCode.BTN_TOOL_PEN, [
            (EventCode.ABS_MISC, 0x804), (EventCode.ABS_X, 100), (EventCode.ABS_Y, 100), (EventCode.ABS_Z, 0),
        ])
        let roll = try #require(pose.roll)
        #expect(abs(roll - 900.0 / 1799 * 2 * Double.pi) < 1e-12)
        let plain = try Self.pose(tool: EventCode.BTN_TOOL_PEN, [(EventCode.ABS_X, 100), (EventCode.ABS_Y, 100), (EventCode.ABS_Z, 0)])
        #expect(plain.roll == nil, "a pen that is not an Art Pen has no roll")
    }
}
