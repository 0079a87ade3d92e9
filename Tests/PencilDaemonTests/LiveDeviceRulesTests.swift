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
    ]

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
