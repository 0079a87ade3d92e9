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
    /// `daemonFirst`: chords go to pencild's keyboard first, and this one is only the
    /// fallback where pencild has none.
    public static func explain(_ error: Errno, daemonFirst: Bool = false) -> String {
        if daemonFirst {
            return "no keyboard of its own (/dev/uinput: \(error)): chords go to pencild's keyboard, which presses them for the seat's active user"
        }
        if error == .permissionDenied || error == .notPermitted {
            return """
                cannot open /dev/uinput (\(error)): key bindings are off; command bindings still run. \
                Access to /dev/uinput is an administrator's choice: the example udev rule \
                71-pencil-actions-uinput.rules (in share/doc/pencild/examples) gives it to the user of the \
                active local session, and with it every program of that user can type into later sessions \
                (docs/pencil-actions.md, "What the uinput rule allows").
                """
        }
        if error == .noSuchFile || error == .noDevice {
            return "cannot open /dev/uinput (\(error)): key bindings are off; command bindings still run. Load the uinput module: sudo modprobe uinput"
        }
        return "cannot make the virtual keyboard (\(error)): key bindings are off; command bindings still run"
    }
}
