import CEvdev
import PencilInput
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// A virtual input device made through uinput with a given description: `pencilctl emulate`
/// plays recordings through it, and the kernel tests make real evdev devices with it.
///
/// Owns its libevdev handle and its uinput device; both are freed by `close()` (or when the
/// last reference goes). Needs write access to /dev/uinput.
public final class VirtualDevice {
    private var device: OpaquePointer?
    private var uinput: OpaquePointer?

    /// The /dev/input/eventN node the kernel made, when sysfs tells it.
    public let devicePath: String?

    public init(description: DeviceDescription) throws(Errno) {
        guard let device = libevdev_new() else { throw Errno(rawValue: ENOMEM) }
        self.device = device
        libevdev_set_name(device, description.name)
        libevdev_set_id_bustype(device, Int32(description.bus))
        libevdev_set_id_vendor(device, Int32(description.vendor))
        libevdev_set_id_product(device, Int32(description.product))
        libevdev_set_id_version(device, Int32(description.version))
        for property in description.properties.sorted() {
            libevdev_enable_property(device, UInt32(property))
        }
        for type in description.codes.keys.sorted() where type != EventCode.EV_SYN {
            libevdev_enable_event_type(device, UInt32(type))
            for code in description.codes[type, default: []].sorted() {
                if type == EventCode.EV_ABS {
                    // An axis needs its range; one the description lacks cannot be made.
                    guard let info = description.absInfo[code] else { continue }
                    var absinfo = input_absinfo(value: info.minimum, minimum: info.minimum, maximum: info.maximum,
                                                fuzz: info.fuzz, flat: info.flat, resolution: info.resolution)
                    libevdev_enable_event_code(device, UInt32(type), UInt32(code), &absinfo)
                } else {
                    libevdev_enable_event_code(device, UInt32(type), UInt32(code), nil)
                }
            }
        }
        var created: OpaquePointer?
        let result = libevdev_uinput_create_from_device(device, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &created)
        guard result == 0, let created else {
            libevdev_free(device)
            self.device = nil
            throw Errno(rawValue: -result)
        }
        uinput = created
        devicePath = libevdev_uinput_get_devnode(created).map { String(cString: $0) }
    }

    /// Writes one event; the kernel passes it on at the next SYN_REPORT.
    public func write(type: UInt16, code: UInt16, value: Int32) throws(Errno) {
        guard let uinput else { throw Errno(rawValue: EBADF) }
        let result = libevdev_uinput_write_event(uinput, UInt32(type), UInt32(code), value)
        if result < 0 { throw Errno(rawValue: -result) }
    }

    /// Destroys the virtual device: to its readers, an unplug.
    public func close() {
        if let uinput { libevdev_uinput_destroy(uinput) }
        if let device { libevdev_free(device) }
        uinput = nil
        device = nil
    }

    deinit { close() }
}
