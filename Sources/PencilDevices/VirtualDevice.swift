import CEvdev
import PencilInput
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// A virtual input device made through uinput with a given description: `pencilctl emulate`
/// plays recordings through it, the kernel tests make real evdev devices with it, and pencild
/// makes a pen's mirror with it (docs/gestures.md, "The mirror").
///
/// Owns its libevdev handle and its uinput device; both are freed by `close()` (or when the
/// last reference goes). Needs write access to /dev/uinput.
public final class VirtualDevice {
    private var device: OpaquePointer?
    private var uinput: OpaquePointer?
    /// /dev/uinput, when opened here rather than by libevdev (to set the phys first).
    private var uinputDescriptor: FileDescriptor?

    /// The /dev/input/eventN node the kernel made, when sysfs tells it.
    public let devicePath: String?
    /// The input device's folder in sysfs (/sys/devices/virtual/input/input42), when known:
    /// its event node's udev reports lie under it.
    public let syspath: String?
    /// Events of `write(_:)` in the kernel's layout, kept from call to call.
    private var buffer: [input_event] = []

    /// `phys`: the physical path the device reports (set with UI_SET_PHYS); nil for none.
    public init(description: DeviceDescription, phys: String? = nil) throws(Errno) {
        guard let device = libevdev_new() else { throw .noMemory }
        self.device = device
        libevdev_set_name(device, description.name)
        // libevdev passes the name and ids to uinput but not the phys: with one, /dev/uinput
        // is opened here and UI_SET_PHYS comes first.
        var uinputFile = Int32(LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue)
        if let phys {
            let opened: FileDescriptor
            do {
                opened = try FileDescriptor.open("/dev/uinput", [.readWrite, .nonBlocking, .closeOnExec])
            } catch {
                libevdev_free(device)
                self.device = nil
                throw error
            }
            let status = pencild_uinput_set_phys(opened.rawValue, phys)
            guard status == 0 else {
                opened.close()
                libevdev_free(device)
                self.device = nil
                throw Errno(rawValue: -status)
            }
            uinputDescriptor = opened
            uinputFile = opened.rawValue
        }
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
        let result = libevdev_uinput_create_from_device(device, uinputFile, &created)
        guard result == 0, let created else {
            libevdev_free(device)
            self.device = nil
            uinputDescriptor?.close()
            uinputDescriptor = nil
            throw Errno(rawValue: -result)
        }
        uinput = created
        devicePath = libevdev_uinput_get_devnode(created).map { String(cString: $0) }
        syspath = libevdev_uinput_get_syspath(created).map { String(cString: $0) }
    }

    /// The kernel name of the event node ("event12"), when sysfs told it.
    public var kernelName: String? {
        devicePath.map { path in path.split(separator: "/").last.map(String.init) ?? path }
    }

    /// Writes `events` (whole frames, each ending with SYN_REPORT) in one system call; the
    /// kernel stamps them itself. A short write is an error: uinput takes whole events or none.
    public func write(_ events: [InputEvent]) throws(Errno) {
        guard let uinput else { throw .badFileDescriptor }
        guard !events.isEmpty else { return }
        buffer.removeAll(keepingCapacity: true)
        for event in events {
            buffer.append(input_event(time: timeval(), type: event.type, code: event.code, value: event.value))
        }
        let descriptor = libevdev_uinput_get_fd(uinput)
        let size = buffer.count * MemoryLayout<input_event>.stride
        var written = -1
        var failure: Errno?
        buffer.withUnsafeBytes { bytes in
            do throws(Errno) { written = try retryingOnInterrupt { Glibc.write(descriptor, bytes.baseAddress, size) } } catch { failure = error }
        }
        if let failure { throw failure }
        if written != size { throw .ioError }
    }

    /// Writes one event; the kernel passes it on at the next SYN_REPORT.
    public func write(type: UInt16, code: UInt16, value: Int32) throws(Errno) {
        guard let uinput else { throw .badFileDescriptor }
        let result = libevdev_uinput_write_event(uinput, UInt32(type), UInt32(code), value)
        if result < 0 { throw Errno(rawValue: -result) }
    }

    /// Destroys the virtual device: to its readers, an unplug.
    public func close() {
        if let uinput { libevdev_uinput_destroy(uinput) }
        if let device { libevdev_free(device) }
        // Not libevdev's to close when opened here.
        uinputDescriptor?.close()
        uinputDescriptor = nil
        uinput = nil
        device = nil
    }

    deinit { close() }
}
