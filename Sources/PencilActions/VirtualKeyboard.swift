import PencilDevices
import PencilInput
import PencilSystem

/// pencil-actions' uinput keyboard ("pencil-actions keyboard"): it can send only the keys its
/// bindings use, and each frame (one key change and SYN_REPORT) reaches readers on its own.
public final class VirtualKeyboard {
    public static let name = "pencil-actions keyboard"
    /// BUS_VIRTUAL, as uinput devices are.
    static let virtualBus = 0x06

    public let keys: Set<UInt16>
    private let device: VirtualDevice

    /// The /dev/input/eventN node, when the kernel says.
    public var devicePath: String? { device.devicePath }

    public init(keys: Set<UInt16>) throws(Errno) {
        self.keys = keys
        var description = DeviceDescription(name: Self.name, bus: Self.virtualBus, vendor: 0, product: 0, version: 1)
        for key in keys { description.enable(type: EventCode.EV_KEY, code: key) }
        device = try VirtualDevice(description: description)
    }

    public func send(_ frame: KeyFrame) throws(Errno) {
        try device.write(type: EventCode.EV_KEY, code: frame.code, value: frame.down ? 1 : 0)
        try device.write(type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)
    }

    /// Destroys the device; the kernel lets go of any key still down.
    public func close() { device.close() }

    /// What to tell the person when the keyboard cannot be made.
    public static func explain(_ error: Errno) -> String {
        if error == .permissionDenied || error == .notPermitted {
            return """
                cannot open /dev/uinput (\(error)): key bindings are off; command bindings still run. \
                Install the udev rule 71-pencil-actions-uinput.rules (make install puts it in udev's rules \
                directory), run `sudo udevadm control --reload && sudo udevadm trigger --sysname-match=uinput` \
                (or reboot), and log in again at the machine: it gives the user of the active local session \
                access to /dev/uinput.
                """
        }
        if error == .noSuchFile || error == .noDevice {
            return "cannot open /dev/uinput (\(error)): key bindings are off; command bindings still run. Load the uinput module: sudo modprobe uinput"
        }
        return "cannot make the virtual keyboard (\(error)): key bindings are off; command bindings still run"
    }
}
