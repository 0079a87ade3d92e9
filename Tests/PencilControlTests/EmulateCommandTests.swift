import Foundation
import Testing
@testable import PencilControl
import PencilDevices
import PencilInput
import PencilSystem
import PencilTestSupport

/// An Intuos5 pen (TestDevices) without tilt, so that the stroke's ABS_TILT_X is undeclared;
/// its header as `evemu-record` writes it.
private let header: String = {
    var pen = TestDevice.intuos5Pen.description
    for axis in [EventCode.ABS_TILT_X, EventCode.ABS_TILT_Y] {
        pen.codes[EventCode.EV_ABS]?.remove(axis)
        pen.absInfo[axis] = nil
    }
    return EvemuWriter.header(pen)
}()

/// A pen comes in, touches down twice 10 ms apart, lifts and leaves: four frames at 0, 10, 20
/// and 40 ms. A SYN_DROPPED and an undeclared code (ABS_TILT_X) are in the way.
private let strokeEvents = """
    E: 5.000000 0001 0140 1
    E: 5.000000 0003 0000 1000
    E: 5.000000 0004 0000 123
    E: 5.000000 0000 0000 0
    E: 5.010000 0003 0018 900
    E: 5.010000 0003 001a 12
    E: 5.010000 0000 0003 0
    E: 5.010000 0000 0000 0
    E: 5.020000 0003 0018 0
    E: 5.020000 0000 0000 0
    E: 5.040000 0001 0140 0
    E: 5.040000 0000 0000 0

    """

private func temporaryFile(_ name: String, _ contents: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString)-\(name)").path
    try contents.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

private func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
    let io = CommandIO.capturing()
    let status = PencilControl.run(arguments: arguments, io: io)
    return (status, io.output.capturedText, io.errors.capturedText)
}

private func plan() throws -> EmulationPlan {
    EmulationPlan(try EvemuRecording(parsing: header + strokeEvents, fileName: "stroke.evemu"))
}

/// A clock that moves only when slept on (and by `lag` more, as a busy host would).
private final class ScriptedClock: EmulationClock {
    var time: Int64
    var lag: Int64 = 0
    private(set) var sleeps: [Int64] = []
    init(at time: Int64) { self.time = time }
    func now() -> Int64 { time }
    func sleep(until deadline: Int64) {
        sleeps.append(deadline)
        time = max(time, deadline) + lag
    }
}

/// Records what is written, with the clock's time; fails at the `failAt`-th write.
private struct RecordingOutput: EmulationOutput {
    let clock: ScriptedClock
    var failAt: Int?
    var written: [InputEvent] = []
    init(clock: ScriptedClock, failAt: Int? = nil) {
        self.clock = clock
        self.failAt = failAt
    }
    mutating func write(_ event: InputEvent) throws(Errno) {
        if let failAt, written.count == failAt { throw Errno.noDevice }
        written.append(InputEvent(time: clock.now(), type: event.type, code: event.code, value: event.value))
    }
}

@Suite("pencilctl emulate")
struct EmulateCommandTests {
    @Test("options: defaults, both spellings, speeds and settle")
    func options() throws {
        let defaults = try EmulateCommand.parse(["pen.events"]).get()
        #expect(defaults == EmulateCommand.Options(recording: "pen.events", description: nil, speed: .realTime, hold: false, settle: 500_000))
        let all = try EmulateCommand.parse(["--desc=pen.desc", "pen.events", "--speed", "2.5", "--hold", "--settle", "0"]).get()
        #expect(all == EmulateCommand.Options(recording: "pen.events", description: "pen.desc", speed: PlaybackSpeed(factor: 2.5)!,
                                              hold: true, settle: 0))
        #expect(try EmulateCommand.parse(["pen.events", "--speed=max"]).get().speed == .asFastAsPossible)
        #expect(try EmulateCommand.parse(["pen.events", "--settle=1.25"]).get().settle == 1_250_000)
        #expect(!defaults.waitForPencild)
        #expect(try EmulateCommand.parse(["pen.events", "--wait-for-pencild"]).get().waitForPencild)
    }

    @Test("usage errors exit 64 and say what is wrong", arguments: [
        (["emulate"], "no recording given"),
        (["emulate", "a.events", "b.events"], "unexpected argument b.events"),
        (["emulate", "a.events", "--speed"], "--speed needs a value"),
        (["emulate", "a.events", "--speed", "0"], "--speed: expected a positive number or max, not \"0\""),
        (["emulate", "a.events", "--speed", "fast"], "--speed: expected a positive number or max, not \"fast\""),
        (["emulate", "a.events", "--speed", "inf"], "--speed: expected a positive number or max, not \"inf\""),
        (["emulate", "a.events", "--settle", "-1"], "--settle: expected seconds from 0 to 3600, not \"-1\""),
        (["emulate", "a.events", "--hold=yes"], "--hold takes no value"),
        (["emulate", "a.events", "--wait-for-pencild=yes"], "--wait-for-pencild takes no value"),
        (["emulate", "a.events", "--loop"], "unknown option --loop"),
    ])
    func usageErrors(arguments: [String], message: String) {
        let result = run(arguments)
        #expect(result.status == 64)
        #expect(result.output == "")
        #expect(result.errors == "pencilctl emulate: \(message)\nusage: \(EmulateCommand.usage)\n")
    }

    @Test("a missing recording exits 66 and a malformed one 65, before any device is made")
    func badRecordings() throws {
        let missing = run(["emulate", "no-such.events"])
        #expect(missing.status == 66)
        #expect(missing.output == "")
        #expect(missing.errors == "no-such.events: cannot open: No such file or directory\n")
        let path = try temporaryFile("broken.evemu", header + "E: 5.000000 0001 01x0 1\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let broken = run(["emulate", path])
        #expect(broken.status == 65)
        // The broken event is the line after the header.
        let line = header.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(broken.errors == "\(path):\(line): bad hex in event code\n")
    }

    @Test("a recording of a device that is not a pen is refused (65) before any device is made; every pen may be played")
    func onlyPensArePlayed() throws {
        var keyboard = TestDevice.mouse.description
        keyboard.name = "AT Translated Set 2 keyboard"
        keyboard.codes = [EventCode.EV_SYN: [0], EventCode.EV_KEY: [29, 56, 59, 99, 116]]   // Ctrl, Alt, F1, SysRq, Power
        keyboard.absInfo = [:]
        let cases: [(String, DeviceDescription, String)] = [
            ("keyboard", keyboard, "no absolute X and Y axes"),
            ("mouse", TestDevice.mouse.description, "a mouse: relative motion, no absolute X and Y"),
        ]
        for (name, device, reason) in cases {
            let path = try temporaryFile("\(name).evemu", EvemuWriter.header(device) + "E: 5.000000 0001 0074 1\nE: 5.000000 0000 0000 0\n")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let result = run(["emulate", path, "--settle", "0"])
            #expect(result.status == 65, "\(name)")
            #expect(result.output == "")
            #expect(result.errors == "pencilctl emulate: \(path): not a pen device (\(reason)): emulate plays only pens\n")
        }
        // A pen is not refused: here it gets as far as uinput (69 without it).
        let pen = try temporaryFile("stroke.evemu", header + strokeEvents)
        defer { try? FileManager.default.removeItem(atPath: pen) }
        if !Self.uinputUsable {
            let result = run(["emulate", pen, "--settle", "0"])
            #expect(result.status == 69)
            #expect(!result.errors.contains("plays only pens"))
        }
    }

    @Test("a pen's keyboard keys (a Cintiq's express keys, KEY_POWER) and switches are left out of the virtual pen, and their events with them")
    func aPensKeyboardKeysAreLeftOut() throws {
        var pen = TestDevice.intuos5Pen.description
        pen.codes[EventCode.EV_KEY, default: []].formUnion([116, 148, 0x2c0])   // KEY_POWER, KEY_PROG1, BTN_TRIGGER_HAPPY1
        pen.codes[0x05] = [0x00]                                                // EV_SW: SW_LID
        let (kept, removed) = EmulateCommand.penOnly(pen)
        #expect(removed == 4)
        #expect(kept.codes[0x05] == nil)
        #expect(kept.codes[EventCode.EV_KEY] == TestDevice.intuos5Pen.description.codes[EventCode.EV_KEY])
        #expect(kept.absInfo == pen.absInfo && kept.properties == pen.properties)
        // A pen without them is kept whole.
        for device in TestDevice.pens {
            #expect(EmulateCommand.penOnly(device.description).removed == 0, "\(device)")
        }
    }

    @Test("the plan keeps every frame, and leaves out SYN_DROPPED and codes the device does not declare")
    func planFiltersEvents() throws {
        let plan = try plan()
        #expect(plan.unsupportedCount == 1)
        #expect(plan.frameCount == 4)
        #expect(plan.duration == 40_000)
        #expect(!plan.events.contains { $0.isSynDropped })
        #expect(!plan.events.contains { $0.type == EventCode.EV_ABS && $0.code == EventCode.ABS_TILT_X })
        // MSC_SERIAL is declared: it stays, in place.
        #expect(plan.events[2] == InputEvent(time: 5_000_000, type: EventCode.EV_MSC, code: EventCode.MSC_SERIAL, value: 123))
        #expect(plan.events.count == 10)
    }

    @Test("real time: each frame is written at its recorded delay after the first, sleeping to absolute deadlines")
    func realTime() throws {
        let clock = ScriptedClock(at: 1_000_000)
        var output = RecordingOutput(clock: clock)
        let result = try plan().play(speed: .realTime, into: &output, clock: clock)
        #expect(clock.sleeps == [1_000_000, 1_010_000, 1_020_000, 1_040_000])
        let reportTimes = output.written.filter(\.isSynReport).map(\.time)
        #expect(reportTimes == [1_000_000, 1_010_000, 1_020_000, 1_040_000])
        #expect(output.written.map(\.code) == (try plan()).events.map(\.code))
        #expect(result == EmulationResult(eventCount: 10, frameCount: 4, elapsed: 40_000, lateness: 0))
    }

    @Test("four times faster: the delays are a quarter")
    func faster() throws {
        let clock = ScriptedClock(at: 0)
        var output = RecordingOutput(clock: clock)
        _ = try plan().play(speed: PlaybackSpeed(factor: 4)!, into: &output, clock: clock)
        #expect(output.written.filter(\.isSynReport).map(\.time) == [0, 2_500, 5_000, 10_000])
    }

    @Test("as fast as possible: nothing sleeps")
    func asFastAsPossible() throws {
        let clock = ScriptedClock(at: 7)
        var output = RecordingOutput(clock: clock)
        let result = try plan().play(speed: .asFastAsPossible, into: &output, clock: clock)
        #expect(clock.sleeps.isEmpty)
        #expect(result.eventCount == 10 && result.frameCount == 4 && result.elapsed == 0)
    }

    @Test("a busy host: late frames are written at once, and the schedule does not drift")
    func lateFrames() throws {
        let clock = ScriptedClock(at: 0)
        clock.lag = 3_000
        var output = RecordingOutput(clock: clock)
        let result = try plan().play(speed: .realTime, into: &output, clock: clock)
        // Each sleep aims at the recorded schedule, not at the last wake-up plus a delay.
        #expect(clock.sleeps == [0, 10_000, 20_000, 40_000])
        #expect(result.lateness == 3_000)
    }

    @Test("a failed write stops the playback with its errno")
    func writeFailure() throws {
        let clock = ScriptedClock(at: 0)
        var output = RecordingOutput(clock: clock, failAt: 5)
        #expect(throws: Errno.noDevice) { try plan().play(speed: .realTime, into: &output, clock: clock) }
        #expect(output.written.count == 5)
        #expect(clock.sleeps == [0, 10_000])
    }

    @Test("without a usable /dev/uinput: exit 69 with the reason, nothing on stdout",
          .enabled(if: !FileManager.default.isWritableFile(atPath: "/dev/uinput"), "/dev/uinput is usable here: the VM tier covers it"))
    func noUinput() throws {
        let path = try temporaryFile("stroke.evemu", header + strokeEvents)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = run(["emulate", path, "--settle", "0"])
        #expect(result.status == 69)
        #expect(result.output == "")
        #expect(result.errors.contains("pencilctl emulate: cannot create a virtual device through /dev/uinput: "))
    }

    // MARK: With uinput (the kernel tier runs these inside its VM)

    static let uinputUsable = FileManager.default.isWritableFile(atPath: "/dev/uinput")

    @Test("the virtual device has the recording's exact capabilities, for every real recording (needs /dev/uinput: the kernel tier runs it)",
          .enabled(if: uinputUsable, "no writable /dev/uinput (modprobe uinput, as root)"),
          .requires(.recordings))
    func exactCapabilities() throws {
        for (events, desc) in SharedRecordings.all {
            let recording = try EvemuRecording.load(path: SharedRecordings.path(events), descriptionPath: desc.map(SharedRecordings.path))
            let device = try VirtualDevice(description: recording.description)
            defer { device.close() }
            let node = try #require(device.devicePath)
            let live = try LiveDevice(path: node)
            defer { live.close() }
            var expected = recording.description
            // The kernel names the device, and keeps what uinput can carry: the name up to 79 bytes.
            expected.name = String(decoding: Array(expected.name.utf8.prefix(79)), as: UTF8.self)
            #expect(live.description.name == expected.name, "\(events)")
            #expect(live.description.bus == expected.bus && live.description.vendor == expected.vendor
                    && live.description.product == expected.product && live.description.version == expected.version, "\(events)")
            #expect(live.description.properties == expected.properties, "\(events)")
            #expect(live.description.absInfo == expected.absInfo, "\(events)")
            for type in Set(expected.codes.keys).union(live.description.codes.keys) where type != EventCode.EV_SYN {
                #expect(live.description.codes[type, default: []] == expected.codes[type, default: []], "\(events): type \(type)")
            }
        }
    }

    @Test("a played recording reaches an evdev reader frame by frame, stamped by the kernel at the write (needs /dev/uinput: the kernel tier runs it)",
          .enabled(if: uinputUsable, "no writable /dev/uinput (modprobe uinput, as root)"))
    func playbackReachesReaders() throws {
        let recording = try EvemuRecording(parsing: header + strokeEvents, fileName: "stroke.evemu")
        let plan = EmulationPlan(recording)
        let device = try VirtualDevice(description: recording.description)
        defer { device.close() }
        let live = try LiveDevice(path: try #require(device.devicePath))
        defer { live.close() }
        var output = VirtualDeviceOutput(device: device)
        let clock = SystemEmulationClock()
        let before = clock.now()
        _ = try plan.play(speed: .realTime, into: &output, clock: clock)
        let after = clock.now()
        var read: [InputEvent] = []
        _ = try live.read(limit: 100) { item in
            if case .event(let event) = item { read.append(event) }
        }
        // The same events in the same order (SYN_MT_REPORT aside), with the kernel's times.
        let expected = plan.events.map { ($0.type, $0.code, $0.value) }
        #expect(read.map { "\($0.type) \($0.code) \($0.value)" } == expected.map { "\($0.0) \($0.1) \($0.2)" })
        let reports = read.filter(\.isSynReport).map(\.time)
        #expect(reports.count == 4)
        #expect(reports.allSatisfy { $0 >= before && $0 <= after })
        // No frame is written before its due time (recorded at 0, 10, 20 and 40 ms); a busy
        // host may write one late, and the next on time again.
        let offsets: [Int64] = [0, 10_000, 20_000, 40_000]
        #expect(zip(reports, offsets).allSatisfy { report, offset in report - before >= offset }, "\(reports.map { $0 - before })")
    }
}
