import FuzzSupport
import PencilInput
import PencilProtocol

/// A device built from the input: which capabilities it has and odd axis ranges included
/// (empty, inverted, the whole Int32 range), since descriptions come from devices and files.
public enum DeviceRecipe {
    static let ranges: [AbsInfo] = [
        AbsInfo(minimum: 0, maximum: 44704, resolution: 200),
        AbsInfo(minimum: 0, maximum: 2047),
        AbsInfo(minimum: 0, maximum: 0),
        AbsInfo(minimum: 100, maximum: 50, resolution: 3),
        AbsInfo(minimum: -64, maximum: 63, resolution: 57),
        AbsInfo(minimum: -9000, maximum: 9000, resolution: 5730),
        AbsInfo(minimum: 0, maximum: 1, resolution: 1),
        AbsInfo(minimum: .min, maximum: .max, resolution: .max),
    ]

    public static func read(_ input: inout FuzzInput) -> DeviceDescription {
        let features = input.byte()
        var description = DeviceDescription(name: "Fuzzed Pen", bus: 3, vendor: 0x56a, product: 0xb9)
        func range(_ selector: UInt8) -> AbsInfo { ranges[Int(selector) % ranges.count] }
        let positions = input.byte()
        description.enableAbs(EventCode.ABS_X, range(positions & 0x0f))
        description.enableAbs(EventCode.ABS_Y, range(positions >> 4))
        let axes = input.byte()
        if features & 0x01 != 0 { description.enableAbs(EventCode.ABS_PRESSURE, range(axes & 0x07)) }
        if features & 0x02 != 0 { description.enableAbs(EventCode.ABS_DISTANCE, range(axes >> 3 & 0x07)) }
        let tilt = input.byte()
        if features & 0x04 != 0 {
            description.enableAbs(EventCode.ABS_TILT_X, range(tilt & 0x0f))
            description.enableAbs(EventCode.ABS_TILT_Y, range(tilt >> 4))
        }
        let extras = input.byte()
        if extras & 0x01 != 0 { description.enableAbs(EventCode.ABS_Z, range(extras >> 4)) }
        if extras & 0x02 != 0 { description.enableAbs(EventCode.ABS_WHEEL, range(extras >> 5)) }
        if extras & 0x04 != 0 { description.enableAbs(EventCode.ABS_THROTTLE, range(extras >> 2)) }
        if extras & 0x08 != 0 { description.enableAbs(EventCode.ABS_MISC, range(0)) }
        let keys = input.byte()
        if features & 0x08 != 0 {
            // Tool keys: the pen always, the others by bit.
            description.enable(type: EventCode.EV_KEY, code: EventCode.BTN_TOOL_PEN)
            for (bit, key) in EventCode.toolKeys.dropFirst().enumerated() where keys & (1 << UInt8(bit)) != 0 {
                description.enable(type: EventCode.EV_KEY, code: key.code)
            }
        }
        if features & 0x10 != 0 { description.enable(type: EventCode.EV_KEY, code: EventCode.BTN_TOUCH) }
        if features & 0x20 != 0 { description.enable(type: EventCode.EV_KEY, code: EventCode.BTN_STYLUS) }
        if features & 0x40 != 0 { description.enable(type: EventCode.EV_KEY, code: EventCode.BTN_STYLUS2) }
        if keys & 0x80 != 0 { description.enable(type: EventCode.EV_KEY, code: EventCode.BTN_STYLUS3) }
        if features & 0x80 != 0 { description.properties.insert(EventCode.INPUT_PROP_DIRECT) }
        description.enable(type: EventCode.EV_MSC, code: EventCode.MSC_SERIAL)
        return description
    }
}

/// One step: an evdev event (mostly the codes a pen sends), or something the daemon does.
public struct Step {
    public enum Action {
        case event(type: UInt16, code: UInt16, value: Int32)
        case resynchronise
        case catchUp
        /// New preferences (the gesture fuzzer; the tracker has none): a PreferencesRecipe.
        case changePreferences(UInt8)
    }

    public static let size = 8
    static let keys: [UInt16] = [
        EventCode.BTN_TOOL_PEN, EventCode.BTN_TOOL_RUBBER, EventCode.BTN_TOOL_BRUSH, EventCode.BTN_TOOL_PENCIL,
        EventCode.BTN_TOOL_AIRBRUSH, EventCode.BTN_TOOL_MOUSE, EventCode.BTN_TOOL_LENS, EventCode.BTN_TOUCH,
        EventCode.BTN_STYLUS, EventCode.BTN_STYLUS2, EventCode.BTN_STYLUS3, EventCode.BTN_TOOL_FINGER,
    ]
    static let axes: [UInt16] = [
        EventCode.ABS_X, EventCode.ABS_Y, EventCode.ABS_PRESSURE, EventCode.ABS_DISTANCE, EventCode.ABS_TILT_X,
        EventCode.ABS_TILT_Y, EventCode.ABS_Z, EventCode.ABS_WHEEL, EventCode.ABS_THROTTLE, EventCode.ABS_MISC,
    ]

    public var action: Action
    /// Microseconds since the previous step: up to about a second, so that timers fire.
    public var timeDelta: Int64

    public static func read(_ input: inout FuzzInput) -> Step {
        let kind = input.byte()
        let selector = input.byte()
        let value = input.int32()
        let delta = Int64(input.uint16())
        let timeDelta = delta * 16
        let action: Action
        switch kind % 16 {
        case 0...3:
            action = .event(type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)
        case 4...6:
            let code = keys[Int(selector) % keys.count]
            action = .event(type: EventCode.EV_KEY, code: code, value: kind & 0x80 != 0 ? value : value & 1)
        case 7...11:
            action = .event(type: EventCode.EV_ABS, code: axes[Int(selector) % axes.count], value: value)
        case 12:
            action = .event(type: EventCode.EV_MSC, code: EventCode.MSC_SERIAL, value: value)
        case 13:
            // Anything at all, SYN_DROPPED among it.
            action = .event(type: UInt16(selector & 0x1f), code: UInt16(truncatingIfNeeded: value >> 16), value: value)
        case 14:
            action = selector & 1 == 0 ? .resynchronise : .event(type: EventCode.EV_SYN, code: EventCode.SYN_DROPPED, value: 0)
        default:
            action = selector & 0x80 == 0 ? .catchUp : .changePreferences(selector)
        }
        return Step(action: action, timeDelta: timeDelta)
    }
}
