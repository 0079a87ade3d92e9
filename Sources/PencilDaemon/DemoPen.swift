import PencilInput

/// The built-in demo pen (`--demo`): a recording written here, in code, of a person who
/// hovers, draws two strokes, double-clicks the lower barrel button and squeezes the upper one.
enum DemoPen {
    static let frameInterval: Int64 = 5_000 // 200 Hz, like many pen tablets

    static func recording() -> (description: DeviceDescription, events: [InputEvent]) {
        var description = DeviceDescription(name: "pencild demo pen", bus: 0x03, vendor: 0, product: 0)
        for key in [EventCode.BTN_TOOL_PEN, EventCode.BTN_TOUCH, EventCode.BTN_STYLUS, EventCode.BTN_STYLUS2] {
            description.enable(type: EventCode.EV_KEY, code: key)
        }
        description.enableAbs(EventCode.ABS_X, AbsInfo(minimum: 0, maximum: 20_000, resolution: 100))
        description.enableAbs(EventCode.ABS_Y, AbsInfo(minimum: 0, maximum: 12_500, resolution: 100))
        description.enableAbs(EventCode.ABS_PRESSURE, AbsInfo(minimum: 0, maximum: 2047))
        description.enableAbs(EventCode.ABS_DISTANCE, AbsInfo(minimum: 0, maximum: 63))
        description.enableAbs(EventCode.ABS_TILT_X, AbsInfo(minimum: -64, maximum: 63, resolution: 57))
        description.enableAbs(EventCode.ABS_TILT_Y, AbsInfo(minimum: -64, maximum: 63, resolution: 57))
        description.enable(type: EventCode.EV_SYN, code: EventCode.SYN_REPORT)

        var script = Script()
        script.frame([(EventCode.EV_KEY, EventCode.BTN_TOOL_PEN, 1), (EventCode.EV_ABS, EventCode.ABS_X, 4000), (EventCode.EV_ABS, EventCode.ABS_Y, 4000), (EventCode.EV_ABS, EventCode.ABS_DISTANCE, 30)])
        script.move(to: (6000, 5000), frames: 80)
        for stroke in 0..<2 {
            script.press(to: 1200, frames: 10)
            script.move(to: (stroke == 0 ? 12000 : 8000, stroke == 0 ? 6000 : 9000), frames: 120)
            script.press(to: 0, frames: 10)
            script.move(to: (9000, 6000), frames: 40)
        }
        // A double-click of the lower button, held still: a double-tap.
        for _ in 0..<2 {
            script.frame([(EventCode.EV_KEY, EventCode.BTN_STYLUS, 1)])
            script.wait(frames: 16)
            script.frame([(EventCode.EV_KEY, EventCode.BTN_STYLUS, 0)])
            script.wait(frames: 20)
        }
        script.move(to: (10000, 7000), frames: 40)
        // A squeeze: the upper button held for 600 ms while the pen drifts.
        script.frame([(EventCode.EV_KEY, EventCode.BTN_STYLUS2, 1)])
        script.move(to: (10400, 7200), frames: 120)
        script.frame([(EventCode.EV_KEY, EventCode.BTN_STYLUS2, 0)])
        script.move(to: (11000, 8000), frames: 40)
        script.frame([(EventCode.EV_KEY, EventCode.BTN_TOOL_PEN, 0)])
        return (description, script.events)
    }

    private struct Script {
        var events: [InputEvent] = []
        var time: Int64 = 1_000_000
        var position: (Int32, Int32) = (4000, 4000)
        var pressure: Int32 = 0

        mutating func frame(_ changes: [(UInt16, UInt16, Int32)]) {
            for (type, code, value) in changes { events.append(InputEvent(time: time, type: type, code: code, value: value)) }
            events.append(InputEvent(time: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
            time += DemoPen.frameInterval
        }

        mutating func wait(frames: Int) { time += Int64(frames) * DemoPen.frameInterval }

        mutating func move(to target: (Int32, Int32), frames: Int) {
            let start = position
            for step in 1...frames {
                let x = start.0 + (target.0 - start.0) * Int32(step) / Int32(frames)
                let y = start.1 + (target.1 - start.1) * Int32(step) / Int32(frames)
                position = (x, y)
                frame([(EventCode.EV_ABS, EventCode.ABS_X, x), (EventCode.EV_ABS, EventCode.ABS_Y, y),
                       (EventCode.EV_ABS, EventCode.ABS_TILT_X, Int32(step % 20) - 10)])
            }
        }

        mutating func press(to target: Int32, frames: Int) {
            let start = pressure
            for step in 1...frames {
                pressure = start + (target - start) * Int32(step) / Int32(frames)
                frame([(EventCode.EV_ABS, EventCode.ABS_PRESSURE, pressure), (EventCode.EV_ABS, EventCode.ABS_DISTANCE, pressure > 0 ? 0 : 10),
                       (EventCode.EV_KEY, EventCode.BTN_TOUCH, pressure > 0 ? 1 : 0)])
            }
        }
    }
}
