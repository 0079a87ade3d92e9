/// The evdev codes pencild reads (linux/input-event-codes.h), as Swift constants so that the
/// pure core needs no C headers.
public enum EventCode {
    // Types
    public static let EV_SYN: UInt16 = 0x00
    public static let EV_KEY: UInt16 = 0x01
    public static let EV_REL: UInt16 = 0x02
    public static let EV_ABS: UInt16 = 0x03
    public static let EV_MSC: UInt16 = 0x04
    public static let EV_MAX: UInt16 = 0x1f

    // EV_SYN
    public static let SYN_REPORT: UInt16 = 0
    public static let SYN_CONFIG: UInt16 = 1
    public static let SYN_MT_REPORT: UInt16 = 2
    public static let SYN_DROPPED: UInt16 = 3

    // EV_KEY: tools and buttons
    public static let BTN_LEFT: UInt16 = 0x110
    public static let BTN_0: UInt16 = 0x100
    public static let BTN_TOOL_PEN: UInt16 = 0x140
    public static let BTN_TOOL_RUBBER: UInt16 = 0x141
    public static let BTN_TOOL_BRUSH: UInt16 = 0x142
    public static let BTN_TOOL_PENCIL: UInt16 = 0x143
    public static let BTN_TOOL_AIRBRUSH: UInt16 = 0x144
    public static let BTN_TOOL_FINGER: UInt16 = 0x145
    public static let BTN_TOOL_MOUSE: UInt16 = 0x146
    public static let BTN_TOOL_LENS: UInt16 = 0x147
    public static let BTN_TOOL_QUINTTAP: UInt16 = 0x148
    public static let BTN_STYLUS3: UInt16 = 0x149
    public static let BTN_TOUCH: UInt16 = 0x14a
    public static let BTN_STYLUS: UInt16 = 0x14b
    public static let BTN_STYLUS2: UInt16 = 0x14c
    public static let BTN_TOOL_DOUBLETAP: UInt16 = 0x14d
    public static let KEY_MAX: UInt16 = 0x2ff

    // EV_ABS
    public static let ABS_X: UInt16 = 0x00
    public static let ABS_Y: UInt16 = 0x01
    public static let ABS_Z: UInt16 = 0x02
    public static let ABS_RX: UInt16 = 0x03
    public static let ABS_RY: UInt16 = 0x04
    public static let ABS_RZ: UInt16 = 0x05
    public static let ABS_THROTTLE: UInt16 = 0x06
    public static let ABS_WHEEL: UInt16 = 0x08
    public static let ABS_PRESSURE: UInt16 = 0x18
    public static let ABS_DISTANCE: UInt16 = 0x19
    public static let ABS_TILT_X: UInt16 = 0x1a
    public static let ABS_TILT_Y: UInt16 = 0x1b
    public static let ABS_MISC: UInt16 = 0x28
    public static let ABS_MT_SLOT: UInt16 = 0x2f
    public static let ABS_MT_POSITION_X: UInt16 = 0x35
    public static let ABS_MAX: UInt16 = 0x3f

    // EV_MSC
    public static let MSC_SERIAL: UInt16 = 0x00

    // Input properties
    public static let INPUT_PROP_POINTER: UInt16 = 0x00
    public static let INPUT_PROP_DIRECT: UInt16 = 0x01

    /// Tool keys and the protocol's tool type for each, in evdev order.
    public static let toolKeys: [(code: UInt16, tool: ToolTypeCode)] = [
        (BTN_TOOL_PEN, .pen), (BTN_TOOL_RUBBER, .eraser), (BTN_TOOL_BRUSH, .brush),
        (BTN_TOOL_PENCIL, .pencil), (BTN_TOOL_AIRBRUSH, .airbrush), (BTN_TOOL_MOUSE, .mouse),
        (BTN_TOOL_LENS, .lens),
    ]
}

/// A tool key's tool, kept as a small enum here so the table above needs no import.
public enum ToolTypeCode: Sendable { case pen, eraser, brush, pencil, airbrush, mouse, lens }
