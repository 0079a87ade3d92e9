@testable import PencilDaemon
import Foundation
import PencilInput
import PencilProtocol
import PencilSystem
import PencilTestDevices
import PencilTestSupport
import Testing

/// docs/gestures.md, "The pen switches tool through its mirror", in the daemon, in virtual time:
/// a replay routed as a mirror (`--mirror-replays`) for seat0's deciding user, whose app in front
/// acts on a double-tap itself (Krita with its plugin) or leaves it to the pen.
@Suite("One performer per gesture, in virtual time")
struct ToolSwitchTests {
    /// The deciding user of a user-mode pencild: the user it runs as.
    static let user = ProcessIdentity.userID

    static func daemon() throws -> (EmbeddedDaemon, String) {
        let directory = RunningDaemon.makeTemporaryDirectory()
        let session = penSession()
        let path = directory + "/session.events"
        try EvemuWriter.recording(session.device, session.events).write(toFile: path, atomically: true, encoding: .utf8)
        return (try EmbeddedDaemon(replays: [Configuration.Replay(path: path)], mirrorsReplays: true, access: TestAccess(allowed: [user])),
                directory)
    }

    static func monitor(_ client: EmbeddedClient) {
        client.call("org.pencild.Pen.Monitor", .object([("events", .array([.string("doubleTap"), .string("deviceChanged")]))]), more: true)
    }

    @Test("no app holds the focus: the pen switches to its eraser, the double-tap says focus pen, and a deviceChanged says eraser")
    func thePenPerformsIt() throws {
        let (daemon, directory) = try Self.daemon()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let app = try daemon.client(uid: Self.user, pid: 100)
        Self.monitor(app)
        daemon.advance(by: 8_000_000)
        let taps = app.events.filter { $0.type == .doubleTap }
        #expect(taps.count == 1 && taps.allSatisfy { $0.focus == .pen }, "\(taps)")
        let changes = app.events.filter { $0.type == .deviceChanged }
        #expect(changes.map { $0.deviceInfo?.tipReportedAs } == [.eraser], "\(changes)")
    }

    @Test("an app in front (Krita with its plugin) acts itself: focus this, and the pen stays the pen")
    func theAppInFrontPerformsIt() throws {
        let (daemon, directory) = try Self.daemon()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let krita = try daemon.client(uid: Self.user, pid: 100)
        krita.call("org.pencild.Pen.SetFocus", .object([("focused", .bool(true))]))
        Self.monitor(krita)
        let other = try daemon.client(uid: Self.user, pid: 200)
        Self.monitor(other)
        daemon.advance(by: 8_000_000)
        let taps = krita.events.filter { $0.type == .doubleTap }
        #expect(taps.count == 1 && taps.allSatisfy { $0.focus == .this }, "\(taps)")
        #expect(other.events.filter { $0.type == .doubleTap }.allSatisfy { $0.focus == .other })
        #expect(!krita.events.contains { $0.type == .deviceChanged }, "the mirror switched too: \(krita.events)")
    }
}

/// docs/gestures.md, "The pen switches tool through its mirror", case 8: the switch lasts across
/// new preferences of the same deciding user, and ends with another user or no mirror.
@Suite("The tool switch and the mirror's owner")
struct ToolSwitchOwnerTests {
    /// A pen mirrored for uid 1000, hovering, double-tapped, gone: switched to its eraser.
    static func switchedByUser1000() throws -> PenPipeline<UserGestureStages> {
        var pen = PenScript(device: TestDevice.intuos5Pen.description)
        pen.approach()
        for _ in 0..<2 {
            pen.wait(ms: 20)
            pen.click(.stylus, holdingMs: 60)
        }
        pen.wait(ms: 20)
        pen.leave()
        let tracker = PenTracker(description: pen.device, id: "event7")
        var pipeline = PenPipeline(tracker: tracker, stage: UserGestureStages())
        try pipeline.stage.setMirror(device: tracker.deviceInfo, identity: .unknown, preferences: .defaults, owner: 1000)
        var output = UserEvents()
        pipeline.start(at: pen.events.first?.time ?? 0, into: &output)
        for event in pen.events { pipeline.feed(event, into: &output) }
        return pipeline
    }

    @Test("new preferences of the same user keep the switch; mirrorSwitchesTool turned off ends it")
    func theSwitchFollowsItsOwner() throws {
        var pipeline = try Self.switchedByUser1000()
        let device = pipeline.tracker.deviceInfo
        #expect(pipeline.stage.mirrorReportsEraser)
        var slower = Preferences.defaults
        slower.doubleTapInterval = 600
        try pipeline.stage.setMirror(device: device, identity: .unknown, preferences: slower, owner: 1000)
        #expect(pipeline.stage.mirrorReportsEraser, "the same user's new preferences ended the switch")
        var off = slower
        off.mirrorSwitchesTool = false
        try pipeline.stage.setMirror(device: device, identity: .unknown, preferences: off, owner: 1000)
        #expect(!pipeline.stage.mirrorReportsEraser, "mirrorSwitchesTool off kept the switch")
        try pipeline.stage.setMirror(device: device, identity: .unknown, preferences: slower, owner: 1000)
        #expect(!pipeline.stage.mirrorReportsEraser)
    }

    @Test("another deciding user's mirror, or one after the mirror was let go, starts with the tip as itself")
    func anotherUserEndsIt() throws {
        var pipeline = try Self.switchedByUser1000()
        let device = pipeline.tracker.deviceInfo
        #expect(pipeline.stage.mirrorReportsEraser, "the positive side: the double-tap switched")
        try pipeline.stage.setMirror(device: device, identity: .unknown, preferences: .defaults, owner: 1001)
        #expect(!pipeline.stage.mirrorReportsEraser)
        try pipeline.stage.setMirror(device: device, identity: .unknown, preferences: nil, owner: nil)
        try pipeline.stage.setMirror(device: device, identity: .unknown, preferences: .defaults, owner: 1001)
        #expect(!pipeline.stage.mirrorReportsEraser)
    }
}
