@testable import PencilDaemon
import PencilTestSupport
import Testing
import PencilSystem

/// Which nodes pencild opens, and how often it complains: the pure rules behind live devices.
/// Opening real nodes is the kernel tier's (tests/kernel/): this host has no /dev/uinput.
@Suite("Live devices: the rules")
struct LiveDeviceRulesTests {
    static let nodes: [(name: String, node: InputNode, opens: Bool)] = [
        ("a Wacom pen", InputNode(kernelName: "event7", devnode: "/dev/input/event7", properties: ["ID_INPUT_TABLET": "1"]), true),
        ("the same tablet's pad", InputNode(kernelName: "event8", devnode: "/dev/input/event8", properties: ["ID_INPUT_TABLET": "1", "ID_INPUT_TABLET_PAD": "1"]), false),
        ("a keyboard", InputNode(kernelName: "event2", devnode: "/dev/input/event2", properties: [:]), false),
        ("a tablet not yet tagged", InputNode(kernelName: "event9", devnode: "/dev/input/event9", properties: ["ID_INPUT_TABLET": "0"]), false),
        ("the input parent, no node", InputNode(kernelName: "input7", devnode: nil, properties: ["ID_INPUT_TABLET": "1"]), false),
        ("a legacy mouse node", InputNode(kernelName: "mouse1", devnode: "/dev/input/mouse1", properties: ["ID_INPUT_TABLET": "1"]), false),
        ("a joystick node", InputNode(kernelName: "js0", devnode: "/dev/input/js0", properties: ["ID_INPUT_TABLET": "1"]), false),
        ("a pen with a phys", InputNode(kernelName: "event5", devnode: "/dev/input/event5", properties: ["ID_INPUT_TABLET": "1"],
                                        syspath: "/sys/devices/pci0000:00/usb1/input/input5/event5", phys: "usb-0000:00:14.0-1/input0"), true),
        ("a pencild mirror, by its phys", InputNode(kernelName: "event12", devnode: "/dev/input/event12", properties: ["ID_INPUT_TABLET": "1"],
                                                    syspath: "/sys/devices/virtual/input/input12/event12", phys: "usb-0000:00:14.0-1/input0-pencild"), false),
    ]

    @Test("a mirror this daemon made is no pen, by the syspath it recorded, whatever its phys")
    func ownMirrorBySyspath() {
        let mirror = InputNode(kernelName: "event13", devnode: "/dev/input/event13", properties: ["ID_INPUT_TABLET": "1"],
                               syspath: "/sys/devices/virtual/input/input13/event13", phys: "")
        #expect(InputNodeFilter.verdict(for: mirror, mirrors: ["/sys/devices/virtual/input/input13"]) != .open)
        // Positive control: the same node, not recorded as a mirror, and a neighbour whose
        // folder only starts with the same digits.
        #expect(InputNodeFilter.verdict(for: mirror) == .open)
        #expect(InputNodeFilter.verdict(for: mirror, mirrors: ["/sys/devices/virtual/input/input1"]) == .open)
    }

    @Test("a pen's seat is udev's ID_SEAT, seat0 when unset or empty")
    func seat() {
        #expect(InputNode(kernelName: "event5", devnode: nil, properties: ["ID_SEAT": "seat1"]).seat == "seat1")
        #expect(InputNode(kernelName: "event5", devnode: nil, properties: [:]).seat == "seat0")
        #expect(InputNode(kernelName: "event5", devnode: nil, properties: ["ID_SEAT": ""]).seat == "seat0")
    }

    @Test("pencild opens event nodes udev tags ID_INPUT_TABLET=1, never pads", arguments: nodes.indices)
    func filter(index: Int) {
        let (name, node, opens) = Self.nodes[index]
        let verdict = InputNodeFilter.verdict(for: node)
        #expect((verdict == .open) == opens, "\(name): \(verdict)")
        if case .ignore(let reason) = verdict { #expect(!reason.isEmpty) }
    }

    @Test("a flood of SYN_DROPPED gives one line per interval, counting the ones held back")
    func droppedRateLimit() {
        var limiter = LogRateLimiter(interval: 10_000_000)
        var lines: [(time: Int64, heldBack: Int)] = []
        // 1 kHz of drops for 25 s.
        for millisecond in Int64(0)..<25_000 {
            let time = 1_000_000 + millisecond * 1_000
            let (allowed, heldBack) = limiter.shouldLog(at: HostTime(microseconds: time))
            if allowed { lines.append((time, heldBack)) }
        }
        #expect(lines.map(\.time) == [1_000_000, 11_000_000, 21_000_000])
        #expect(lines.map(\.heldBack) == [0, 9_999, 9_999])
        // After a quiet spell the next drop is logged at once.
        #expect(limiter.shouldLog(at: HostTime(microseconds: 60_000_000)).allowed)
    }
}
