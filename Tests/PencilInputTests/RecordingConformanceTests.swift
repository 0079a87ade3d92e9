import Testing
import PencilDevices
import PencilInput
import PencilSystem
import PencilProtocol
import PencilTestSupport

/// The contract (docs/gestures.md) on real recordings, with default preferences.
@Suite("Conformance on real recordings", .requires(.recordings))
struct RecordingConformanceTests {
    static func events(_ file: String, desc: String? = nil) throws -> [Event] {
        let recording = try EvemuRecording.load(path: SharedRecordings.path(file), descriptionPath: desc.map(SharedRecordings.path))
        return PenPipeline.penEvents(of: recording)
    }

    @Test("Cintiq 22HDT: 21 proximities, 33 strokes, 23 button presses, 54 hovers")
    func cintiq22HDTCounts() throws {
        let events = try Self.events("Wacom Cintiq 22HDT Pen.events")
        func count(_ type: EventType, _ phase: Phase? = nil) -> Int {
            events.filter { $0.type == type && (phase == nil || $0.phase == phase) }.count
        }
        #expect(count(.proximityIn) == 21)
        #expect(count(.proximityOut) == 21)
        #expect(count(.tipDown) == 33)
        #expect(count(.tipUp) == 33)
        #expect(count(.buttonDown) == 23)
        #expect(count(.buttonUp) == 23)
        #expect(count(.hover, .began) == 54)
        #expect(count(.hover, .ended) == 54)
    }

    @Test("every recording: deviceAdded first, deviceRemoved last, times never go back, poses in range, every opener closed",
          arguments: SharedRecordings.all.map { $0.events })
    func invariants(file: String) throws {
        let desc = SharedRecordings.all.first { $0.events == file }?.desc
        let events = try Self.events(file, desc: desc)
        try #require(events.count >= 2)
        #expect(events.first?.type == .deviceAdded)
        #expect(events.first?.deviceInfo?.id == "replay0")
        #expect(events.last?.type == .deviceRemoved)
        #expect(events.filter { $0.type == .deviceAdded || $0.type == .deviceRemoved }.count == 2)
        #expect(events.allSatisfy { $0.device == "replay0" })
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time }, "time went back")

        var inProximity = false
        var tipDown = false
        var hovering = false
        var buttons = Set<PenButton>()
        var problems: [String] = []
        for event in events {
            if let pose = event.pose {
                if !(0...1).contains(pose.x) || !(0...1).contains(pose.y) || !(0...1).contains(pose.pressure) {
                    problems.append("pose out of range at \(event.time): \(pose)")
                }
            }
            switch event.type {
            case .proximityIn:
                if inProximity { problems.append("proximityIn twice at \(event.time)") }
                inProximity = true
            case .proximityOut:
                if !inProximity { problems.append("proximityOut without proximityIn at \(event.time)") }
                if tipDown || hovering || !buttons.isEmpty { problems.append("proximityOut with something open at \(event.time)") }
                inProximity = false
            case .tipDown:
                if tipDown || !inProximity { problems.append("tipDown out of place at \(event.time)") }
                tipDown = true
            case .tipUp:
                if !tipDown { problems.append("tipUp without tipDown at \(event.time)") }
                tipDown = false
            case .motion:
                if !tipDown { problems.append("motion with the tip up at \(event.time)") }
            case .hover:
                switch event.phase {
                case .began:
                    if hovering || tipDown || !inProximity { problems.append("hover began out of place at \(event.time)") }
                    hovering = true
                case .changed:
                    if !hovering { problems.append("hover changed while not hovering at \(event.time)") }
                case .ended:
                    if !hovering { problems.append("hover ended while not hovering at \(event.time)") }
                    hovering = false
                default:
                    problems.append("hover \(String(describing: event.phase)) at \(event.time)")
                }
            case .buttonDown:
                if let button = event.button, buttons.insert(button).inserted, inProximity { break }
                problems.append("buttonDown out of place at \(event.time)")
            case .buttonUp:
                if let button = event.button, buttons.remove(button) != nil { break }
                problems.append("buttonUp without buttonDown at \(event.time)")
            default:
                break
            }
        }
        #expect(!inProximity && !tipDown && !hovering && buttons.isEmpty, "left open at the end")
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    @Test("a replay gives the same events at real-time speed, at double speed and as fast as possible")
    func sameEventsAtAnySpeed() throws {
        let recording = try EvemuRecording.load(path: SharedRecordings.path("Wacom Cintiq 22HDT Pen.events"))
        let fastest = PlayerHarness.play(recording, speed: .asFastAsPossible)
        #expect(fastest == PenPipeline.penEvents(of: recording))
        #expect(PlayerHarness.play(recording, speed: .realTime) == fastest)
        #expect(PlayerHarness.play(recording, speed: PlaybackSpeed(factor: 2)!) == fastest)
    }
}

/// Drives a RecordingPlayer as the daemon's loop would: a simulated host clock jumps to each
/// deadline (the player's next event, or a tracker timer mapped to host time).
enum PlayerHarness {
    static func play(_ recording: EvemuRecording, speed: PlaybackSpeed, limit: Int = 100) -> [Event] {
        let hostStart = HostTime(microseconds: 7_000_000)
        var player = RecordingPlayer(recording, speed: speed, startingAt: hostStart)
        var pipeline = PenPipeline(description: player.description, id: "replay0")
        var events: [Event] = []
        pipeline.start(at: recording.events.first?.time ?? 0, into: &events)
        var now = hostStart
        var status = SourceStatus.more
        while status != .finished {
            status = player.read(at: now, limit: limit) { item in
                guard case .event(let event) = item else { return }
                pipeline.feed(event, into: &events)
            }
            if status == .drained, let due = player.nextDueTime {
                #expect(due > now, "a drained player must be due later")
                now = due
            }
        }
        pipeline.finish(into: &events)
        return events
    }
}
