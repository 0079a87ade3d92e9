import Testing
import PencilInput
import PencilSystem
import PencilTestSupport

@Suite("Recording player")
struct RecordingPlayerTests {
    /// A pen touching down 10 ms after it comes in, then lifting 1 s later, and the device
    /// falling silent.
    static let recording = EvemuRecording(description: TestDevice.isdv4E6Pen.description, events: [
        InputEvent(time: 5_000_000, type: EventCode.EV_KEY, code: EventCode.BTN_TOOL_PEN, value: 1),
        InputEvent(time: 5_000_000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0),
        InputEvent(time: 5_010_000, type: EventCode.EV_ABS, code: EventCode.ABS_PRESSURE, value: 200),
        InputEvent(time: 5_010_000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0),
        InputEvent(time: 6_010_000, type: EventCode.EV_ABS, code: EventCode.ABS_PRESSURE, value: 0),
        InputEvent(time: 6_010_000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0),
        // A frame with nothing in it, long after: the forced proximity-out fires before it.
        InputEvent(time: 7_000_000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0),
    ])

    static func times(_ player: inout RecordingPlayer, at host: HostTime, limit: Int = 100) -> ([Int64], SourceStatus) {
        var times: [Int64] = []
        let status = player.read(at: host, limit: limit) { item in
            if case .event(let event) = item { times.append(event.time) }
        }
        return (times, status)
    }

    @Test("at real time the first event is due at the start, the rest after their recorded delays")
    func realTime() {
        var player = RecordingPlayer(Self.recording, speed: .realTime, startingAt: host(100))
        #expect(player.nextDueTime == host(100))
        #expect(Self.times(&player, at: host(100)) == ([5_000_000, 5_000_000], .drained))
        #expect(player.nextDueTime == host(100 + 10_000))
        // A millisecond early: nothing is due.
        #expect(Self.times(&player, at: host(100 + 9_000)) == ([], .drained))
        #expect(Self.times(&player, at: host(100 + 10_000)) == ([5_010_000, 5_010_000], .drained))
        #expect(player.nextDueTime == host(100 + 1_010_000))
        #expect(Self.times(&player, at: host(100 + 1_500_000)) == ([6_010_000, 6_010_000], .drained))
        #expect(Self.times(&player, at: host(100 + 2_000_000)) == ([7_000_000], .finished))
        #expect(player.nextDueTime == nil && player.isFinished)
    }

    @Test("at double speed delays are halved; events keep their recorded times")
    func doubleSpeed() {
        var player = RecordingPlayer(Self.recording, speed: PlaybackSpeed(factor: 2)!, startingAt: host(0))
        _ = Self.times(&player, at: host(0))
        #expect(player.nextDueTime == host(5_000))
        _ = Self.times(&player, at: host(5_000))
        #expect(player.nextDueTime == host(505_000))
        #expect(player.hostTime(for: device(5_500_000)) == host(250_000))
    }

    @Test("as fast as possible everything is due at once, but a read hands out at most its limit")
    func fastestWithLimit() {
        var player = RecordingPlayer(Self.recording, speed: .asFastAsPossible, startingAt: host(42))
        #expect(player.nextDueTime == host(42))
        #expect(Self.times(&player, at: host(42), limit: 4) == ([5_000_000, 5_000_000, 5_010_000, 5_010_000], .more))
        #expect(player.remainingCount == 3)
        #expect(player.nextDueTime == host(42))
        #expect(Self.times(&player, at: host(42), limit: 4) == ([6_010_000, 6_010_000, 7_000_000], .finished))
    }

    @Test("a recorded timer maps to host time: the forced proximity-out 500 ms after the last frame")
    func timerOnHostClock() {
        let player = RecordingPlayer(Self.recording, speed: PlaybackSpeed(factor: 0.5)!, startingAt: host(1_000))
        #expect(player.hostTime(for: device(6_010_000 + 500_000)) == host(1_000 + 3_020_000))
        // Times before the start (never produced by a recording) are due at once.
        #expect(player.hostTime(for: device(0)) == host(1_000))
    }

    @Test("only positive speeds exist", arguments: [0.0, -1.0, Double.nan])
    func invalidSpeed(factor: Double) {
        #expect(PlaybackSpeed(factor: factor) == nil)
    }

    @Test("an empty recording is finished from the start")
    func empty() {
        var player = RecordingPlayer(EvemuRecording(description: Self.recording.description, events: []),
                                     speed: .realTime, startingAt: host(0))
        #expect(player.nextDueTime == nil)
        #expect(Self.times(&player, at: host(0)) == ([], .finished))
    }

    @Test("the player's events, timers included, match the offline replay at any speed")
    func matchesOfflineReplay() {
        // The pen lifts and then hovers still: the forced proximity-out fires 500 ms later.
        let offline = PenPipeline.penEvents(of: Self.recording)
        #expect(offline.contains { $0.type == .proximityOut && $0.time == 6_510_000 })
        #expect(PlayerHarness.play(Self.recording, speed: .realTime, limit: 1) == offline)
        #expect(PlayerHarness.play(Self.recording, speed: .asFastAsPossible, limit: 3) == offline)
    }
}

/// Times in microseconds on each clock, for reading the expectations above.
private func host(_ microseconds: Int64) -> HostTime { HostTime(microseconds: microseconds) }
private func device(_ microseconds: Int64) -> DeviceTime { DeviceTime(microseconds: microseconds) }
