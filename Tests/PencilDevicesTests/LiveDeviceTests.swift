import Testing
@testable import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem
import PencilTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The number of open descriptors of this process.
private func openDescriptorCount() -> Int {
    guard let directory = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(directory) }
    var count = 0
    while readdir(directory) != nil { count += 1 }
    return count
}

@Suite("Live devices")
struct LiveDeviceTests {
    @Test("a node that does not exist is .noSuchFile")
    func missingNode() {
        #expect(throws: Errno.noSuchFile) { try LiveDevice(path: "/dev/input/event-that-does-not-exist") }
    }

    @Test("a node that is not an evdev device fails with a typed error and leaks nothing")
    func notAnEvdevNode() {
        // Other tests open descriptors concurrently, so one attempt cannot be measured alone:
        // many failed opens that each leaked one would show as a growth of at least that many.
        let attempts = 200
        let before = openDescriptorCount()
        for _ in 0..<attempts {
            do {
                _ = try LiveDevice(path: "/dev/null")
                Issue.record("/dev/null opened as an input device")
            } catch {
                // libevdev's EVIOCGBIT ioctl on a character device that is not evdev: ENOTTY.
                #expect(error == .inappropriateIOCTLForDevice)
            }
        }
        #expect(openDescriptorCount() - before < attempts / 4)
    }

    // The kernel side is scripted below; a real device is exercised on the VM tier.

    static let x = InputEvent(time: 1_000, type: EventCode.EV_ABS, code: EventCode.ABS_X, value: 10)
    static let report = InputEvent(time: 1_000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)
    static let dropped = InputEvent(time: 2_000, type: EventCode.EV_SYN, code: EventCode.SYN_DROPPED, value: 0)
    static let syncedX = InputEvent(time: 3_000, type: EventCode.EV_ABS, code: EventCode.ABS_X, value: 99)
    static let syncedReport = InputEvent(time: 3_000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)

    /// libevdev_next_event as a script: each call takes the next answer and checks the mode.
    final class Script {
        var answers: [(sync: Bool, status: Int32, event: InputEvent)]
        var modeErrors = 0
        init(_ answers: [(sync: Bool, status: Int32, event: InputEvent)]) { self.answers = answers }
        func next(_ sync: Bool) -> (status: Int32, event: InputEvent) {
            guard !answers.isEmpty else { return (-EAGAIN, InputEvent(time: 0, type: 0, code: 0, value: 0)) }
            let answer = answers.removeFirst()
            if answer.sync != sync { modeErrors += 1 }
            return (answer.status, answer.event)
        }
    }

    static func drain(_ script: Script, limit: Int = 100, dropped: inout Int) throws(Errno) -> ([SourceItem], SourceStatus) {
        var items: [SourceItem] = []
        let status = try LiveDevice.drain(limit: limit, next: script.next) { item in
            if item == .resynchronisation { dropped += 1 }
            items.append(item)
        }
        return (items, status)
    }

    @Test("events are handed out until EAGAIN")
    func drainsUntilWouldBlock() throws {
        let script = Script([(false, 0, Self.x), (false, 0, Self.report)])
        var dropped = 0
        let (items, status) = try Self.drain(script, dropped: &dropped)
        #expect(items == [.event(Self.x), .event(Self.report)])
        #expect(status == .drained)
        #expect(dropped == 0)
    }

    @Test("after SYN_DROPPED: resynchronisation, then the synced state in sync mode until EAGAIN, then normal reads")
    func synDropped() throws {
        let script = Script([
            (false, 0, Self.x),
            (false, 1, Self.dropped),
            (true, 1, Self.syncedX),
            (true, 1, Self.syncedReport),
            (true, -EAGAIN, Self.syncedReport),
            (false, 0, Self.x),
            (false, 0, Self.report),
        ])
        var dropped = 0
        let (items, status) = try Self.drain(script, dropped: &dropped)
        #expect(items == [.event(Self.x), .resynchronisation, .event(Self.syncedX), .event(Self.syncedReport),
                          .event(Self.x), .event(Self.report)])
        #expect(status == .drained)
        #expect(dropped == 1)
        #expect(script.modeErrors == 0)
    }

    @Test("the limit stops a flood, but never in the middle of a sync")
    func limit() throws {
        let script = Script([
            (false, 1, Self.dropped),
            (true, 1, Self.syncedX),
            (true, 1, Self.syncedReport),
            (true, -EAGAIN, Self.syncedReport),
            (false, 0, Self.x),
        ])
        var dropped = 0
        let (items, status) = try Self.drain(script, limit: 2, dropped: &dropped)
        #expect(items == [.resynchronisation, .event(Self.syncedX), .event(Self.syncedReport)])
        #expect(status == .more)
        #expect(script.answers.count == 1)
    }

    @Test("an unplugged device is ENODEV, in normal and in sync mode")
    func unplugged() {
        var dropped = 0
        #expect(throws: Errno.noDevice) {
            try Self.drain(Script([(false, 0, Self.x), (false, -ENODEV, Self.x)]), dropped: &dropped)
        }
        #expect(throws: Errno.noDevice) {
            try Self.drain(Script([(false, 1, Self.dropped), (true, -ENODEV, Self.x)]), dropped: &dropped)
        }
        #expect(dropped == 1)
    }

    @Test("a resynchronised tracker takes the synced state: the frame in progress is dropped")
    func trackerAfterResynchronisation() throws {
        let pen = TestDevice.isdv4E6Pen.description
        let script = Script([
            (false, 0, InputEvent(time: 1_000, type: EventCode.EV_KEY, code: EventCode.BTN_TOOL_PEN, value: 1)),
            (false, 0, InputEvent(time: 1_000, type: EventCode.EV_ABS, code: EventCode.ABS_X, value: 100)),
            (false, 0, InputEvent(time: 1_000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)),
            // A half frame, then the kernel's buffer overflows.
            (false, 0, InputEvent(time: 2_000, type: EventCode.EV_ABS, code: EventCode.ABS_PRESSURE, value: 255)),
            (false, 1, Self.dropped),
            (true, 1, InputEvent(time: 3_000, type: EventCode.EV_ABS, code: EventCode.ABS_X, value: 200)),
            (true, 1, InputEvent(time: 3_000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)),
        ])
        var pipeline = PenPipeline(description: pen, id: "event7")
        var events: [PencilProtocol.Event] = []
        _ = try LiveDevice.drain(limit: 100, next: script.next) { item in
            switch item {
            case .event(let event):
                pipeline.feed(event, into: &events)
            case .resynchronisation:
                pipeline.beginResynchronisation()
            }
        }
        #expect(events.map(\.type) == [.proximityIn, .hover, .hover])
        #expect(pipeline.tracker.state.tipDown == false, "the dropped pressure never lands")
        #expect(pipeline.tracker.state.pose.x == 200.0 / 27760.0)
    }
}

