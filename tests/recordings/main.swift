import PencilInput
import PencilSystem
import PencilTestDevices
#if canImport(Glibc)
import Glibc
#endif

// pencil-test-recordings DIR
// pencil-test-recordings --client-pen [--name NAME] [--squeeze]
//
// Writes the recordings of the pens made in a VM into DIR: the kernel suite's scenarios
// (suite.sh runs it before suite.py, which plays them with `pencilctl emulate`) and the
// benchmarks' patterns (bench/: bench-pattern.evemu, bench-long-pattern.evemu,
// bench-idle.evemu). What a person does with the pen, as evemu files written by the
// project's own EvemuWriter, on an Intuos5 pen of the tests' device table named after its
// use.

/// What a person does with the pen, as evdev frames: every step is one frame, stamped
/// `after` seconds after the previous one. Positions are in the device's units.
struct SuitePen {
    private(set) var events: [InputEvent] = []
    private(set) var time: Int64 = 100_000_000
    var x: Int32 = 15_000
    var y: Int32 = 9_000
    static let serial: Int32 = 0x2345

    mutating func pause(_ seconds: Double) {
        time += Int64((seconds * 1e6).rounded())
    }

    mutating func frame(_ changes: [(type: UInt16, code: UInt16, value: Int32)], after: Double = 0.010) {
        pause(after)
        for change in changes {
            events.append(InputEvent(time: time, type: change.type, code: change.code, value: change.value))
        }
        events.append(InputEvent(time: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
    }

    /// Comes into range upright (the middle of the tilt axes' range), with `toolID` in
    /// ABS_MISC when given.
    mutating func enter(after: Double = 0.010, toolID: Int32? = nil) {
        var changes: [(type: UInt16, code: UInt16, value: Int32)] = [
            (EventCode.EV_ABS, EventCode.ABS_X, x), (EventCode.EV_ABS, EventCode.ABS_Y, y),
            (EventCode.EV_ABS, EventCode.ABS_DISTANCE, 30), (EventCode.EV_ABS, EventCode.ABS_TILT_X, 64),
            (EventCode.EV_ABS, EventCode.ABS_TILT_Y, 64), (EventCode.EV_KEY, EventCode.BTN_TOOL_PEN, 1),
            (EventCode.EV_MSC, EventCode.MSC_SERIAL, Self.serial)]
        if let toolID { changes.insert((EventCode.EV_ABS, EventCode.ABS_MISC, toolID), at: 5) }
        frame(changes, after: after)
    }

    mutating func hover(_ steps: Int = 5, after: Double = 0.010) {
        for _ in 0..<steps {
            x += 40
            frame([(EventCode.EV_ABS, EventCode.ABS_X, x), (EventCode.EV_ABS, EventCode.ABS_DISTANCE, 20),
                   (EventCode.EV_MSC, EventCode.MSC_SERIAL, Self.serial)], after: after)
        }
    }

    mutating func touch(after: Double = 0.010) {
        frame([(EventCode.EV_ABS, EventCode.ABS_DISTANCE, 0), (EventCode.EV_ABS, EventCode.ABS_PRESSURE, 900),
               (EventCode.EV_KEY, EventCode.BTN_TOUCH, 1)], after: after)
    }

    mutating func draw(_ steps: Int = 10, after: Double = 0.010) {
        for step in 0..<steps {
            x += 60
            y += 30
            frame([(EventCode.EV_ABS, EventCode.ABS_X, x), (EventCode.EV_ABS, EventCode.ABS_Y, y),
                   (EventCode.EV_ABS, EventCode.ABS_PRESSURE, 900 + 40 * Int32(step % 10))], after: after)
        }
    }

    mutating func lift(after: Double = 0.010) {
        frame([(EventCode.EV_ABS, EventCode.ABS_PRESSURE, 0), (EventCode.EV_KEY, EventCode.BTN_TOUCH, 0),
               (EventCode.EV_ABS, EventCode.ABS_DISTANCE, 10)], after: after)
    }

    mutating func press(_ button: UInt16, after: Double = 0.010) {
        frame([(EventCode.EV_KEY, button, 1)], after: after)
    }

    mutating func release(_ button: UInt16, after: Double = 0.010) {
        frame([(EventCode.EV_KEY, button, 0)], after: after)
    }

    mutating func leave(after: Double = 0.010) {
        frame([(EventCode.EV_KEY, EventCode.BTN_TOOL_PEN, 0)], after: after)
    }

    /// Two clicks of the first barrel button 150 ms apart: a double-tap.
    mutating func doubleClick() {
        press(EventCode.BTN_STYLUS, after: 0.05)
        release(EventCode.BTN_STYLUS, after: 0.06)
        press(EventCode.BTN_STYLUS, after: 0.09)
        release(EventCode.BTN_STYLUS, after: 0.06)
    }

    /// The second barrel button held 300 ms: a squeeze.
    mutating func squeeze() {
        press(EventCode.BTN_STYLUS2, after: 0.3)
        hover(3, after: 0.1)
        release(EventCode.BTN_STYLUS2, after: 0.1)
    }
}

/// A pen that comes into range, double-clicks its first button `doubleTaps` times and
/// squeezes `squeezes` times, then leaves: the pencil-actions scenario's pens.
func gesturePen(doubleTaps: Int = 0, squeezes: Int = 0) -> SuitePen {
    var pen = SuitePen()
    pen.enter()
    pen.hover(3)
    for _ in 0..<doubleTaps {
        pen.doubleClick()
        pen.hover(2, after: 0.3)
    }
    for _ in 0..<squeezes {
        pen.squeeze()
        pen.hover(2, after: 0.3)
    }
    pen.leave(after: 0.05)
    return pen
}

/// An AES pen (the tests' HID 4800, whose pens' eraser is a button in libwacom): it enters,
/// double-clicks its eraser button, holds it 700 ms, and leaves with it held. Its firmware
/// reports the button as the pen leaving and the eraser entering, in back-to-back frames, as
/// hid-input sends them from one report; X, Y and pressure are all the device has.
func eraserButtonPen() -> SuitePen {
    var pen = SuitePen()
    func position() -> [(type: UInt16, code: UInt16, value: Int32)] {
        [(EventCode.EV_ABS, EventCode.ABS_X, pen.x), (EventCode.EV_ABS, EventCode.ABS_Y, pen.y),
         (EventCode.EV_MSC, EventCode.MSC_SERIAL, SuitePen.serial)]
    }
    func swap(from old: UInt16, to new: UInt16, after: Double) {
        pen.frame([(EventCode.EV_KEY, old, 0), (EventCode.EV_MSC, EventCode.MSC_SERIAL, SuitePen.serial)], after: after)
        pen.frame([(EventCode.EV_KEY, new, 1)] + position(), after: 0)
    }
    func hover(_ steps: Int) {
        for _ in 0..<steps {
            pen.x += 30
            pen.frame(position(), after: 0.010)
        }
    }
    pen.x = 9_000
    pen.y = 6_000
    pen.frame([(EventCode.EV_KEY, EventCode.BTN_TOOL_PEN, 1)] + position())
    hover(3)
    // A double-click of the eraser button: pressed 60 ms, 90 ms apart.
    swap(from: EventCode.BTN_TOOL_PEN, to: EventCode.BTN_TOOL_RUBBER, after: 0.05)
    swap(from: EventCode.BTN_TOOL_RUBBER, to: EventCode.BTN_TOOL_PEN, after: 0.06)
    swap(from: EventCode.BTN_TOOL_PEN, to: EventCode.BTN_TOOL_RUBBER, after: 0.09)
    swap(from: EventCode.BTN_TOOL_RUBBER, to: EventCode.BTN_TOOL_PEN, after: 0.06)
    hover(3)
    // Held 700 ms: a squeeze under longPress.
    swap(from: EventCode.BTN_TOOL_PEN, to: EventCode.BTN_TOOL_RUBBER, after: 0.3)
    hover(2)
    pen.pause(0.68)
    swap(from: EventCode.BTN_TOOL_RUBBER, to: EventCode.BTN_TOOL_PEN, after: 0.0)
    hover(3)
    // Pressed, then the pen goes out of range with the button held.
    swap(from: EventCode.BTN_TOOL_PEN, to: EventCode.BTN_TOOL_RUBBER, after: 0.3)
    hover(2)
    pen.frame([(EventCode.EV_KEY, EventCode.BTN_TOOL_RUBBER, 0), (EventCode.EV_MSC, EventCode.MSC_SERIAL, SuitePen.serial)], after: 0.1)
    return pen
}

/// A Pro Pen 3 on a Cintiq Pro 27: it enters with its tool id (0x200), double-clicks its
/// third button, holds it 700 ms, and leaves.
func thirdButtonPen() -> SuitePen {
    var pen = SuitePen()
    pen.enter(toolID: 0x200)
    pen.hover(3)
    pen.press(EventCode.BTN_STYLUS3, after: 0.05)
    pen.release(EventCode.BTN_STYLUS3, after: 0.06)
    pen.press(EventCode.BTN_STYLUS3, after: 0.09)
    pen.release(EventCode.BTN_STYLUS3, after: 0.06)
    pen.hover(3, after: 0.05)
    pen.press(EventCode.BTN_STYLUS3, after: 0.3)
    pen.hover(2)
    pen.release(EventCode.BTN_STYLUS3, after: 0.7)
    pen.hover(2)
    pen.leave(after: 0.05)
    return pen
}

/// Every scenario's recording: file name, device name, the pen, and the device of the
/// tests' table it is (the Intuos5 pen unless said).
func scenarios() -> [(file: String, name: String, pen: SuitePen, device: TestDevice)] {
    var result: [(file: String, name: String, pen: SuitePen, device: TestDevice)] = []

    // pen-appears: hover, a stroke, a double-tap, a squeeze, leaving.
    var appears = SuitePen()
    appears.enter()
    appears.hover(5)
    appears.touch()
    appears.draw(10)
    appears.lift()
    appears.hover(3)
    appears.doubleClick()
    appears.squeeze()
    appears.leave(after: 0.05)
    result.append(("appears.evemu", "pencild Suite Pen", appears, .intuos5Pen))

    // unplug-mid-stroke: played with --hold, unplugged with the tip down.
    var midStroke = SuitePen()
    midStroke.enter()
    midStroke.hover(2)
    midStroke.touch()
    midStroke.draw(5)
    result.append(("mid-stroke.evemu", "pencild Unplugged Pen", midStroke, .intuos5Pen))

    // unplug-mid-squeeze: unplugged while the second button is held.
    var midSqueeze = SuitePen()
    midSqueeze.enter()
    midSqueeze.hover(3)
    midSqueeze.press(EventCode.BTN_STYLUS2, after: 0.05)
    midSqueeze.hover(2)
    result.append(("mid-squeeze.evemu", "pencild Squeezed Pen", midSqueeze, .intuos5Pen))

    // syn-dropped: both buttons and the tip held; pencild is stopped during the 4 s pause,
    // then 3000 frames in one burst overflow the kernel's buffer, and everything is let go.
    var flood = SuitePen()
    flood.enter()
    flood.hover(3)
    flood.touch()
    flood.draw(3)
    flood.press(EventCode.BTN_STYLUS, after: 0.02)
    flood.press(EventCode.BTN_STYLUS2, after: 0.02)
    flood.pause(4.0)
    for _ in 0..<3000 {
        flood.x = 12_000 + (flood.x + 7) % 3_000
        flood.frame([(EventCode.EV_ABS, EventCode.ABS_X, flood.x), (EventCode.EV_ABS, EventCode.ABS_PRESSURE, 700)], after: 0)
    }
    flood.release(EventCode.BTN_STYLUS, after: 0)
    flood.release(EventCode.BTN_STYLUS2, after: 0)
    flood.lift(after: 0)
    flood.hover(2, after: 0)
    result.append(("flood.evemu", "pencild Flooding Pen", flood, .intuos5Pen))

    // unreadable-device: a pen whose node udev leaves to root, then the next one.
    var shortVisit = SuitePen()
    shortVisit.enter()
    shortVisit.hover(3)
    shortVisit.leave()
    result.append(("locked.evemu", "pencild Locked Pen", shortVisit, .intuos5Pen))
    result.append(("after-locked.evemu", "pencild Next Pen", shortVisit, .intuos5Pen))

    // pencil-actions: one pen per part of the scenario.
    for (part, doubleTaps, squeezes) in [("keys", 1, 1), ("commands", 0, 2), ("focus", 1, 1), ("sigterm", 1, 0),
                                         ("sigkill", 1, 0), ("no-uinput", 1, 1), ("per-app", 1, 0)] {
        result.append(("actions-\(part).evemu", "pencild Actions Pen \(part)", gesturePen(doubleTaps: doubleTaps, squeezes: squeezes), .intuos5Pen))
    }
    // The latency benchmark's pattern: 2000 frames of drawing at 500 Hz.
    var pattern = SuitePen()
    pattern.enter()
    pattern.hover(10, after: 0.002)
    pattern.touch(after: 0.002)
    pattern.x = 2_000
    pattern.y = 2_000
    for index in 0..<2_000 {
        pattern.x += 10
        pattern.y += 5
        pattern.frame([(EventCode.EV_ABS, EventCode.ABS_X, pattern.x), (EventCode.EV_ABS, EventCode.ABS_Y, pattern.y),
                       (EventCode.EV_ABS, EventCode.ABS_PRESSURE, 800 + Int32(index * 7 % 900))], after: 0.002)
    }
    pattern.lift(after: 0.002)
    pattern.leave(after: 0.002)
    result.append(("bench-pattern.evemu", "pencild Benchmark Pen", pattern, .intuos5Pen))

    // The per-event costs' pattern: 20 strokes of 980 frames at 200 Hz.
    var long = SuitePen()
    long.enter()
    long.hover(10, after: 0.005)
    for stroke in 0..<20 {
        long.touch(after: 0.005)
        long.draw(980, after: 0.005)
        long.lift(after: 0.005)
        long.hover(5, after: 0.005)
        long.x = 3_000 + Int32(stroke) * 100
        long.y = 3_000
    }
    long.leave()
    result.append(("bench-long-pattern.evemu", "pencild Long Pattern Pen", long, .intuos5Pen))

    // A pen that hovers and goes quiet, left plugged in: the idle measurement's.
    var idle = SuitePen()
    idle.enter()
    idle.hover(3)
    result.append(("bench-idle.evemu", "pencild Idle Pen", idle, .intuos5Pen))

    // eraser-button and third-button: gestures on an AES pen's eraser button, and on a Pro
    // Pen 3's third button.
    result.append(("eraser-button.evemu", "pencild AES Pen", eraserButtonPen(), .hid4800Pen))
    result.append(("third-button.evemu", "pencild Pro Pen 3", thirdButtonPen(), .cintiqPro27Pen))
    return result
}

/// The client libraries' and the packaging checks' test pen (printed with --client-pen): it
/// comes into range, double-clicks its first barrel button (60 ms held, 60 ms apart), draws a
/// short stroke and leaves; with `squeeze`, it holds its second barrel button while it moves,
/// before it leaves. Frames 8 ms apart, from time 0.
func clientPen(squeeze: Bool) -> [InputEvent] {
    var events: [InputEvent] = []
    var time: Int64 = 0
    func frame(_ changes: [(type: UInt16, code: UInt16, value: Int32)]) {
        for change in changes { events.append(InputEvent(time: time, type: change.type, code: change.code, value: change.value)) }
        events.append(InputEvent(time: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
        time += 8_000
    }
    // Upright: the middle of the tilt axes' range.
    frame([(EventCode.EV_KEY, EventCode.BTN_TOOL_PEN, 1), (EventCode.EV_ABS, EventCode.ABS_X, 22_000),
           (EventCode.EV_ABS, EventCode.ABS_Y, 14_000), (EventCode.EV_ABS, EventCode.ABS_DISTANCE, 30),
           (EventCode.EV_ABS, EventCode.ABS_TILT_X, 64), (EventCode.EV_ABS, EventCode.ABS_TILT_Y, 64)])
    for _ in 0..<2 {
        frame([(EventCode.EV_KEY, EventCode.BTN_STYLUS, 1)])
        time += 60_000
        frame([(EventCode.EV_KEY, EventCode.BTN_STYLUS, 0)])
        time += 60_000
    }
    frame([(EventCode.EV_ABS, EventCode.ABS_PRESSURE, 900), (EventCode.EV_KEY, EventCode.BTN_TOUCH, 1),
           (EventCode.EV_ABS, EventCode.ABS_DISTANCE, 0)])
    for step in Int32(1)...6 { frame([(EventCode.EV_ABS, EventCode.ABS_X, 22_000 + step * 300)]) }
    frame([(EventCode.EV_ABS, EventCode.ABS_PRESSURE, 0), (EventCode.EV_KEY, EventCode.BTN_TOUCH, 0),
           (EventCode.EV_ABS, EventCode.ABS_DISTANCE, 20)])
    if squeeze {
        frame([(EventCode.EV_KEY, EventCode.BTN_STYLUS2, 1)])
        for step in Int32(1)...3 { frame([(EventCode.EV_ABS, EventCode.ABS_Y, 14_000 + step * 40)]) }
        frame([(EventCode.EV_KEY, EventCode.BTN_STYLUS2, 0)])
    }
    frame([(EventCode.EV_KEY, EventCode.BTN_TOOL_PEN, 0)])
    return events
}

func fail(_ message: String) -> Never {
    try? FileDescriptor(rawValue: 2).writeAll(Array("pencil-test-recordings: \(message)\n".utf8))
    exit(1)
}

let usage = "usage: pencil-test-recordings DIR | pencil-test-recordings --client-pen [--name NAME] [--squeeze]"
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--client-pen" {
    arguments.removeFirst()
    var name = "Client Test Pen"
    var squeeze = false
    while !arguments.isEmpty {
        switch arguments.removeFirst() {
        case "--squeeze": squeeze = true
        case "--name" where !arguments.isEmpty: name = arguments.removeFirst()
        default: fail(usage)
        }
    }
    var device = TestDevice.intuos5Pen.description
    device.name = name
    let text = EvemuWriter.recording(device, clientPen(squeeze: squeeze), comments: ["pencil-test-recordings: the client test pen"])
    do {
        try FileDescriptor(rawValue: 1).writeAll(Array(text.utf8))
    } catch {
        fail("cannot write the recording: \(error)")
    }
    exit(0)
}
guard arguments.count == 1, let directory = arguments.first, !directory.hasPrefix("-") else { fail(usage) }
if mkdir(directory, 0o755) != 0 && errno != EEXIST { fail("cannot make \(directory): \(Errno(rawValue: errno))") }
for (file, name, pen, testDevice) in scenarios() {
    var device = testDevice.description
    device.name = name
    let text = EvemuWriter.recording(device, pen.events, comments: ["pencil-test-recordings: \(file)"])
    let path = directory + "/" + file
    do {
        let descriptor = try FileDescriptor.open(path, [.writeOnly, .create, .truncate, .closeOnExec])
        defer { descriptor.close() }
        try descriptor.writeAll(Array(text.utf8))
    } catch {
        fail("cannot write \(path): \(error)")
    }
}
