@testable import GestureRecognizer
@testable import PencilBenchmarks
import PencilProtocol
import Testing

/// An input a state cannot receive is reported and the state is kept (libinput's
/// log_tap_bug). The recogniser never derives such inputs from frames, so the machines are
/// driven directly here.
@Suite struct BugReportTests {
    let settings = GestureSettings(preferences: .defaults, device: FrameHarness.twoButtons)
    let context = GestureContext(time: 42, device: "event7", tool: FrameHarness.pen, pose: Pose())

    /// A machine given `inputs` one after the other, with what it made and what it logged.
    struct Driven<Machine: GestureMachine> {
        var machine = Machine()
        var log = GestureLog()
        var events: [Event] = []

        init(_ inputs: [GestureInput], _ context: GestureContext, _ settings: GestureSettings) {
            for input in inputs { machine.handle(input, context, settings, into: &events, log: &log) }
        }
    }

    @Test func aReleaseWithoutAPressIsABugAndChangesNothing() {
        let driven = Driven<DoubleTapMachine>([.release], context, settings)
        #expect(driven.log.bugs == [GestureBug(machine: "tap", state: "idle", input: "release", time: 42)])
        #expect(driven.machine.state.name == "idle")
        #expect(driven.events.isEmpty)
        #expect(driven.machine.taken == 0 && driven.log.mirrorMeanings.isEmpty)
    }

    @Test func aSecondPressWhileSqueezingIsABugAndTheSqueezeGoesOn() {
        var driven = Driven<SqueezeMachine>([.press, .press, .timeout], context, settings)
        #expect(driven.log.bugs.map(\.input) == ["press", "timeout"])
        #expect(driven.log.bugs.allSatisfy { $0.machine == "squeeze" && $0.state == "squeezing" })
        driven.machine.handle(.release, context, settings, into: &driven.events, log: &driven.log)
        #expect(driven.events.map(\.summary) == ["squeeze began", "squeeze ended showContextualPalette"])
    }

    @Test func aTimeoutWithoutLongPressIsABug() {
        let driven = Driven<DoubleTapMachine>([.press, .timeout], context, settings)
        #expect(driven.log.bugs.map(\.state) == ["firstPress"])
        #expect(driven.events.isEmpty)
    }

    @Test func bugsAreCountedButOnlyTheFirstFewKept() {
        let driven = Driven<DoubleTapMachine>(Array(repeating: .motion, count: 100), context, settings)
        #expect(driven.log.bugCount == 100)
        #expect(driven.log.bugs.count == GestureLog.keptBugs)
        #expect(driven.log.bugs.first?.description == "gesture bug: tap machine in state idle got motion at 42 µs")
    }
}

/// The benchmark's workload recognises what it claims to, so its figures mean something.
@Suite struct BenchmarkWorkloadTests {
    @Test func eachCycleHasADoubleTapAndASqueeze() {
        var twoButtons = GestureRecognizerBenchmark.Workload(device: GestureRecognizerBenchmark.device(buttons: [.stylus, .stylus2]))
        let cycle = twoButtons.frames.count
        twoButtons.run(frames: cycle * 3)
        // A double-tap, and a squeeze: began, 16 changed, ended.
        #expect(twoButtons.gestureCount == 3 * 19)
        #expect(twoButtons.recognizer.bugCount == 0)

        var oneButton = GestureRecognizerBenchmark.Workload(device: GestureRecognizerBenchmark.device(buttons: [.stylus]))
        oneButton.run(frames: cycle)
        // A double-tap, and a long press held 600 ms in 5 ms frames: began at 500 ms, changed
        // on the 21 frames from then on, ended.
        #expect(oneButton.gestureCount == 1 + 1 + 21 + 1)
        #expect(oneButton.recognizer.bugCount == 0)
    }
}
