import CEvdev
import PencilSystem

/// libudev's context, enumeration and monitor for the `input` subsystem. All of pencild's
/// libudev pointer code lives here; nothing leaves it but `InputNode` values. One thread (the
/// event loop's) uses it; it frees its pointers when it goes.
final class UdevWatcher {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    /// Readable when udev has news; owned by the monitor (closed by udev_monitor_unref).
    let descriptor: FileDescriptor

    /// Opens udev and starts listening for input devices that come, go or change. Fails when
    /// the process may not open a netlink socket, or libudev is unusable.
    init() throws(Errno) {
        guard let udev = udev_new() else { throw Errno.current }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            let error = Errno.current
            udev_unref(udev)
            throw error
        }
        var status = udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
        if status >= 0 { status = udev_monitor_enable_receiving(monitor) }
        let fd = udev_monitor_get_fd(monitor)
        guard status >= 0, fd >= 0 else {
            udev_monitor_unref(monitor)
            udev_unref(udev)
            throw Errno(rawValue: status < 0 ? -status : (fd < 0 ? -fd : Errno.invalidArgument.rawValue))
        }
        self.udev = udev
        self.monitor = monitor
        descriptor = FileDescriptor(rawValue: fd)
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }

    /// Every input device there is now (subsystem `input`).
    func enumerate() -> [InputNode] {
        guard let enumeration = udev_enumerate_new(udev) else { return [] }
        defer { udev_enumerate_unref(enumeration) }
        guard udev_enumerate_add_match_subsystem(enumeration, "input") >= 0,
              udev_enumerate_scan_devices(enumeration) >= 0 else { return [] }
        var nodes: [InputNode] = []
        var entry = udev_enumerate_get_list_entry(enumeration)
        while let current = entry {
            if let syspath = udev_list_entry_get_name(current), let device = udev_device_new_from_syspath(udev, syspath) {
                nodes.append(Self.node(from: device))
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return nodes
    }

    /// The news udev has queued, at most `limit` of them (the descriptor stays readable while
    /// more wait).
    func receive(limit: Int = 64) -> [InputNode] {
        var nodes: [InputNode] = []
        while nodes.count < limit, let device = udev_monitor_receive_device(monitor) {
            nodes.append(Self.node(from: device))
            udev_device_unref(device)
        }
        return nodes
    }

    private static func node(from device: OpaquePointer) -> InputNode {
        func string(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        var properties: [String: String] = [:]
        for name in InputNodeFilter.propertiesRead {
            if let value = string(udev_device_get_property_value(device, name)) { properties[name] = value }
        }
        // The event node's parent input device holds the phys; the parent is the device's own.
        let parent = udev_device_get_parent_with_subsystem_devtype(device, "input", nil)
        return InputNode(action: string(udev_device_get_action(device)).flatMap(InputNode.Action.init(rawValue:)),
                         kernelName: string(udev_device_get_sysname(device)) ?? "",
                         devnode: string(udev_device_get_devnode(device)),
                         properties: properties,
                         syspath: string(udev_device_get_syspath(device)) ?? "",
                         phys: parent.flatMap { string(udev_device_get_sysattr_value($0, "phys")) })
    }
}
