import CEvdev
import PencilSystem

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
