import Testing
import PencilDevices
import PencilInput
import PencilTestSupport

@Suite("Pen device recognition")
struct PenDeviceClassifierTests {
    @Test("real pens are pens", arguments: TestDevice.pens)
    func pensAreAccepted(device: TestDevice) {
        #expect(PenDeviceClassifier.classify(device.description) == .pen)
    }

    @Test("devices that are not pens are rejected, saying what they are", arguments: [
        (TestDevice.intuos5Pad, "a tablet pad: BTN_0 and BTN_STYLUS without BTN_TOOL_PEN"),
        (TestDevice.cintiqPro16Finger, "a touchscreen: touch input without BTN_TOOL_PEN or BTN_STYLUS"),
        (TestDevice.intuos5Finger, "a touchpad: BTN_TOOL_FINGER without BTN_TOOL_PEN or BTN_STYLUS"),
        (TestDevice.synapticsTouchpad, "a touchpad: BTN_TOOL_FINGER without BTN_TOOL_PEN or BTN_STYLUS"),
        (TestDevice.mouse, "a mouse: relative motion, no absolute X and Y"),
    ])
    func nonPensAreRejected(device: TestDevice, reason: String) {
        #expect(PenDeviceClassifier.classify(device.description) == .notAPen(reason: reason))
    }

    @Test("the table covers every device once: six pens, five others")
    func tableIsComplete() {
        #expect(TestDevice.pens.count == 6)
        #expect(TestDevice.nonPens.count == 5)
        #expect(Set(TestDevice.allCases.map { $0.description.name }).count == TestDevice.allCases.count)
    }

    @Test("the pad would pass the plain rule: it has ABS_X, ABS_Y and BTN_STYLUS")
    func padLooksLikeAPen() {
        let pad = TestDevice.intuos5Pad.description
        #expect(pad.hasAbs(EventCode.ABS_X) && pad.hasAbs(EventCode.ABS_Y) && pad.hasKey(EventCode.BTN_STYLUS))
        // Adding BTN_TOOL_PEN makes it a pen: the Intuos5 pen has BTN_0 too.
        var withPen = pad
        withPen.enable(type: EventCode.EV_KEY, code: EventCode.BTN_TOOL_PEN)
        #expect(PenDeviceClassifier.classify(withPen) == .pen)
    }

    @Test("BTN_STYLUS alone is enough, as in libinput")
    func stylusWithoutToolKey() {
        var device = DeviceDescription(name: "Stylus-only digitizer")
        device.enableAbs(EventCode.ABS_X, AbsInfo(minimum: 0, maximum: 1000))
        device.enableAbs(EventCode.ABS_Y, AbsInfo(minimum: 0, maximum: 1000))
        device.enable(type: EventCode.EV_KEY, code: EventCode.BTN_STYLUS)
        #expect(PenDeviceClassifier.classify(device) == .pen)
    }

    @Test("pen keys without absolute axes are not a pen")
    func keysWithoutAxes() {
        var device = DeviceDescription(name: "Keys only")
        device.enable(type: EventCode.EV_KEY, code: EventCode.BTN_TOOL_PEN)
        #expect(PenDeviceClassifier.classify(device) == .notAPen(reason: "no absolute X and Y axes"))
        // An axis bit without its range is not an axis.
        device.enable(type: EventCode.EV_ABS, code: EventCode.ABS_X)
        device.enable(type: EventCode.EV_ABS, code: EventCode.ABS_Y)
        #expect(!PenDeviceClassifier.classify(device).isPen)
    }

    @Test("the shared recordings' devices are pens", .requires(.recordings))
    func sharedRecordingsArePens() throws {
        for (events, desc) in SharedRecordings.all {
            let recording = try EvemuRecording.load(path: SharedRecordings.path(events),
                                                    descriptionPath: desc.map(SharedRecordings.path))
            #expect(PenDeviceClassifier.classify(recording.description) == .pen, "\(events)")
        }
    }
}
