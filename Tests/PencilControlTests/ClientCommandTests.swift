import PencilClient
import GestureRecognizer
import Testing
@testable import PencilControl
import PencilInput
import PencilProtocol
import PencilSystem
import PencilTestSupport

/// Runs `script`'s events through the tracker and a gesture stage with default preferences,
/// as the daemon would report them to one client.
private func reportedEvents(_ script: PenScript, id: String = "event7") throws -> [Event] {
    try GesturePipeline.events(of: script.events, description: script.device, id: id)
}

@Suite("pencilctl watch: what the screen shows")
struct WatchScreenTests {
    let size = Terminal.Size(rows: 30, columns: 80)

    @Test("a stroke across the middle leaves ink, and the pen is drawn where it touches")
    func strokeOnCanvas() throws {
        var pen = PenScript(device: TestDevice.intuos5Pen.description)
        pen.approach(x: 0.2, y: 0.5)
        pen.touchDown(pressure: 0.9)
        pen.move(toX: 0.8, y: 0.5, overMs: 200, steps: 20)

        // Up to the last motion: the end of the script would close the device out.
        let events = try reportedEvents(pen)
        let lastMotion = try #require(events.lastIndex { $0.type == .motion })
        var model = WatchModel(socketPath: "/run/pencild/pencild.sock")
        for event in events[...lastMotion] { model.apply(event) }
        let lines = WatchScreen.render(model, size: size)
        #expect(lines.count <= size.rows)
        #expect(lines.allSatisfy { $0.count <= size.columns })
        #expect(lines[1].contains("event7"))
        let canvas = lines.filter { $0.hasPrefix("|") }
        let inked = canvas.filter { $0.contains("#") }
        #expect(inked.count == 1, "a horizontal stroke at heavy pressure inks one row")
        #expect(canvas.filter { $0.contains("@") }.count == 1, "the touching pen is drawn once")
        #expect(lines.contains { $0.hasPrefix("tool") && $0.contains("touching") })
        #expect(lines.contains { $0.hasPrefix("pressure") && $0.contains("0.90") })
    }

    @Test("a double-tap shows with its action, and the tool leaving clears the tool line")
    func doubleTapAndLeave() throws {
        var pen = PenScript(device: TestDevice.intuos5Pen.description)
        pen.approach()
        pen.click(.stylus)
        pen.wait(ms: 120)
        pen.click(.stylus)
        pen.wait(ms: 50)
        pen.leave()

        var model = WatchModel(socketPath: "test.sock")
        for event in try reportedEvents(pen) { model.apply(event) }
        let lines = WatchScreen.render(model, size: size)
        #expect(lines.contains { $0.hasPrefix("gesture") && $0.contains("doubleTap → switchEraser") })
        #expect(lines.contains { $0 == "tool      out of proximity" })
        #expect(!lines.contains { $0.contains("@") || $0.contains("O|") })
    }

    @Test("a pen switched to its eraser through its mirror says so in the heading, and no longer once switched back")
    func tipReportedAsEraser() throws {
        var pen = PenScript(device: TestDevice.intuos5Pen.description)
        pen.approach()
        var model = WatchModel(socketPath: "test.sock")
        // The pen stays attached: the end of the script would close the device out.
        for event in try reportedEvents(pen) where event.type != .deviceRemoved { model.apply(event) }
        #expect(!WatchScreen.render(model, size: size)[1].contains("eraser"))
        let id = try #require(model.device)
        var info = try #require(model.devices[id])
        info.mirror = "event9"
        for tip in [ToolType.eraser, .pen] {
            info.tipReportedAs = tip
            model.apply(Event(type: .deviceChanged, time: 1, device: id, deviceInfo: info))
            #expect(WatchScreen.render(model, size: size)[1].hasSuffix("(tip: eraser in every app)") == (tip == .eraser))
        }
    }

    @Test("with pencild's demo pen, its gestures are a key away and the screen says so; with a pen of one's own, the buttons")
    func demoPenKeys() throws {
        var pen = PenScript(device: TestDevice.intuos5Pen.description)
        pen.approach()
        var demo = WatchModel(socketPath: "test.sock")
        // Up to the close-out at the script's end: the pen stays attached.
        for event in try reportedEvents(pen, id: "demo0") where event.type != .deviceRemoved { demo.apply(event) }
        let demoLines = WatchScreen.render(demo, size: size)
        #expect(demo.demoPen == "demo0")
        #expect(demoLines[0] == "pencilctl watch  (q quits, c clears, d double-tap, s squeeze)  test.sock")
        #expect(demoLines.contains("gesture   none yet: press d and the demo pen double-taps, s and it squeezes"))
        // The control: a pen of one's own makes its gestures with its buttons.
        var own = WatchModel(socketPath: "test.sock")
        for event in try reportedEvents(pen) where event.type != .deviceRemoved { own.apply(event) }
        let ownLines = WatchScreen.render(own, size: size)
        #expect(own.demoPen == nil)
        #expect(ownLines[0] == "pencilctl watch  (q quits, c clears)  test.sock")
        #expect(ownLines.contains("gesture   none yet: double-click the first barrel button, or hold the second"))
        #expect(WatchCommand.play(.doubleTap, on: nil, path: "test.sock").contains("this pencild has none (pencild --demo)"))
    }

    @Test("the device going away is shown as gone")
    func deviceRemoved() throws {
        var pen = PenScript(device: TestDevice.cintiqPro16Pen.description)
        pen.approach()
        pen.unplug()
        var model = WatchModel(socketPath: "test.sock")
        for event in try reportedEvents(pen) { model.apply(event) }
        #expect(model.devices.isEmpty)
        #expect(WatchScreen.render(model, size: size)[1] == "event7  \(pen.device.name)  (gone: waiting for a pen)")
        #expect(WatchScreen.render(WatchModel(socketPath: "test.sock"), size: size)[1].hasPrefix("no pen device yet"))
    }

    @Test("bars fill in proportion, from the middle for signed ranges")
    func bars() {
        #expect(WatchScreen.bar(0.5, from: 0, to: 1, width: 12) == "[#####.....]")
        #expect(WatchScreen.bar(2, from: 0, to: 1, width: 6) == "[####]")
        #expect(WatchScreen.bar(45, from: -90, to: 90, width: 10) == "[....|##.]")
        #expect(WatchScreen.bar(-90, from: -90, to: 90, width: 10) == "[####|...]")
    }

    @Test("the canvas keeps a tablet's proportions")
    func canvasProportions() {
        let wide = DeviceInfo(id: "event7", name: "wide", bus: 3, vendor: 0, product: 0, direct: false,
                              widthMillimeters: 200, heightMillimeters: 100)
        let (width, height) = WatchScreen.canvasSize(columns: 78, rows: 40, info: wide)
        #expect(width == 78 && height == 20)
        let (narrowWidth, narrowHeight) = WatchScreen.canvasSize(columns: 78, rows: 10, info: wide)
        #expect(narrowHeight == 10 && narrowWidth == 40)
    }

    @Test("the stroke history is bounded")
    func boundedMarks() {
        var model = WatchModel(socketPath: "test.sock")
        let tool = Tool(type: .pen)
        model.apply(Event(type: .proximityIn, time: 0, device: "event7", tool: tool, pose: Pose()))
        model.apply(Event(type: .tipDown, time: 1, device: "event7", tool: tool, pose: Pose()))
        for step in 0..<(WatchModel.maximumMarks * 2) {
            model.apply(Event(type: .motion, time: Int64(step + 2), device: "event7", tool: tool, pose: Pose()))
        }
        #expect(model.marks.count <= WatchModel.maximumMarks)
        #expect(model.marks.count > WatchModel.maximumMarks / 2)
    }
}

@Suite("pencilctl monitor, prefs, and the socket")
struct ClientOptionsTests {
    @Test("monitor's readable lines: time since the first event, device, type and phase, then details")
    func monitorLines() {
        var formatter = EventFormatter()
        var pose = Pose()
        pose.x = 0.25
        pose.y = 0.5
        pose.zOffset = 0.3
        pose.tiltX = -12.5
        pose.tiltY = 30
        let tool = Tool(type: .pen, serial: 0x8a2f1b)
        let first = formatter.line(for: Event(type: .hover, time: 10_000_000, device: "event7", tool: tool, pose: pose, phase: .began))
        #expect(first == " +0.000000s  event7    hover began     pen#8a2f1b  x 0.250 y 0.500 p 0.000 z 0.30 tilt -12.5/+30.0")
        let tap = formatter.line(for: Event(type: .doubleTap, time: 12_345_678, device: "event7", tool: tool, pose: pose, action: .showColorPalette))
        #expect(tap.hasPrefix(" +2.345678s  event7    doubleTap       pen#8a2f1b  → showColorPalette  x 0.250"))
    }

    @Test("monitor's options", arguments: [
        (["--json", "--device", "event7", "--events", "doubleTap, squeeze"], true),
        (["--device=event3", "--device", "replay0"], true),
        (["--focus", "--json"], true),
        (["--events", "doubletap"], false),
        (["--device"], false),
        (["extra"], false),
    ])
    func monitorOptions(arguments: [String], valid: Bool) {
        let result = MonitorCommand.parse(arguments)
        if case .success(let options) = result {
            #expect(valid)
            if arguments.first == "--json" {
                #expect(options.json && options.devices == ["event7"] && options.events == ["doubleTap", "squeeze"])
            } else if arguments.first == "--focus" {
                #expect(options.focus && options.json && options.devices == nil)
            } else {
                #expect(options.devices == ["event3", "replay0"])
            }
        } else {
            #expect(!valid)
        }
    }

    @Test("prefs set turns KEY=VALUE into the preference's JSON kind")
    func prefsSet() throws {
        let request = try PrefsCommand.parse(["set", "tapMaxDuration=250", "doubleTapSlop=2.5", "squeezeButton=longPress"]).get()
        let expected = JSONValue.object([("tapMaxDuration", .int(250)), ("doubleTapSlop", .double(2.5)), ("squeezeButton", .string("longPress"))])
        #expect(request == .set(expected))
        #expect(try PrefsCommand.parse(["get", "--json"]).get() == .get(json: true))
    }

    @Test("prefs set takes the yes-or-no preferences and eraserButton by name")
    func prefsSetFlags() throws {
        let request = try PrefsCommand.parse(["set", "withholdGestureClicks=true", "prefersHoverToolPreview=off", "eraserButton=button"]).get()
        #expect(request == .set(.object([("withholdGestureClicks", .bool(true)), ("prefersHoverToolPreview", .bool(false)),
                                         ("eraserButton", .string("button"))])))
    }

    @Test("prefs get's table: every value in one column, after the longest name")
    func prefsTable() {
        let lines = PrefsCommand.table(of: .defaults).split(separator: "\n")
        #expect(lines.count == PrefsCommand.keys.count)
        let columns = Set(lines.map { line in line.distance(from: line.startIndex, to: line.firstIndex(of: " ")!) +
                          line.drop { $0 != " " }.prefix { $0 == " " }.count })
        #expect(columns == ["prefersPencilOnlyDrawing".count + 2])
    }

    @Test("prefs set refuses what is not a preference or not of its kind", arguments: [
        ["set", "tapMaxDuration=fast"], ["set", "doubleTapSlop=wide"], ["set", "colour=red"], ["set", "tapButton"], ["set"], ["reset"],
        ["set", "withholdGestureClicks=maybe"],
    ])
    func prefsRefused(arguments: [String]) {
        if case .success = PrefsCommand.parse(arguments) { Issue.record("accepted \(arguments)") }
    }

    @Test("where clients look for the daemon")
    func socketPath() {
        let none: (String) -> String? = { _ in nil }
        #expect(DaemonSocket.path(environment: none, exists: { _ in true }) == "/run/pencild/pencild.sock")
        let user: (String) -> String? = { $0 == "XDG_RUNTIME_DIR" ? "/run/user/1000" : nil }
        #expect(DaemonSocket.path(environment: user, exists: { $0 == "/run/user/1000/pencild.sock" }) == "/run/user/1000/pencild.sock")
        #expect(DaemonSocket.path(environment: user, exists: { _ in false }) == "/run/pencild/pencild.sock")
        let explicit: (String) -> String? = { $0 == "PENCILD_SOCKET" ? "/tmp/p.sock" : "/run/user/1000" }
        #expect(DaemonSocket.path(environment: explicit, exists: { _ in true }) == "/tmp/p.sock")
    }

    @Test("an absent daemon is explained with the path and how to start it")
    func absentDaemon() {
        let text = DaemonSocket.explain(.connect(path: "/run/pencild/pencild.sock", .noSuchFile), path: "/run/pencild/pencild.sock").text
        #expect(text.contains("/run/pencild/pencild.sock"))
        #expect(text.contains("systemctl start pencild.socket"))
        #expect(text.contains("PENCILD_SOCKET"))
    }

    @Test("the commands are reachable through the dispatcher")
    func dispatch() {
        for name in ["devices", "monitor", "watch", "prefs", "record"] {
            #expect(PencilControl.commands.contains { $0.name == name })
            #expect(PencilControl.usageText.contains("pencilctl \(name)"))
        }
        let io = CommandIO.capturing()
        #expect(PencilControl.run(arguments: ["prefs", "set", "bogus=1"], io: io) == ExitCode.usage)
        #expect(io.errors.capturedText.contains("unknown preference \"bogus\""))
    }
}
