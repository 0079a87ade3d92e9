@testable import PencilDaemon
import Foundation
import PencilInput
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing

/// docs/protocol.md, "Gestures on request": the demo pen makes no gesture by itself, and plays
/// one when asked, as the caller makes it under their preferences. In virtual time.
@Suite("PlayGesture: gestures on request on the demo pen")
struct PlayGestureTests {
    /// One round of the demo pen's loop (about 4 s), and a little more.
    static let loop: Int64 = 6_000_000

    static func monitor(_ daemon: EmbeddedDaemon, uid: UInt32 = 1000) throws -> EmbeddedClient {
        let client = try daemon.client(uid: uid, pid: 100 + Int32(uid))
        client.call("org.pencild.Pen.Monitor", more: true)
        return client
    }

    static func play(_ client: EmbeddedClient, _ gesture: String, device: String? = nil) {
        var parameters: [(String, JSONValue)] = [("gesture", .string(gesture))]
        if let device { parameters.append(("device", .string(device))) }
        client.call("org.pencild.Pen.PlayGesture", .object(parameters))
    }

    static func gestures(_ client: EmbeddedClient, from: Int = 0) -> [Event] {
        client.events.dropFirst(from).filter { $0.type == .doubleTap || $0.type == .squeeze }
    }

    @Test("the demo pen draws and hovers but makes no gesture by itself, loop after loop")
    func noGestureByItself() throws {
        let daemon = try EmbeddedDaemon(demo: true)
        let reader = try Self.monitor(daemon)
        daemon.advance(by: 3 * Self.loop)
        let types = Set(reader.events.map(\.type))
        #expect(types.isSuperset(of: [.proximityIn, .tipDown, .motion, .tipUp, .hover, .proximityOut]), "\(types)")
        #expect(!types.contains(.doubleTap) && !types.contains(.squeeze) && !types.contains(.buttonDown), "\(types)")
    }

    @Test("a double-tap on request: one doubleTap with the caller's action, within half a second, on every reader's stream")
    func doubleTap() throws {
        let daemon = try EmbeddedDaemon(demo: true)
        let started = daemon.now
        let reader = try Self.monitor(daemon)
        let other = try Self.monitor(daemon, uid: 1001)
        let caller = try daemon.client(uid: 1000)
        caller.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([("doubleTapAction", .string("showColorPalette"))]))]))
        daemon.advance(by: 1_300_000)
        let asked = daemon.now
        Self.play(caller, "doubleTap")
        #expect(caller.messages.last?["parameters"]?["device"] == .string("demo0"), "\(caller.messages)")
        daemon.advance(by: Self.loop)
        let seen = Self.gestures(reader)
        #expect(seen.map(\.type) == [.doubleTap], "\(seen)")
        #expect(seen.first?.action == .showColorPalette)
        // The demo pen's clock runs with the host's from its first event (deviceAdded's time).
        let deviceStart = try #require(reader.events.first?.time)
        let tapTime = try #require(seen.first?.time)
        let sinceStart: Int64 = tapTime - deviceStart
        let tapped: HostTime = started + sinceStart
        #expect(tapped > asked && tapped - asked <= 500_000, "\(tapped - asked) µs after the request")
        // Another user reads the pen too, and sees the gesture under their own preferences.
        #expect(Self.gestures(other).map(\.type) == [.doubleTap])
        #expect(Self.gestures(other).first?.action == .switchEraser)
    }

    @Test("the shortest durations the contract allows: clicks shorter than the pen's frame interval still make one double-tap")
    func shortestDurations() throws {
        let daemon = try EmbeddedDaemon(demo: true)
        let reader = try Self.monitor(daemon)
        let caller = try daemon.client(uid: 1000)
        caller.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([
            ("tapMaxDuration", .int(1)), ("doubleTapInterval", .int(1)), ("doubleTapSlop", .double(0)),
            ("squeezeButton", .string("longPress")), ("longPressDuration", .int(1)),
        ]))]))
        #expect(caller.errors.isEmpty, "\(caller.messages)")
        daemon.advance(by: 300_000)
        Self.play(caller, "doubleTap")
        daemon.advance(by: Self.loop)
        #expect(Self.gestures(reader).map(\.type) == [.doubleTap], "\(Self.gestures(reader))")
    }

    /// Lets the demo pen move in 5 ms steps until `ready` holds for what `reader` has seen (1,000
    /// steps at most, counted in `steps`), then has `caller` ask for a double-tap: the types of
    /// the events of the second that follows.
    static func doubleTap(once ready: ([Event]) -> Bool, _ reader: EmbeddedClient, _ caller: EmbeddedClient,
                          _ daemon: EmbeddedDaemon, steps: inout Int) -> [EventType] {
        let limit = steps + 1_000
        while !ready(reader.events), steps < limit {
            daemon.advance(by: 5_000)
            steps += 1
        }
        let before = reader.events.count
        play(caller, "doubleTap")
        daemon.advance(by: 1_000_000)
        return reader.events.dropFirst(before).map(\.type)
    }

    @Test("asked mid-stroke, the pen lifts its tip first; asked while it is out of range, it comes into range first")
    func fromWhereThePenIs() throws {
        let daemon = try EmbeddedDaemon(demo: true)
        let reader = try Self.monitor(daemon)
        let caller = try daemon.client(uid: 1000)
        var steps = 0
        let afterDown = Self.doubleTap(once: { $0.contains { $0.type == .tipDown } }, reader, caller, daemon, steps: &steps)
        let tap = try #require(afterDown.firstIndex(of: .doubleTap), "\(afterDown)")
        #expect(afterDown[..<tap].contains(.tipUp) && !afterDown[..<tap].contains(.tipDown), "\(afterDown)")
        // The pen leaves after the gesture; asked then, it comes back for the next one.
        let afterOut = Self.doubleTap(once: { $0.last?.type == .proximityOut }, reader, caller, daemon, steps: &steps)
        let second = try #require(afterOut.firstIndex(of: .doubleTap), "\(afterOut)")
        #expect(afterOut[..<second].first == .proximityIn, "\(afterOut)")
        #expect(Self.gestures(reader).count == 2)
    }

    @Test("gestures asked together play one after the other; a fifth while four wait is GestureNotPlayable")
    func queued() throws {
        let daemon = try EmbeddedDaemon(demo: true)
        let reader = try Self.monitor(daemon)
        let caller = try daemon.client(uid: 1000)
        daemon.advance(by: 200_000)
        for gesture in ["doubleTap", "squeeze", "doubleTap", "doubleTap", "squeeze"] { Self.play(caller, gesture) }
        #expect(caller.errors == [PenInterface.ErrorName.gestureNotPlayable.qualifiedName], "\(caller.messages)")
        #expect(caller.messages.last?["parameters"]?["reason"] == .string("4 gestures are waiting already"))
        daemon.advance(by: Self.loop)
        let seen = Self.gestures(reader).filter { $0.type == .doubleTap || $0.phase == .ended }.map(\.type)
        #expect(seen == [.doubleTap, .squeeze, .doubleTap, .doubleTap], "\(seen)")
        // Once they have played, the pen takes more.
        Self.play(caller, "squeeze")
        daemon.advance(by: Self.loop)
        #expect(caller.errors.count == 1)
        #expect(Self.gestures(reader).last?.phase == .ended)
    }

    @Test("what cannot be played is refused with its reason, beside what can")
    func refusals() throws {
        let daemon = try EmbeddedDaemon(demo: true)
        let caller = try daemon.client(uid: 1000)
        Self.play(caller, "tripleTap")
        #expect(caller.errors == ["org.varlink.service.InvalidParameter"])
        caller.call("org.pencild.Pen.PlayGesture", .object([("gesture", .string("doubleTap")), ("device", .int(0))]))
        #expect(caller.errors == ["org.varlink.service.InvalidParameter", "org.varlink.service.InvalidParameter"])
        #expect(caller.messages.last?["parameters"]?["parameter"] == .string("device"))
        Self.play(caller, "doubleTap", device: "event9")
        #expect(caller.errors.last == PenInterface.ErrorName.noSuchDevice.qualifiedName)
        Self.play(caller, "doubleTap", device: "demo0")
        #expect(caller.errors.count == 3 && caller.messages.last?["parameters"]?["device"] == .string("demo0"))
        // The caller's preferences: tapButton none switches the double-tap off; eraser is a
        // button the demo pen lacks.
        caller.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([("tapButton", .string("none")), ("squeezeButton", .string("stylus2"))]))]))
        Self.play(caller, "doubleTap")
        #expect(caller.messages.last?["parameters"]?["reason"] == .string("your tapButton is none: the gesture is switched off"), "\(caller.messages.last!)")
        Self.play(caller, "squeeze")
        #expect(caller.messages.last?["parameters"]?["device"] == .string("demo0"), "the squeeze is not switched off")
        // (A second change within a quarter of a second is written, and answered, after it.)
        caller.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([("tapButton", .string("eraser"))]))]))
        daemon.advance(by: 300_000)
        Self.play(caller, "doubleTap")
        #expect(caller.messages.last?["parameters"]?["reason"] == .string("your tapButton is eraser, a button the device does not have (the demo pen has stylus, stylus2, stylus3)"))
    }

    @Test("only the demo pen plays gestures: a replay is refused, and a pencild without a demo pen says how to get one")
    func onlyTheDemoPen() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = penSession()
        let path = directory + "/session.events"
        try EvemuWriter.recording(session.device, session.events).write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try EmbeddedDaemon(replays: [Configuration.Replay(path: path)])
        let caller = try daemon.client(uid: 1000)
        Self.play(caller, "doubleTap", device: "replay0")
        #expect(caller.messages.last?["parameters"]?["reason"] == .string("replay0 is not a demo pen: only pencild's demo pen plays gestures on request"))
        Self.play(caller, "doubleTap")
        #expect(caller.messages.last?["parameters"]?["reason"] == .string("pencild has no demo pen: it has one when started with --demo"))
        #expect(caller.errors == Array(repeating: PenInterface.ErrorName.gestureNotPlayable.qualifiedName, count: 2))
    }

    @Test("a squeeze on request: began, then ended with the caller's action; under longPress, a long press of tapButton")
    func squeeze() throws {
        for squeezeButton in ["stylus2", "longPress"] {
            let daemon = try EmbeddedDaemon(demo: true)
            let reader = try Self.monitor(daemon)
            let caller = try daemon.client(uid: 1000)
            caller.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([
                ("squeezeButton", .string(squeezeButton)), ("squeezeAction", .string("switchPrevious")), ("longPressDuration", .int(50)),
            ]))]))
            daemon.advance(by: 500_000)
            Self.play(caller, "squeeze")
            daemon.advance(by: Self.loop)
            let seen = Self.gestures(reader)
            #expect(seen.first?.phase == .began && seen.last?.phase == .ended && seen.last?.action == .switchPrevious, "\(squeezeButton): \(seen)")
            #expect(seen.filter { $0.phase == .began }.count == 1 && !seen.contains { $0.type == .doubleTap }, "\(squeezeButton): \(seen)")
        }
    }
}
