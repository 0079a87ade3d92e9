/// Whether a device is a pen pencild drives, and if not, why (the daemon logs the reason at
/// debug level).
public enum PenDeviceKind: Equatable, Sendable {
    case pen
    case notAPen(reason: String)

    public var isPen: Bool { self == .pen }
}

/// Recognises pen devices by libinput's rule: absolute X and Y, plus BTN_TOOL_PEN or
/// BTN_STYLUS. The kernel also gives tablet pads X, Y and BTN_STYLUS (for old X drivers), so
/// a device with pad buttons and BTN_STYLUS but no BTN_TOOL_PEN is a pad, as udev decides.
public enum PenDeviceClassifier {
    public static func classify(_ device: DeviceDescription) -> PenDeviceKind {
        let hasPosition = device.hasAbs(EventCode.ABS_X) && device.hasAbs(EventCode.ABS_Y)
        let hasPen = device.hasKey(EventCode.BTN_TOOL_PEN)
        let hasStylus = device.hasKey(EventCode.BTN_STYLUS)

        guard hasPosition else {
            if device.has(type: EventCode.EV_REL) && hasMouseButton(device) {
                return .notAPen(reason: "a mouse: relative motion, no absolute X and Y")
            }
            return .notAPen(reason: "no absolute X and Y axes")
        }
        if hasStylus && !hasPen && device.hasKey(EventCode.BTN_0) {
            return .notAPen(reason: "a tablet pad: BTN_0 and BTN_STYLUS without BTN_TOOL_PEN")
        }
        if hasPen || hasStylus {
            return .pen
        }
        let isDirect = device.hasProperty(EventCode.INPUT_PROP_DIRECT)
        if device.hasKey(EventCode.BTN_TOOL_FINGER) && !isDirect {
            return .notAPen(reason: "a touchpad: BTN_TOOL_FINGER without BTN_TOOL_PEN or BTN_STYLUS")
        }
        if isDirect || device.hasKey(EventCode.BTN_TOUCH) || device.hasAbs(EventCode.ABS_MT_POSITION_X) {
            return .notAPen(reason: "a touchscreen: touch input without BTN_TOOL_PEN or BTN_STYLUS")
        }
        if hasMouseButton(device) {
            return .notAPen(reason: "an absolute pointer without BTN_TOOL_PEN or BTN_STYLUS")
        }
        return .notAPen(reason: "neither BTN_TOOL_PEN nor BTN_STYLUS")
    }

    /// BTN_LEFT ... BTN_TASK, the mouse buttons (BTN_MOUSE up to BTN_JOYSTICK).
    private static func hasMouseButton(_ device: DeviceDescription) -> Bool {
        (EventCode.BTN_LEFT..<EventCode.BTN_LEFT + 0x10).contains { device.hasKey($0) }
    }
}
