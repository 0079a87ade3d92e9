import PencilInput

/// Real devices' capabilities, as data: the facts published with libinput's test devices
/// (names, ids, properties, keys and axis ranges), written out here as one table row per
/// device. Pens come first, then devices that carry pen-like bits and must still be
/// rejected.
///
///     let tablet = TestDevice.cintiqPro16Pen.description
public enum TestDevice: String, CaseIterable, Sendable {
    // Pens.
    case intuos5Pen
    case cintiqPro16Pen
    case huionPenTablet
    case hid4800Pen
    case isdv4E6Pen
    case cintiqPro27Pen
    // Not pens.
    case intuos5Pad
    case cintiqPro16Finger
    case intuos5Finger
    case synapticsTouchpad
    case mouse

    /// The device's capabilities, as a live fd or an evemu header would describe them.
    public var description: DeviceDescription { row.description }

    /// True for the devices pencild must drive.
    public var isPen: Bool { row.isPen }

    /// Pens only.
    public static var pens: [TestDevice] { allCases.filter(\.isPen) }
    /// Devices that must be rejected.
    public static var nonPens: [TestDevice] { allCases.filter { !$0.isPen } }

    private var row: TestDeviceRow {
        switch self {
        case .intuos5Pen: return TestDeviceRow.intuos5Pen
        case .cintiqPro16Pen: return TestDeviceRow.cintiqPro16Pen
        case .huionPenTablet: return TestDeviceRow.huionPenTablet
        case .hid4800Pen: return TestDeviceRow.hid4800Pen
        case .isdv4E6Pen: return TestDeviceRow.isdv4E6Pen
        case .cintiqPro27Pen: return TestDeviceRow.cintiqPro27Pen
        case .intuos5Pad: return TestDeviceRow.intuos5Pad
        case .cintiqPro16Finger: return TestDeviceRow.cintiqPro16Finger
        case .intuos5Finger: return TestDeviceRow.intuos5Finger
        case .synapticsTouchpad: return TestDeviceRow.synapticsTouchpad
        case .mouse: return TestDeviceRow.mouse
        }
    }
}

/// Event codes the table needs beyond those the pen code reads
/// (linux/input-event-codes.h).
private enum Code {
    static let BTN_1: UInt16 = 0x101, BTN_2: UInt16 = 0x102, BTN_3: UInt16 = 0x103, BTN_4: UInt16 = 0x104
    static let BTN_5: UInt16 = 0x105, BTN_6: UInt16 = 0x106, BTN_7: UInt16 = 0x107, BTN_8: UInt16 = 0x108
    static let BTN_RIGHT: UInt16 = 0x111, BTN_MIDDLE: UInt16 = 0x112, BTN_SIDE: UInt16 = 0x113, BTN_EXTRA: UInt16 = 0x114
    static let BTN_TOOL_TRIPLETAP: UInt16 = 0x14e, BTN_TOOL_QUADTAP: UInt16 = 0x14f
    static let REL_X: UInt16 = 0x00, REL_Y: UInt16 = 0x01, REL_WHEEL: UInt16 = 0x08, REL_WHEEL_HI_RES: UInt16 = 0x0b
    static let MSC_SCAN: UInt16 = 0x04
    static let ABS_TOOL_WIDTH: UInt16 = 0x1c
    static let MSC_TIMESTAMP: UInt16 = 0x05
    static let ABS_MT_TOUCH_MAJOR: UInt16 = 0x30, ABS_MT_TOUCH_MINOR: UInt16 = 0x31
    static let ABS_MT_ORIENTATION: UInt16 = 0x34, ABS_MT_POSITION_Y: UInt16 = 0x36
    static let ABS_MT_TRACKING_ID: UInt16 = 0x39, ABS_MT_PRESSURE: UInt16 = 0x3a
    static let INPUT_PROP_BUTTONPAD: UInt16 = 0x02, INPUT_PROP_TOPBUTTONPAD: UInt16 = 0x04
}

/// One row of the table: what a device is, written the way a person reads a device listing.
private struct TestDeviceRow {
    var name: String
    var bus: Int
    var vendor: Int
    var product: Int
    var version: Int = 0
    var properties: [UInt16] = []
    var keys: [UInt16] = []
    var relative: [UInt16] = []
    var misc: [UInt16] = []
    /// code, minimum, maximum, fuzz, flat, resolution.
    var axes: [(UInt16, Int32, Int32, Int32, Int32, Int32)] = []
    var isPen: Bool

    var description: DeviceDescription {
        var device = DeviceDescription(name: name, bus: bus, vendor: vendor, product: product, version: version,
                                       properties: Set(properties))
        // Every evdev device reports frames.
        for code in [EventCode.SYN_REPORT, EventCode.SYN_CONFIG, EventCode.SYN_MT_REPORT, EventCode.SYN_DROPPED] {
            device.enable(type: EventCode.EV_SYN, code: code)
        }
        for key in keys { device.enable(type: EventCode.EV_KEY, code: key) }
        for code in relative { device.enable(type: EventCode.EV_REL, code: code) }
        for code in misc { device.enable(type: EventCode.EV_MSC, code: code) }
        for (code, minimum, maximum, fuzz, flat, resolution) in axes {
            device.enableAbs(code, AbsInfo(minimum: minimum, maximum: maximum, fuzz: fuzz, flat: flat, resolution: resolution))
        }
        return device
    }

    // MARK: Pens

    static let intuos5Pen = TestDeviceRow(
        name: "Wacom Intuos5 touch M Pen", bus: 0x03, vendor: 0x056a, product: 0x0027,
        properties: [EventCode.INPUT_PROP_POINTER],
        keys: [EventCode.BTN_0, Code.BTN_1, Code.BTN_2, Code.BTN_3, Code.BTN_4, Code.BTN_5, Code.BTN_6, Code.BTN_7, Code.BTN_8,
               EventCode.BTN_LEFT, Code.BTN_RIGHT, Code.BTN_MIDDLE, Code.BTN_SIDE, Code.BTN_EXTRA,
               EventCode.BTN_TOOL_PEN, EventCode.BTN_TOOL_RUBBER, EventCode.BTN_TOOL_BRUSH, EventCode.BTN_TOOL_PENCIL,
               EventCode.BTN_TOOL_AIRBRUSH, EventCode.BTN_TOOL_MOUSE, EventCode.BTN_TOOL_LENS,
               EventCode.BTN_TOUCH, EventCode.BTN_STYLUS, EventCode.BTN_STYLUS2],
        relative: [Code.REL_WHEEL],
        misc: [EventCode.MSC_SERIAL],
        axes: [
            (EventCode.ABS_X, 0, 44704, 4, 0, 200),
            (EventCode.ABS_Y, 0, 27940, 4, 0, 200),
            (EventCode.ABS_Z, -900, 899, 0, 0, 0),
            (EventCode.ABS_THROTTLE, -1023, 1023, 0, 0, 0),
            (EventCode.ABS_WHEEL, 0, 1023, 0, 0, 0),
            (EventCode.ABS_PRESSURE, 0, 2047, 0, 0, 0),
            (EventCode.ABS_DISTANCE, 0, 63, 0, 0, 0),
            (EventCode.ABS_TILT_X, 0, 127, 0, 0, 0),
            (EventCode.ABS_TILT_Y, 0, 127, 0, 0, 0),
            (EventCode.ABS_MISC, 0, 0, 0, 0, 0),
        ],
        isPen: true)

    /// A display tablet with tilt in units of 57 per radian and a third barrel button.
    static let cintiqPro16Pen = TestDeviceRow(
        name: "Wacom Cintiq Pro 16 Pen", bus: 0x03, vendor: 0x056a, product: 0x0350, version: 0x0b,
        properties: [EventCode.INPUT_PROP_DIRECT],
        keys: [EventCode.BTN_TOOL_PEN, EventCode.BTN_TOOL_RUBBER, EventCode.BTN_TOOL_BRUSH, EventCode.BTN_TOOL_PENCIL,
               EventCode.BTN_TOOL_AIRBRUSH, EventCode.BTN_TOUCH, EventCode.BTN_STYLUS, EventCode.BTN_STYLUS2,
               EventCode.BTN_STYLUS3],
        misc: [EventCode.MSC_SERIAL],
        axes: [
            (EventCode.ABS_X, 0, 69920, 0, 0, 200),
            (EventCode.ABS_Y, 0, 39980, 0, 0, 200),
            (EventCode.ABS_Z, -900, 899, 0, 0, 287),
            (EventCode.ABS_WHEEL, 0, 2047, 0, 0, 0),
            (EventCode.ABS_PRESSURE, 0, 8191, 0, 0, 0),
            (EventCode.ABS_DISTANCE, 0, 63, 1, 0, 0),
            (EventCode.ABS_TILT_X, -64, 63, 1, 0, 57),
            (EventCode.ABS_TILT_Y, -64, 63, 1, 0, 57),
            (EventCode.ABS_MISC, 0, 0, 0, 0, 0),
        ],
        isPen: true)

    /// Has BTN_TOOL_PEN but its firmware never releases it: leaving range is silence.
    static let huionPenTablet = TestDeviceRow(
        name: "HUION PenTablet Pen", bus: 0x03, vendor: 0x256c, product: 0x006e,
        keys: [EventCode.BTN_TOOL_PEN, EventCode.BTN_TOUCH, EventCode.BTN_STYLUS, EventCode.BTN_STYLUS2],
        misc: [Code.MSC_SCAN],
        axes: [
            (EventCode.ABS_X, 0, 40000, 0, 0, 157),
            (EventCode.ABS_Y, 0, 25000, 0, 0, 157),
            (EventCode.ABS_PRESSURE, 0, 2047, 0, 0, 0),
        ],
        isPen: true)

    /// An AES pen on an I2C bus (BUS_I2C = 0x18), built into a laptop screen.
    /// An AES pen (Dell Venue 10 5050): libinput's wacom-hid4800-pen test device; libwacom's
    /// isdv4-4800.tablet gives it the isdv4-aes styli, whose eraser is a button. No ABS_MISC.
    static let hid4800Pen = TestDeviceRow(
        name: "Wacom HID 4800 Pen", bus: 0x18, vendor: 0x056a, product: 0x4800, version: 0x100,
        properties: [EventCode.INPUT_PROP_DIRECT],
        keys: [EventCode.BTN_TOOL_PEN, EventCode.BTN_TOOL_RUBBER, EventCode.BTN_TOUCH, EventCode.BTN_STYLUS,
               EventCode.BTN_STYLUS2],
        misc: [EventCode.MSC_SERIAL],
        axes: [
            (EventCode.ABS_X, 0, 21696, 4, 0, 100),
            (EventCode.ABS_Y, 0, 13560, 4, 0, 100),
            (EventCode.ABS_PRESSURE, 0, 2047, 0, 0, 0),
        ],
        isPen: true)

    /// A Pro Pen 3 display (three barrel buttons, BTN_STYLUS3): the Cintiq Pro 27's pen as its
    /// sysfs listing in the public wacom-hid-descriptors collection gives it (name, ids, keys,
    /// MSC codes, axes), the ranges from its HID descriptor's pen collection, the resolutions
    /// worked out from its size (600 x 339 mm); libwacom's cintiq-pro-27.tablet knows it.
    static let cintiqPro27Pen = TestDeviceRow(
        name: "Wacom Cintiq Pro 27 Pen", bus: 0x03, vendor: 0x056a, product: 0x03c0, version: 0x110,
        properties: [EventCode.INPUT_PROP_DIRECT],
        keys: [EventCode.BTN_TOOL_PEN, EventCode.BTN_TOOL_RUBBER, EventCode.BTN_TOOL_AIRBRUSH, EventCode.BTN_STYLUS3,
               EventCode.BTN_TOUCH, EventCode.BTN_STYLUS, EventCode.BTN_STYLUS2],
        misc: [EventCode.MSC_SERIAL, Code.MSC_TIMESTAMP],
        axes: [
            (EventCode.ABS_X, 0, 120032, 4, 0, 200),
            (EventCode.ABS_Y, 0, 67868, 4, 0, 200),
            (EventCode.ABS_Z, -900, 899, 0, 0, 287),
            (EventCode.ABS_WHEEL, 0, 2047, 0, 0, 0),
            (EventCode.ABS_PRESSURE, 0, 8191, 0, 0, 0),
            (EventCode.ABS_DISTANCE, 0, 255, 0, 0, 0),
            (EventCode.ABS_TILT_X, -64, 63, 0, 0, 57),
            (EventCode.ABS_TILT_Y, -64, 63, 0, 0, 57),
            (EventCode.ABS_MISC, 0, 0, 0, 0, 0),
        ],
        isPen: true)

    /// A tablet PC's pen: pressure 0..255, no serial, no tilt.
    static let isdv4E6Pen = TestDeviceRow(
        name: "Wacom ISDv4 E6 Pen", bus: 0x03, vendor: 0x056a, product: 0x00e6,
        properties: [EventCode.INPUT_PROP_DIRECT],
        keys: [EventCode.BTN_TOOL_PEN, EventCode.BTN_TOOL_RUBBER, EventCode.BTN_TOUCH, EventCode.BTN_STYLUS,
               EventCode.BTN_STYLUS2],
        axes: [
            (EventCode.ABS_X, 0, 27760, 4, 0, 100),
            (EventCode.ABS_Y, 0, 15694, 4, 0, 100),
            (EventCode.ABS_PRESSURE, 0, 255, 0, 0, 0),
        ],
        isPen: true)

    // MARK: Not pens

    /// The express keys and touch ring of the Intuos5: the kernel gives it ABS_X, ABS_Y and
    /// BTN_STYLUS, so the plain pen rule alone would take it for a pen.
    static let intuos5Pad = TestDeviceRow(
        name: "Wacom Intuos5 touch M Pad", bus: 0x03, vendor: 0x056a, product: 0x0027,
        keys: [EventCode.BTN_0, Code.BTN_1, Code.BTN_2, Code.BTN_3, Code.BTN_4, Code.BTN_5, Code.BTN_6, Code.BTN_7, Code.BTN_8,
               EventCode.BTN_STYLUS],
        axes: [
            (EventCode.ABS_X, 0, 1, 0, 0, 0),
            (EventCode.ABS_Y, 0, 1, 0, 0, 0),
            (EventCode.ABS_WHEEL, 0, 71, 0, 0, 0),
            (EventCode.ABS_MISC, 0, 0, 0, 0, 10),
        ],
        isPen: false)

    /// The touchscreen beside the Cintiq Pro 16's pen.
    static let cintiqPro16Finger = TestDeviceRow(
        name: "Wacom Cintiq Pro 16 Finger", bus: 0x03, vendor: 0x056a, product: 0x0354, version: 0x0b,
        properties: [EventCode.INPUT_PROP_DIRECT],
        keys: [EventCode.BTN_TOUCH],
        axes: [
            (EventCode.ABS_X, 0, 13824, 0, 0, 40),
            (EventCode.ABS_Y, 0, 7776, 0, 0, 40),
            (EventCode.ABS_MT_SLOT, 0, 15, 0, 0, 0),
            (Code.ABS_MT_TOUCH_MAJOR, 0, 40, 0, 0, 0),
            (Code.ABS_MT_TOUCH_MINOR, 0, 40, 0, 0, 0),
            (Code.ABS_MT_ORIENTATION, 0, 1, 0, 0, 0),
            (EventCode.ABS_MT_POSITION_X, 0, 13824, 0, 0, 40),
            (Code.ABS_MT_POSITION_Y, 0, 7776, 0, 0, 40),
            (Code.ABS_MT_TRACKING_ID, 0, 65535, 0, 0, 0),
            (EventCode.ABS_MISC, 0, 0, 0, 0, 0),
        ],
        isPen: false)

    /// The Intuos5's touch surface: a touchpad made by a pen tablet maker.
    static let intuos5Finger = TestDeviceRow(
        name: "Wacom Intuos5 touch M Finger", bus: 0x03, vendor: 0x056a, product: 0x0027,
        properties: [EventCode.INPUT_PROP_POINTER],
        keys: [EventCode.BTN_TOOL_FINGER, EventCode.BTN_TOOL_QUINTTAP, EventCode.BTN_TOUCH, EventCode.BTN_TOOL_DOUBLETAP,
               Code.BTN_TOOL_TRIPLETAP, Code.BTN_TOOL_QUADTAP],
        axes: [
            (EventCode.ABS_X, 0, 4096, 0, 0, 18),
            (EventCode.ABS_Y, 0, 4096, 0, 0, 29),
            (EventCode.ABS_MT_SLOT, 0, 15, 0, 0, 0),
            (Code.ABS_MT_TOUCH_MAJOR, 0, 4096, 0, 0, 0),
            (Code.ABS_MT_TOUCH_MINOR, 0, 4096, 0, 0, 0),
            (EventCode.ABS_MT_POSITION_X, 0, 4096, 0, 0, 18),
            (Code.ABS_MT_POSITION_Y, 0, 4096, 0, 0, 29),
            (Code.ABS_MT_TRACKING_ID, 0, 65535, 0, 0, 0),
        ],
        isPen: false)

    /// A laptop clickpad.
    static let synapticsTouchpad = TestDeviceRow(
        name: "SynPS/2 Synaptics TouchPad", bus: 0x11, vendor: 0x0002, product: 0x0007,
        properties: [EventCode.INPUT_PROP_POINTER, Code.INPUT_PROP_BUTTONPAD, Code.INPUT_PROP_TOPBUTTONPAD],
        keys: [EventCode.BTN_LEFT, EventCode.BTN_TOOL_FINGER, EventCode.BTN_TOOL_QUINTTAP, EventCode.BTN_TOUCH,
               EventCode.BTN_TOOL_DOUBLETAP, Code.BTN_TOOL_TRIPLETAP, Code.BTN_TOOL_QUADTAP],
        axes: [
            (EventCode.ABS_X, 1024, 5112, 0, 0, 42),
            (EventCode.ABS_Y, 2024, 4832, 0, 0, 42),
            (EventCode.ABS_PRESSURE, 0, 255, 0, 0, 0),
            (Code.ABS_TOOL_WIDTH, 0, 15, 0, 0, 0),
            (EventCode.ABS_MT_SLOT, 0, 1, 0, 0, 0),
            (EventCode.ABS_MT_POSITION_X, 1024, 5112, 0, 0, 42),
            (Code.ABS_MT_POSITION_Y, 2024, 4832, 0, 0, 42),
            (Code.ABS_MT_TRACKING_ID, 0, 65535, 0, 0, 0),
            (Code.ABS_MT_PRESSURE, 0, 255, 0, 0, 0),
        ],
        isPen: false)

    static let mouse = TestDeviceRow(
        name: "Lenovo Optical USB Mouse", bus: 0x03, vendor: 0x17ef, product: 0x6019,
        keys: [EventCode.BTN_LEFT, Code.BTN_RIGHT, Code.BTN_MIDDLE],
        relative: [Code.REL_X, Code.REL_Y, Code.REL_WHEEL, Code.REL_WHEEL_HI_RES],
        isPen: false)
}
