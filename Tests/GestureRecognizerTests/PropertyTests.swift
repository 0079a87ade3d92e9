import GestureRecognizer
import PencilInput
import PencilProtocol
import PencilTestSupport
import Testing

/// Random but plausible pen use: approaches, flips, clicks and holds of both buttons, strokes,
/// short and long pauses, lost events. Biased towards button play so gestures happen often.
struct RandomPenUse {
    static let devices = [TestPens.cintiqLike, TestPens.oneButton, TestPens.noResolution, TestPens.noToolKeys]

    static func preferences(_ random: inout SplitMix64) -> Preferences {
        var result = Preferences.defaults
        result.tapButton = [.stylus, .stylus, .stylus2, .none].randomElement(using: &random)!
        let squeezes: [SqueezeButton] = result.tapButton == .stylus2
            ? [.stylus, .stylus3, .none] : [.stylus2, .longPress, .stylus3, .none]
        result.squeezeButton = squeezes.randomElement(using: &random)!
        if result.tapButton == .none, result.squeezeButton == .longPress { result.squeezeButton = .stylus2 }
        result.tapMaxDuration = Int.random(in: 100...600, using: &random)
        result.doubleTapInterval = Int.random(in: 200...800, using: &random)
        result.longPressDuration = Int.random(in: 200...900, using: &random)
        result.doubleTapSlop = Double.random(in: 0...8, using: &random)
        result.doubleTapAction = PreferredAction.allCases.randomElement(using: &random)!
        result.squeezeAction = PreferredAction.allCases.randomElement(using: &random)!
        return result
    }

    static func script(seed: UInt64, actions: Int = 160) -> (PenScript, Preferences) {
        var random = SplitMix64(seed: seed)
        let device = devices.randomElement(using: &random)!
        let prefs = preferences(&random)
        var pen = PenScript(device: device, startingAt: Int64.random(in: 0...1_000_000_000, using: &random))
        var touching = false
        for _ in 0..<actions {
            if pen.tool == nil {
                if Bool.random(using: &random) {
                    pen.approach(x: .random(in: 0...1, using: &random), y: .random(in: 0...1, using: &random),
                                 tool: Bool.random(using: &random) ? .pen : .eraser,
                                 serial: Int64.random(in: 1...3, using: &random))
                } else {
                    pen.wait(ms: .random(in: 1...300, using: &random))
                }
                touching = false
                continue
            }
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<30:
                let button: PenButton = [.stylus, .stylus, .stylus2, .stylus3].randomElement(using: &random)!
                if pen.buttons.contains(button) { pen.release(button) } else { pen.press(button) }
            case 30..<48:
                pen.wait(ms: .random(in: 1...150, using: &random))
            case 48..<54:
                pen.wait(ms: .random(in: 300...800, using: &random))
            case 54..<68:
                pen.move(byMillimetersX: .random(in: -2...2, using: &random), y: .random(in: -2...2, using: &random))
                if pen.device.absInfo[EventCode.ABS_X]?.resolution == 0 {
                    pen.move(toX: min(max(pen.x + .random(in: -0.01...0.01, using: &random), 0), 1), y: pen.y)
                }
            case 68..<72:
                pen.move(toX: .random(in: 0...1, using: &random), y: .random(in: 0...1, using: &random))
            case 72..<80:
                if touching { pen.lift() } else { pen.touchDown(pressure: .random(in: 0.1...1, using: &random)) }
                touching.toggle()
            case 80..<86:
                if Bool.random(using: &random) { pen.lift(); touching = false }
                pen.leave(releasingButtons: Bool.random(using: &random))
            case 86..<91:
                pen.flip(to: pen.tool == .pen ? .eraser : .pen, serial: Int64.random(in: 1...3, using: &random))
                touching = false
            case 91..<94:
                pen.dropEvents()
            default:
                pen.wait(ms: .random(in: 1...20, using: &random))
            }
        }
        return (pen, prefs)
    }
}

/// Runs a script, optionally waking the pipeline at random extra moments between events (a
/// host timer firing early or late at any playback speed), and returns the events and the
/// recogniser's bug count.
func run(_ pen: PenScript, _ preferences: Preferences, extraWakeups seed: UInt64? = nil) throws -> (events: [Event], bugs: Int) {
    var pipeline = try PenPipeline(description: pen.device, id: "event7", preferences: preferences)
    var output: [Event] = []
    var random = SplitMix64(seed: seed ?? 0)
    var last = pen.events.first?.time ?? 0
    pipeline.start(at: last, into: &output)
    for event in pen.events {
        if seed != nil, event.time > last {
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                last = Int64.random(in: last...event.time, using: &random)
                pipeline.advance(to: last, into: &output)
            }
        }
        pipeline.feed(event, into: &output)
        last = max(last, event.time)
    }
    pipeline.finish(into: &output)
    return (output, pipeline.recognizer.bugCount)
}

@Suite struct PropertyTests {
    static let seeds: [UInt64] = Array(1...400)

    @Test func everySqueezeThatBeginsEndsOrIsCancelledExactlyOnce() throws {
        var squeezes = 0
        for seed in Self.seeds {
            let (pen, prefs) = RandomPenUse.script(seed: seed)
            let (events, bugs) = try run(pen, prefs)
            #expect(bugs == 0, "seed \(seed)")
            var open: Tool??
            for event in events where event.type == .squeeze {
                switch event.phase {
                case .began?:
                    #expect(open == nil, "seed \(seed): began inside a squeeze at \(event.time)")
                    open = .some(event.tool)
                    squeezes += 1
                case .changed?:
                    #expect(open != nil, "seed \(seed): changed outside a squeeze at \(event.time)")
                case .ended?, .cancelled?:
                    #expect(open != nil, "seed \(seed): \(event.summary) without began at \(event.time)")
                    #expect(open.flatMap { $0 } == event.tool, "seed \(seed): closed by another tool")
                    #expect((event.phase == .ended) == (event.action == prefs.squeezeAction), "seed \(seed)")
                    open = nil
                case nil:
                    Issue.record("seed \(seed): squeeze without phase")
                }
            }
            #expect(open == nil, "seed \(seed): a squeeze left open")
        }
        #expect(squeezes > 200, "the streams should squeeze often enough to mean something")
    }

    @Test func noGestureComesFromAToolOutOfProximity() throws {
        var doubleTaps = 0
        for seed in Self.seeds {
            let (pen, prefs) = RandomPenUse.script(seed: seed)
            let (events, _) = try run(pen, prefs)
            var inProximity: Tool?
            var lastTime = Int64.min
            for event in events {
                #expect(event.time >= lastTime, "seed \(seed): time went back at \(event.time)")
                lastTime = event.time
                switch event.type {
                case .proximityIn: inProximity = event.tool
                case .proximityOut: inProximity = nil
                case .doubleTap, .squeeze:
                    let tool = try #require(event.tool, "seed \(seed)")
                    #expect(inProximity.map { $0.isSameTool(as: tool) } == true, "seed \(seed): \(event.summary) at \(event.time)")
                    if event.type == .doubleTap {
                        doubleTaps += 1
                        #expect(event.action == prefs.doubleTapAction, "seed \(seed)")
                    }
                default: break
                }
            }
        }
        #expect(doubleTaps > 50, "the streams should double-tap often enough to mean something")
    }

    @Test func theSameInputGivesTheSameOutput() throws {
        for seed in Self.seeds.prefix(100) {
            let (pen, prefs) = RandomPenUse.script(seed: seed)
            #expect(try run(pen, prefs).events == run(pen, prefs).events, "seed \(seed)")
        }
    }

    @Test func whenTheHostWakesUpDoesNotMatter() throws {
        for seed in Self.seeds.prefix(200) {
            let (pen, prefs) = RandomPenUse.script(seed: seed)
            let plain = try run(pen, prefs).events
            let wakeful = try run(pen, prefs, extraWakeups: seed &* 31 &+ 7).events
            #expect(plain == wakeful, "seed \(seed)")
        }
    }
}
