import GestureRecognizer
import PencilInput
import PencilProtocol
import PencilTestSupport

/// Pens for the script tests, built the way their kernel drivers describe them.
enum TestPens {
    /// A display tablet like a Cintiq: tool keys, serials, pressure, distance, tilt, two
    /// barrel buttons, 200 units per millimetre.
    static let cintiqLike = make(name: "Test Cintiq Pen", resolution: 200, buttons: [EventCode.BTN_STYLUS, EventCode.BTN_STYLUS2])
    /// A pen with three barrel buttons, like a Pro Pen 3: room for a gesture of the third.
    static let threeButtons = make(name: "Test Three-button Pen", resolution: 200,
                                   buttons: [EventCode.BTN_STYLUS, EventCode.BTN_STYLUS2, EventCode.BTN_STYLUS3])
    /// A pen with one barrel button: the squeeze is a long press.
    static let oneButton = make(name: "Test One-button Pen", resolution: 200, buttons: [EventCode.BTN_STYLUS])
    /// X and Y without resolution: the slop is a share of the diagonal.
    static let noResolution = make(name: "Test Pen Without Resolution", resolution: 0, buttons: [EventCode.BTN_STYLUS, EventCode.BTN_STYLUS2])
    /// Like some UC-Logic firmware: no tool keys, no pressure, BTN_TOUCH is the tip.
    static let noToolKeys: DeviceDescription = {
        var d = DeviceDescription(name: "Test Pen Without Tool Keys", bus: 3, vendor: 0x5543, product: 4)
        d.enableAbs(EventCode.ABS_X, AbsInfo(minimum: 0, maximum: 10000))
        d.enableAbs(EventCode.ABS_Y, AbsInfo(minimum: 0, maximum: 6000))
        for key in [EventCode.BTN_TOUCH, EventCode.BTN_STYLUS, EventCode.BTN_STYLUS2] { d.enable(type: EventCode.EV_KEY, code: key) }
        return d
    }()

    private static func make(name: String, resolution: Int32, buttons: [UInt16]) -> DeviceDescription {
        var d = DeviceDescription(name: name, bus: 3, vendor: 0x56a, product: 0x5b, properties: [EventCode.INPUT_PROP_DIRECT])
        d.enableAbs(EventCode.ABS_X, AbsInfo(minimum: 0, maximum: 95840, fuzz: 4, resolution: resolution))
        d.enableAbs(EventCode.ABS_Y, AbsInfo(minimum: 0, maximum: 54260, fuzz: 4, resolution: resolution))
        d.enableAbs(EventCode.ABS_PRESSURE, AbsInfo(minimum: 0, maximum: 2047))
        d.enableAbs(EventCode.ABS_DISTANCE, AbsInfo(minimum: 0, maximum: 63))
        d.enableAbs(EventCode.ABS_TILT_X, AbsInfo(minimum: 0, maximum: 127))
        d.enableAbs(EventCode.ABS_TILT_Y, AbsInfo(minimum: 0, maximum: 127))
        d.enableAbs(EventCode.ABS_MISC, AbsInfo(minimum: 0, maximum: 0))
        for key in [EventCode.BTN_TOOL_PEN, EventCode.BTN_TOOL_RUBBER, EventCode.BTN_TOUCH] + buttons {
            d.enable(type: EventCode.EV_KEY, code: key)
        }
        d.enable(type: EventCode.EV_MSC, code: EventCode.MSC_SERIAL)
        return d
    }
}

/// What the pipeline makes of a script (the device unplugged at its end).
func replay(_ pen: PenScript, _ preferences: Preferences = .defaults, identity: PenIdentity = .unknown) throws -> [Event] {
    try PenPipeline.events(of: pen.events, description: pen.device, id: "event7", preferences: preferences, identity: identity)
}

/// The gestures of a replay as short words.
func gestures(_ pen: PenScript, _ preferences: Preferences = .defaults, identity: PenIdentity = .unknown) throws -> [String] {
    try replay(pen, preferences, identity: identity).filter(\.isGesture).map(\.summary)
}

/// What libwacom says of the tests' pens, as data (the names and kinds of libwacom.stylus).
enum TestIdentities {
    /// An AES tablet (isdv4-4800.tablet): its pens' eraser is a button.
    static let aes = PenIdentity(model: "Wacom ISDv4 4800", styli: [
        0x21: Stylus(name: "AES Pen", kind: .mobile, buttons: 1, eraser: .button),
        0x49: Stylus(name: "Bamboo Ink", kind: .mobile, buttons: 1, eraser: .button),
    ])
    /// A Cintiq Pro 27 (cintiq-pro-27.tablet) with its Pro Pen 3.
    static let cintiqPro27 = PenIdentity(model: "Wacom Cintiq Pro 27", styli: [
        0x200: Stylus(name: "Pro Pen 3", kind: .general, buttons: 3, eraser: .none),
    ])
}

extension PenScript {
    /// The pen comes into range, waits, makes a demonstration's button changes held still (the
    /// demo pen's way), then waits `after` and leaves.
    mutating func play(_ script: GestureDemonstration.Script, thenWaitMs after: Int) {
        approach()
        wait(ms: 50)
        var at: Int64 = 0
        for change in script.changes {
            wait(us: change.offset - at)
            at = change.offset
            if change.down { press(change.button) } else { release(change.button) }
        }
        wait(ms: after)
        leave()
    }
}
