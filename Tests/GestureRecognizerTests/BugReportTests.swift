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

    @Test func aReleaseWithoutAPressIsABugAndChangesNothing() {
        var machine = DoubleTapMachine()
        var log = GestureLog()
        var events: [Event] = []
        machine.handle(.release, context, settings, into: &events, log: &log)
        #expect(log.bugs == [GestureBug(machine: "tap", state: "idle", input: "release", time: 42)])
        #expect(machine.state.name == "idle")
        #expect(events.isEmpty)
        #expect(machine.taken == 0 && log.mirrorMeanings.isEmpty)
    }

    @Test func aSecondPressWhileSqueezingIsABugAndTheSqueezeGoesOn() {
        var machine = SqueezeMachine()
        var log = GestureLog()
        var events: [Event] = []
        machine.handle(.press, context, settings, into: &events, log: &log)
        machine.handle(.press, context, settings, into: &events, log: &log)
        machine.handle(.timeout, context, settings, into: &events, log: &log)
        #expect(log.bugs.map(\.input) == ["press", "timeout"])
        #expect(log.bugs.allSatisfy { $0.machine == "squeeze" && $0.state == "squeezing" })
        machine.handle(.release, context, settings, into: &events, log: &log)
        #expect(events.map(\.summary) == ["squeeze began", "squeeze ended showContextualPalette"])
    }

    @Test func aTimeoutWithoutLongPressIsABug() {
        var machine = DoubleTapMachine()
        var log = GestureLog()
        var events: [Event] = []
        machine.handle(.press, context, settings, into: &events, log: &log)
        machine.handle(.timeout, context, settings, into: &events, log: &log)
        #expect(log.bugs.map(\.state) == ["firstPress"])
        #expect(events.isEmpty)
    }

    @Test func bugsAreCountedButOnlyTheFirstFewKept() {
        var machine = DoubleTapMachine()
        var log = GestureLog()
        var events: [Event] = []
        for _ in 0..<100 { machine.handle(.motion, context, settings, into: &events, log: &log) }
        #expect(log.bugCount == 100)
        #expect(log.bugs.count == GestureLog.keptBugs)
        #expect(log.bugs.first?.description == "gesture bug: tap machine in state idle got motion at 42 µs")
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
