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
