@testable import GestureRecognizer
import PencilProtocol
import Testing

/// An input a state cannot receive is reported and the state is kept (libinput's
/// log_tap_bug). The recogniser never derives such inputs from frames, so the machines are
/// driven directly here.
@Suite struct BugReportTests {
    let settings = GestureSettings(preferences: .defaults, device: FrameHarness.twoButtons)
    let context = GestureContext(time: 42, device: "event7", tool: FrameHarness.pen, pose: Pose())

    @Test func aReleaseWithoutAPressIsABugAndChangesNothing() {
        var machine = TapMachine()
        var log = GestureLog()
        var events: [Event] = []
        machine.handle(.release, context, settings, into: &events, log: &log)
        #expect(log.bugs == [GestureBug(machine: .tap, state: "idle", input: "release", time: 42)])
        #expect(machine.state.name == "idle")
        #expect(events.isEmpty)
        #expect(log.transitions == 0)
    }

    @Test func aSecondPressWhileSqueezingIsABugAndTheSqueezeGoesOn() {
        var machine = SqueezeMachine()
        var log = GestureLog()
        var events: [Event] = []
        machine.handle(.press, context, settings, into: &events, log: &log)
        machine.handle(.press, context, settings, into: &events, log: &log)
        machine.handle(.timeout, context, settings, into: &events, log: &log)
        #expect(log.bugs.map(\.input) == ["press", "timeout"])
        #expect(log.bugs.allSatisfy { $0.machine == .squeeze && $0.state == "squeezing" })
        machine.handle(.release, context, settings, into: &events, log: &log)
        #expect(events.map(\.summary) == ["squeeze began", "squeeze ended showContextualPalette"])
    }

    @Test func aTimeoutWithoutLongPressIsABug() {
        var machine = TapMachine()
        var log = GestureLog()
        var events: [Event] = []
        machine.handle(.press, context, settings, into: &events, log: &log)
        machine.handle(.timeout, context, settings, into: &events, log: &log)
        #expect(log.bugs.map(\.state) == ["firstPress"])
        #expect(events.isEmpty)
    }

    @Test func bugsAreCountedButOnlyTheFirstFewKept() {
        var machine = TapMachine()
        var log = GestureLog()
        var events: [Event] = []
        for _ in 0..<100 { machine.handle(.motion, context, settings, into: &events, log: &log) }
        #expect(log.bugCount == 100)
        #expect(log.bugs.count == GestureLog.keptBugs)
        #expect(log.bugs.first?.description == "gesture bug: tap machine in state idle got motion at 42 µs")
    }
}
