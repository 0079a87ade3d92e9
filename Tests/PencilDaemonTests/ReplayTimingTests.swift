import Foundation
@testable import PencilDaemon
import PencilInput
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink

/// Replays on the daemon's service in virtual time: when playback starts, how fast it goes,
/// what a late subscriber is told first. Time passes only when the test says, so "nothing
/// plays for a minute" and "each event arrives at its recorded offset" are exact.
@Suite("Replays, in virtual time")
struct ReplayTimingTests {
    /// The pen session of the end-to-end tests, written as a recording in its own folder.
    private func writeSession(strokeMs: Int = 300) throws -> (path: String, directory: String) {
        let directory = RunningDaemon.makeTemporaryDirectory()
        let session = penSession(strokeMs: strokeMs)
        let path = directory + "/session.events"
        try EvemuWriter.recording(session.device, session.events).write(toFile: path, atomically: true, encoding: .utf8)
        return (path, directory)
    }

    private static func hasRemoval(_ client: EmbeddedClient) -> Bool {
        client.eventValues.contains { $0["type"] == .string("deviceRemoved") }
    }

    /// Advances in `step`s until every client has the replay's deviceRemoved (at most an hour).
    private func playToTheEnd(_ daemon: EmbeddedDaemon, _ clients: [EmbeddedClient], step: Int64) {
        var waited: Int64 = 0
        while !clients.allSatisfy(Self.hasRemoval), waited < 3_600_000_000 {
            daemon.advance(by: step)
            waited += step
        }
    }

    @Test("at --speed 1 each event arrives at its recorded offset, and --speed max gives the same events, timers included")
    func realTimeAndFullSpeedAgree() throws {
        let (recording, directory) = try writeSession()
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let realTime = try EmbeddedDaemon(replays: [.init(path: recording)], speed: 1)
        let watcher = try realTime.client()
        watcher.call("org.pencild.Pen.Monitor", more: true)
        // Each event with the virtual time it arrived at, in 1 ms steps.
        var arrivals: [(event: JSONValue, at: HostTime)] = []
        let step: Int64 = 1_000
        let start = realTime.now
        while !Self.hasRemoval(watcher), realTime.now - start < 60_000_000 {
            realTime.advance(by: step)
            for event in watcher.eventValues.dropFirst(arrivals.count) { arrivals.append((event, realTime.now)) }
        }
        let received = arrivals.map(\.event)
        #expect(received.count > 50)
        // Offsets from the first pen event (proximityIn): never early, never more than a step late.
        let first = try #require(arrivals.first { $0.event["type"] == .string("proximityIn") })
        let firstTime = try #require(first.event["time"]?.intValue)
        for (event, at) in arrivals where event["device"] == .string("replay0") && event["type"] != .string("deviceRemoved") {
            guard let time = event["time"]?.intValue else { continue }
            let recordedOffset = Int64(time - firstTime)
            let arrivalOffset = at - first.at
            #expect(arrivalOffset >= recordedOffset - step && arrivalOffset <= recordedOffset + step,
                    "\(event["type"]?.stringValue ?? "") recorded at +\(recordedOffset) µs arrived at +\(arrivalOffset) µs")
        }
        // The session lasts about 2.6 s of its own time.
        let duration = (arrivals.last?.at ?? start) - start
        #expect(duration > 2_000_000 && duration < 4_000_000, "\(duration) µs")

        let fullSpeed = try EmbeddedDaemon(replays: [.init(path: recording)], speed: nil)
        let reader = try fullSpeed.client()
        reader.call("org.pencild.Pen.Monitor", more: true)
        fullSpeed.advance(by: 0)
        #expect(Self.hasRemoval(reader), "a full-speed replay takes no time at all")
        #expect(firstDifference(reader.eventValues, received) == nil, "\(firstDifference(reader.eventValues, received) ?? "")")
        // The forced proximity-out fired on the recording's clock at both speeds (500 ms after
        // the last frame of the still hover), and both match pencilctl.
        #expect(received.filter { $0["type"] == .string("proximityOut") }.count >= 2)
        let expected = try pencilctlEvents(recording)
        #expect(firstDifference(received, expected) == nil, "\(firstDifference(received, expected) ?? "")")
    }

    @Test("playback starts when the Nth Monitor subscribes, not before, however long that takes")
    func waitsForMonitors() throws {
        let (recording, directory) = try writeSession()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = try EmbeddedDaemon(replays: [.init(path: recording)], speed: nil, waitForMonitors: 2)
        // The device is there from the start, whether or not anyone watches.
        let lister = try daemon.client(pid: 1)
        lister.call("org.pencild.Pen.ListDevices")
        #expect(lister.messages.last?["parameters"]?["devices"]?.arrayValue?.first?["id"] == .string("replay0"))
        let first = try daemon.client(pid: 2)
        first.call("org.pencild.Pen.Monitor", more: true)
        daemon.advance(by: 3_600_000_000)
        #expect(first.eventValues.map { $0["type"] } == [.string("deviceAdded")], "the replay played before the second Monitor")
        let second = try daemon.client(pid: 3)
        second.call("org.pencild.Pen.Monitor", more: true)
        playToTheEnd(daemon, [first, second], step: 1_000)
        let expected = try pencilctlEvents(recording)
        #expect(firstDifference(first.eventValues, expected) == nil, "\(firstDifference(first.eventValues, expected) ?? "")")
        #expect(firstDifference(second.eventValues, expected) == nil, "\(firstDifference(second.eventValues, expected) ?? "")")
    }

    @Test("a Monitor that subscribes mid-stroke first catches up: deviceAdded, proximityIn, tipDown, then the live stream")
    func catchUpMidStroke() throws {
        let (recording, directory) = try writeSession(strokeMs: 1_500)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = try EmbeddedDaemon(replays: [.init(path: recording)], speed: 1)
        let early = try daemon.client(pid: 1)
        early.call("org.pencild.Pen.Monitor", more: true)
        // Into the stroke: 20 motion events after the tip went down.
        var waited = 0
        while early.eventValues.filter({ $0["type"] == .string("motion") }).count < 20, waited < 10_000 {
            daemon.advance(by: 1_000)
            waited += 1
        }
        let before = try #require(early.eventValues.last)
        let earlyCount = early.eventValues.count
        let late = try daemon.client(pid: 2)
        late.call("org.pencild.Pen.Monitor", more: true)
        playToTheEnd(daemon, [early, late], step: 1_000)
        let lateEvents = late.eventValues
        #expect(Array(types(lateEvents).prefix(3)) == ["deviceAdded", "proximityIn", "tipDown"], "\(types(lateEvents).prefix(6))")
        // The catch-up carries the tool in proximity and the current pose; what follows is
        // exactly the early client's stream from that moment on.
        #expect(firstDifference(Array(lateEvents.dropFirst(3)), Array(early.eventValues.dropFirst(earlyCount))) == nil)
        #expect(lateEvents[1]["tool"] == early.eventValues.first { $0["type"] == .string("proximityIn") }?["tool"])
        #expect(lateEvents[2]["pose"] == before["pose"], "the catch-up's tipDown carries the pose of the last event before it")
    }

    @Test("two users with different preferences get different gestures from the same pen")
    func twoUsersTwoGestureStreams() throws {
        let (recording, directory) = try writeSession()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let daemon = try EmbeddedDaemon(replays: [.init(path: recording)], speed: nil, waitForMonitors: 2)
        let mine = try daemon.client(uid: 1000, pid: 1)
        let theirs = try daemon.client(uid: 1001, pid: 2)
        theirs.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([
            ("doubleTapAction", .string("showColorPalette")), ("squeezeButton", .string("longPress")),
        ]))]))
        daemon.advance(by: 1_000_000) // past the coalesced write
        #expect(theirs.errors.isEmpty, "\(theirs.messages)")
        mine.call("org.pencild.Pen.Monitor", more: true)
        theirs.call("org.pencild.Pen.Monitor", more: true)
        playToTheEnd(daemon, [mine, theirs], step: 1_000)
        let myGestures = mine.eventValues.filter { $0["type"] == .string("doubleTap") || $0["type"] == .string("squeeze") }
        let theirGestures = theirs.eventValues.filter { $0["type"] == .string("doubleTap") || $0["type"] == .string("squeeze") }
        #expect(myGestures.first { $0["type"] == .string("doubleTap") }?["action"] == .string("switchEraser"))
        #expect(theirGestures.first { $0["type"] == .string("doubleTap") }?["action"] == .string("showColorPalette"))
        // The pen's own events are the same for both; only the gestures differ.
        let isGesture = { (event: JSONValue) in event["type"] == .string("doubleTap") || event["type"] == .string("squeeze") }
        #expect(mine.eventValues.filter { !isGesture($0) } == theirs.eventValues.filter { !isGesture($0) })
        #expect(myGestures != theirGestures)
        let expected = try pencilctlEvents(recording, preferences: #"{"doubleTapAction":"showColorPalette","squeezeButton":"longPress"}"#)
        #expect(firstDifference(theirs.eventValues, expected) == nil, "\(firstDifference(theirs.eventValues, expected) ?? "")")
    }

    @Test("a client that sends half a message and stalls is dropped at the request timeout, not before")
    func stalledRequest() throws {
        var limits = Limits()
        limits.requestTimeout = 300_000
        let daemon = try EmbeddedDaemon(limits: limits)
        let client = try daemon.client()
        client.send(Array("{\"method\":\"org.pencild".utf8))
        daemon.advance(by: 299_999)
        #expect(!client.closed)
        daemon.advance(by: 1)
        #expect(client.closed)
        #expect(daemon.log.contains { $0.hasPrefix("<4>") && $0.contains("did not finish it") }, "\(daemon.log)")
    }
}
