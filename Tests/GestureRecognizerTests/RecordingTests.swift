import GestureRecognizer
import PencilInput
import PencilProtocol
import PencilTestSupport
import Testing

/// The real recordings (PENCILD_RECORDINGS, a directory holding them), with default
/// preferences, by the contract: what a person did on real hardware gives the gestures the
/// contract promises. Skipped, with a note, when the recordings are absent.
enum Recordings {
    static func events(_ file: String) throws -> [Event] {
        let recording = try EvemuRecording.load(path: SharedRecordings.path(file))
        return try PenPipeline.events(of: recording.events, description: recording.description)
    }
}

@Suite struct RecordingTests {
    @Test(.enabled(if: SharedRecordings.available))
    func theCintiqRecordingHasOneDoubleTapAndSevenSqueezes() throws {
        let events = try Recordings.events("Wacom Cintiq 22HDT Pen.events")
        let doubleTaps = events.filter { $0.type == .doubleTap }
        let squeezes = events.filter { $0.type == .squeeze }
        #expect(doubleTaps.count == 1)
        #expect(doubleTaps.allSatisfy { $0.action == .switchEraser })
        #expect(squeezes.filter { $0.phase == .began }.count == 7)
        #expect(squeezes.filter { $0.phase == .ended }.count == 7)
        #expect(squeezes.filter { $0.phase == .cancelled }.count == 0)
        #expect(squeezes.filter { $0.phase == .ended }.allSatisfy { $0.action == .showContextualPalette })
    }

    @Test(.enabled(if: SharedRecordings.available))
    func theDellCanvasRecordingHasOneSqueezeAndNoDoubleTap() throws {
        let events = try Recordings.events("dell_canvas_pen.evemu")
        #expect(events.filter { $0.type == .doubleTap }.count == 0)
        #expect(events.filter { $0.type == .squeeze && $0.phase == .began }.count == 1)
        #expect(events.filter { $0.type == .squeeze && $0.phase == .ended }.count == 1)
    }
}

@Suite struct RecordingConsistencyTests {
    /// Every shared recording, under default and under long-press preferences, keeps the
    /// invariants: each began closed once, gestures only from the tool in proximity, no bug.
    @Test(.enabled(if: SharedRecordings.available), arguments: [Preferences.defaults, preferences { $0.squeezeButton = .longPress }])
    func everyRecordingKeepsTheInvariants(preferences: Preferences) throws {
        for (file, desc) in SharedRecordings.all {
            let recording = try EvemuRecording.load(path: SharedRecordings.path(file), descriptionPath: desc.map(SharedRecordings.path))
            var pipeline = try PenPipeline(description: recording.description, id: "replay0", preferences: preferences)
            var events: [Event] = []
            pipeline.start(at: recording.events.first?.time ?? 0, into: &events)
            for event in recording.events { pipeline.feed(event, into: &events) }
            pipeline.finish(into: &events)
            #expect(pipeline.recognizer.bugCount == 0, "\(file)")
            var open = false
            var inProximity: Tool?
            for event in events {
                switch event.type {
                case .proximityIn: inProximity = event.tool
                case .proximityOut: inProximity = nil
                case .doubleTap:
                    #expect(inProximity != nil && event.tool.map { inProximity!.isSameTool(as: $0) } == true, "\(file)")
                case .squeeze:
                    #expect(inProximity != nil, "\(file)")
                    #expect(open == (event.phase != .began), "\(file): \(event.summary) at \(event.time)")
                    open = event.phase == .began || event.phase == .changed
                default: break
                }
            }
            #expect(!open, "\(file): a squeeze left open")
        }
    }
}
