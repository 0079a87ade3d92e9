@testable import PencilDaemon
import Foundation
import PencilInput
import PencilProtocol
import PencilSystem
import PencilTestDevices
import PencilTestSupport
import Testing

/// docs/gestures.md, "The pen switches tool through its mirror", case 10, and protocol.md, "The
/// tip's tool on request": the system palette's Pen and Eraser.
@Suite struct SetTipToolTests {
    /// The mirror's tool keys in `events`, as words: "pen out", "eraser in".
    static func tools(_ events: [InputEvent]) -> [String] {
        events.compactMap { event in
            guard event.type == EventCode.EV_KEY else { return nil }
            switch event.code {
            case EventCode.BTN_TOOL_PEN: return "pen \(event.value != 0 ? "in" : "out")"
            case EventCode.BTN_TOOL_RUBBER: return "eraser \(event.value != 0 ? "in" : "out")"
            default: return nil
            }
        }
    }

    /// A pen mirrored for uid 1000 under `preferences`, fed `script`'s events.
    static func pipeline(_ script: PenScript, _ preferences: Preferences = .defaults) throws -> PenPipeline<UserGestureStages> {
        let tracker = PenTracker(description: script.device, id: "event7")
        var pipeline = PenPipeline(tracker: tracker, stage: UserGestureStages())
        try pipeline.stage.setMirror(device: tracker.deviceInfo, identity: .unknown, preferences: preferences, owner: 1000)
        var output = UserEvents()
        pipeline.start(at: script.events.first?.time ?? 0, into: &output)
        for event in script.events { pipeline.feed(event, into: &output) }
        return pipeline
    }

    @Test("while the pen hovers, Eraser switches at once, Eraser again changes nothing, and Pen switches back")
    func hoveringSwitchesAtOnce() throws {
        var pen = PenScript(device: TestDevice.intuos5Pen.description)
        pen.approach()
        var pipeline = try Self.pipeline(pen)
        var output = UserEvents()
        #expect(pipeline.stage.setMirrorTipTool(eraser: true, at: 1_500_000, into: &output))
        #expect(Self.tools(output.mirror) == ["pen out", "eraser in"], "\(output.mirror)")
        #expect(pipeline.stage.mirrorReportsEraser)
        output.mirror.removeAll()
        #expect(pipeline.stage.setMirrorTipTool(eraser: true, at: 1_510_000, into: &output))
        #expect(output.mirror.isEmpty, "asking for the tool in use wrote a switch")
        #expect(pipeline.stage.setMirrorTipTool(eraser: false, at: 1_520_000, into: &output))
        #expect(Self.tools(output.mirror) == ["eraser out", "pen in"])
        #expect(!pipeline.stage.mirrorReportsEraser)
    }

    @Test("with the tip down the switch waits for it to lift; with mirrorSwitchesTool off there is none")
    func aTipDownWaits() throws {
        var pen = PenScript(device: TestDevice.intuos5Pen.description)
        pen.approach()
        pen.touchDown()
        var pipeline = try Self.pipeline(pen)
        var output = UserEvents()
        #expect(pipeline.stage.setMirrorTipTool(eraser: true, at: 1_500_000, into: &output))
        #expect(output.mirror.isEmpty && !pipeline.stage.mirrorReportsEraser, "written under a tip that is down")
        let fed = pen.events.count
        pen.wait(ms: 20)
        pen.lift()
        for event in pen.events[fed...] { pipeline.feed(event, into: &output) }
        #expect(Self.tools(output.mirror).suffix(2) == ["pen out", "eraser in"], "\(Self.tools(output.mirror))")
        #expect(pipeline.stage.mirrorReportsEraser)

        var off = Preferences.defaults
        off.mirrorSwitchesTool = false
        var hovering = PenScript(device: TestDevice.intuos5Pen.description)
        hovering.approach()
        var unswitched = try Self.pipeline(hovering, off)
        var none = UserEvents()
        #expect(!unswitched.stage.setMirrorTipTool(eraser: true, at: 1_500_000, into: &none))
        #expect(none.mirror.isEmpty && !unswitched.stage.mirrorReportsEraser)
    }

    /// The daemon: a replay routed as a mirror for its deciding user, the user it runs as.
    static func daemon(mirrored: Bool) throws -> (EmbeddedDaemon, String) {
        let directory = RunningDaemon.makeTemporaryDirectory()
        var pen = PenScript(device: TestDevice.intuos5Pen.description)
        pen.approach()
        pen.leave()
        let path = directory + "/pen.events"
        try EvemuWriter.recording(pen.device, pen.events).write(toFile: path, atomically: true, encoding: .utf8)
        let user = ProcessIdentity.userID
        return (try EmbeddedDaemon(replays: [Configuration.Replay(path: path)], mirrorsReplays: mirrored,
                                   access: TestAccess(allowed: [user, user &+ 1])), directory)
    }

    static func reply(_ client: EmbeddedClient) -> JSONValue? { client.messages.last }

    @Test("the deciding user switches the tip: the reply and every monitor say eraser; the checks refuse in their order")
    func theCallAndItsChecks() throws {
        let (daemon, directory) = try Self.daemon(mirrored: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let user = ProcessIdentity.userID
        let watcher = try daemon.client(uid: user, pid: 100)
        watcher.call("org.pencild.Pen.Monitor", .object([("events", .array([.string("deviceChanged")]))]), more: true)
        let palette = try daemon.client(uid: user, pid: 200)
        palette.call("org.pencild.Pen.SetTipTool", .object([("tool", .string("eraser"))]))
        #expect(Self.reply(palette)?["parameters"]?["device"]?.stringValue == "replay0", "\(palette.messages)")
        #expect(Self.reply(palette)?["parameters"]?["tipReportedAs"]?.stringValue == "eraser")
        #expect(watcher.events.filter { $0.type == .deviceChanged }.map { $0.deviceInfo?.tipReportedAs } == [.eraser])
        palette.call("org.pencild.Pen.SetTipTool", .object([("tool", .string("pen")), ("device", .string("replay0"))]))
        #expect(Self.reply(palette)?["parameters"]?["tipReportedAs"]?.stringValue == "pen")

        palette.call("org.pencild.Pen.SetTipTool", .object([("tool", .string("brush"))]))
        #expect(Self.reply(palette)?["error"]?.stringValue == "org.varlink.service.InvalidParameter")
        #expect(Self.reply(palette)?["parameters"]?["parameter"]?.stringValue == "tool")
        palette.call("org.pencild.Pen.SetTipTool", .object([("tool", .string("eraser")), ("device", .string("event99"))]))
        #expect(Self.reply(palette)?["error"]?.stringValue == "org.pencild.Pen.NoSuchDevice")
        let stranger = try daemon.client(uid: user &+ 1, pid: 300)
        stranger.call("org.pencild.Pen.SetTipTool", .object([("tool", .string("eraser")), ("device", .string("replay0"))]))
        #expect(Self.reply(stranger)?["error"]?.stringValue == "org.pencild.Pen.PermissionDenied", "\(stranger.messages)")
        #expect(watcher.events.filter { $0.type == .deviceChanged }.map { $0.deviceInfo?.tipReportedAs } == [.eraser, .pen],
                "the refused calls switched it")
    }

    @Test("a pen without a mirror cannot be switched, and says why")
    func withoutAMirror() throws {
        let (daemon, directory) = try Self.daemon(mirrored: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let palette = try daemon.client(uid: ProcessIdentity.userID, pid: 200)
        palette.call("org.pencild.Pen.SetTipTool", .object([("tool", .string("eraser"))]))
        #expect(Self.reply(palette)?["error"]?.stringValue == "org.pencild.Pen.ToolNotSwitchable")
        #expect(Self.reply(palette)?["parameters"]?["reason"]?.stringValue == "no pen you read has a mirror")
        palette.call("org.pencild.Pen.SetTipTool", .object([("tool", .string("eraser")), ("device", .string("replay0"))]))
        #expect(Self.reply(palette)?["parameters"]?["reason"]?.stringValue?.hasPrefix("replay0 has no mirror") == true)
    }
}
