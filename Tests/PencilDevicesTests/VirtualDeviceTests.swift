import Testing
import Foundation
import PencilDevices
import PencilInput
import PencilSystem

@Suite("Virtual devices through uinput")
struct VirtualDeviceTests {
    private var pen: DeviceDescription {
        var d = DeviceDescription(name: "pencild test pen", bus: 3, vendor: 0x56a, product: 0x27)
        d.enableAbs(EventCode.ABS_X, AbsInfo(minimum: 0, maximum: 1000, resolution: 10))
        d.enableAbs(EventCode.ABS_Y, AbsInfo(minimum: 0, maximum: 1000, resolution: 10))
        d.enable(type: EventCode.EV_KEY, code: EventCode.BTN_TOOL_PEN)
        d.enable(type: EventCode.EV_KEY, code: EventCode.BTN_STYLUS)
        return d
    }

    @Test func makesAnEvdevNodeOrSaysWhyNot() throws {
        if FileManager.default.fileExists(atPath: "/dev/uinput") {
            let device = try VirtualDevice(description: pen)
            defer { device.close() }
            #expect(device.devicePath?.hasPrefix("/dev/input/event") == true)
            try device.write(type: EventCode.EV_KEY, code: EventCode.BTN_TOOL_PEN, value: 1)
        } else {
            // Without uinput the failure is a typed errno, not a crash.
            #expect(throws: Errno.noSuchFile) { try VirtualDevice(description: pen) }
        }
    }
}
