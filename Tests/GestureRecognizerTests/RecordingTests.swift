import GestureRecognizer
import PencilDevices
import PencilInput
import PencilProtocol
import PencilTestSupport
import Testing

/// The real recordings (PENCILD_RECORDINGS, a directory holding them), with default
/// preferences, by the contract: what a person did on real hardware gives the gestures the
/// contract promises. Skipped, with a note, when the recordings are absent outside CI; a
/// failure under CI.
enum Recordings {
    static func events(_ file: String, desc: String? = nil) throws -> [Event] {
        let recording = try EvemuRecording.load(path: SharedRecordings.path(file), descriptionPath: desc.map(SharedRecordings.path))
        return try PenPipeline.events(of: recording.events, description: recording.description)
    }
}

/// How many of each event a recording must give, read from docs/gestures.md and the recordings'
/// README (what was done on the hardware), not from the code's output.
struct ExpectedCounts: CustomStringConvertible, Sendable {
    var file: String
    var desc: String?
    var proximityIn: Int
    var tipDown: Int
    var buttonDown: Int
    var hoverBegan: Int
    var doubleTap: Int
    var squeezeEnded: Int
    var description: String { file }

    /// The contract's counts, with default preferences (double tap on stylus, squeeze on stylus2).
    ///
    /// - Intuos4 stylus-move: the pen comes into range and hovers, never touching: one
    ///   proximityIn, one hover began.
    /// - Intuos4 stylus-drag and stylus-tap, UC-LOGIC WP5540U: one touch inside one proximity:
    ///   hover began on entering, tipDown, and hover began again after the tip lifts (docs/gestures.md,
    ///   Hover: hovering begins whenever a tool is in proximity with the tip up).
    /// - Genius EasyPen i405X: hover only (no pressure, no BTN_TOUCH), one proximity.
    /// - Dell Canvas: three proximities, two touches, a BTN_STYLUS and a BTN_STYLUS2 press; one
    ///   stylus press is not a double tap (a double tap needs two taps), the stylus2 press is a
    ///   squeeze, ended when released; hover begins on each entry and after each lift: 3 + 2.
    /// - Cintiq 22HDT: 21 proximities (13 of the pen, 5 of the eraser, 2 of the airbrush, 1 of
    ///   the pencil), 33 touches, 16 stylus and 7 stylus2 clicks (23 buttonDown); one pair of
    ///   stylus clicks is a double tap, every stylus2 click a squeeze (7 ended); hover begins on
    ///   each entry and after each lift: 21 + 33.
    static let contract: [ExpectedCounts] = [
        ExpectedCounts(file: "Wacom Intuos4 6x9.stylus-move.events", desc: "Wacom Intuos4 6x9 Pen.desc",
                       proximityIn: 1, tipDown: 0, buttonDown: 0, hoverBegan: 1, doubleTap: 0, squeezeEnded: 0),
        ExpectedCounts(file: "Wacom Intuos4 6x9.stylus-drag.events", desc: "Wacom Intuos4 6x9 Pen.desc",
                       proximityIn: 1, tipDown: 1, buttonDown: 0, hoverBegan: 2, doubleTap: 0, squeezeEnded: 0),
        ExpectedCounts(file: "Wacom Intuos4 6x9.stylus-tap.events", desc: "Wacom Intuos4 6x9 Pen.desc",
                       proximityIn: 1, tipDown: 1, buttonDown: 0, hoverBegan: 2, doubleTap: 0, squeezeEnded: 0),
        ExpectedCounts(file: "UC-LOGIC Tablet WP5540U Pen.events",
                       proximityIn: 1, tipDown: 1, buttonDown: 0, hoverBegan: 2, doubleTap: 0, squeezeEnded: 0),
        ExpectedCounts(file: "Genius EasyPen i405X.events", desc: "Genius EasyPen i405X.desc",
                       proximityIn: 1, tipDown: 0, buttonDown: 0, hoverBegan: 1, doubleTap: 0, squeezeEnded: 0),
        ExpectedCounts(file: "dell_canvas_pen.evemu",
                       proximityIn: 3, tipDown: 2, buttonDown: 2, hoverBegan: 5, doubleTap: 0, squeezeEnded: 1),
        ExpectedCounts(file: "Wacom Cintiq 22HDT Pen.events",
                       proximityIn: 21, tipDown: 33, buttonDown: 23, hoverBegan: 54, doubleTap: 1, squeezeEnded: 7),
    ]
}

@Suite("The shared recordings give the contract's counts", .requires(.recordings))
struct RecordingCountTests {
    @Test("every shared recording has its expected counts", arguments: ExpectedCounts.contract)
    func counts(_ expected: ExpectedCounts) throws {
        let events = try Recordings.events(expected.file, desc: expected.desc)
        func count(_ type: EventType, _ phase: Phase? = nil) -> Int {
            events.filter { $0.type == type && (phase == nil || $0.phase == phase) }.count
        }
        #expect(count(.proximityIn) == expected.proximityIn)
        #expect(count(.tipDown) == expected.tipDown)
        #expect(count(.buttonDown) == expected.buttonDown)
        #expect(count(.hover, .began) == expected.hoverBegan)
        #expect(count(.doubleTap) == expected.doubleTap)
        #expect(count(.squeeze, .ended) == expected.squeezeEnded)
    }

    @Test("the table covers every shared recording")
    func everyRecordingIsCounted() {
        #expect(Set(ExpectedCounts.contract.map(\.file)) == Set(SharedRecordings.all.map(\.events)))
    }
}

@Suite struct RecordingTests {
    @Test(.requires(.recordings))
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

    @Test(.requires(.recordings))
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
    @Test(.requires(.recordings), arguments: [Preferences.defaults, preferences { $0.squeezeButton = .longPress }])
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
