import CEvdev
import PencilSystem

/// What udev says about one input device node, as plain data.
struct InputNode: Equatable, Sendable {
    enum Action: String, Sendable { case add, remove, change }

    /// nil for devices found by enumeration (they are there now).
    var action: Action?
    /// The kernel name, e.g. `event7`: the device's id in the protocol.
    var kernelName: String
    /// `/dev/input/event7`; nil for nodes without one (the `input7` parent).
    var devnode: String?
    /// The udev properties pencild reads (ID_INPUT_TABLET, ID_INPUT_TABLET_PAD, ID_SEAT).
    var properties: [String: String]
    /// The node's folder in sysfs.
    var syspath: String = ""
    /// The input device's phys, as its parent in sysfs has it; a mirror's ends in `-pencild`.
    var phys: String?

    /// The seat the device belongs to (udev's ID_SEAT, seat0 when unset).
    var seat: String { properties["ID_SEAT"].flatMap { $0.isEmpty ? nil : $0 } ?? LogindSeat.main }
}

/// Which input nodes pencild opens: event nodes udev's input_id marks as a tablet and not as a
/// tablet pad. Pure, so that the rule is tested without udev.
enum InputNodeFilter {
    static let propertiesRead = ["ID_INPUT_TABLET", "ID_INPUT_TABLET_PAD", "ID_SEAT"]
    /// What follows the pen's phys in a mirror's (docs/gestures.md, "The mirror").
    static let mirrorPhysSuffix = "-pencild"

    enum Verdict: Equatable {
        case open
        case ignore(reason: String)
    }

    /// `mirrors`: the sysfs folders of the mirrors this daemon made.
    static func verdict(for node: InputNode, mirrors: Set<String> = []) -> Verdict {
        guard let devnode = node.devnode, devnode.hasPrefix("/dev/input/event") else {
            return .ignore(reason: "not an event node")
        }
        // Mirrors are never pens: by phys (anyone's mirror), and by the syspath recorded for
        // our own (the phys a device reports is whatever its maker chose).
        if node.phys?.hasSuffix(mirrorPhysSuffix) == true {
            return .ignore(reason: "a mirror of pencild (phys ends in \(mirrorPhysSuffix))")
        }
        if mirrors.contains(where: { node.syspath.hasPrefix($0 + "/") }) {
            return .ignore(reason: "the mirror of one of this daemon's pens")
        }
        guard node.properties["ID_INPUT_TABLET"] == "1" else {
            return .ignore(reason: "udev does not mark it ID_INPUT_TABLET=1")
        }
        if node.properties["ID_INPUT_TABLET_PAD"] == "1" {
            return .ignore(reason: "a tablet pad (ID_INPUT_TABLET_PAD=1)")
        }
        return .open
    }
}

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
