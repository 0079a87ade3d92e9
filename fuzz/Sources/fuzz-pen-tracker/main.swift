// Fuzzes the frame assembler: PenTracker fed arbitrary evdev event sequences, on a device
// whose capabilities and axis ranges also come from the input, with its forced
// proximity-out timer driven as the daemon drives it.
//
// Findings: a crash, and any output that breaks the contract's bookkeeping (PenModel):
// events out of their state (a tipUp without tipDown, a proximityOut with the tip down, ...),
// a pose outside its ranges, a state that disagrees with the events, a catch-up that does
// not rebuild the state, or anything left open after the device goes away.
//
// Input layout: 6 bytes of device (DeviceRecipe), then 8 bytes per step (Step).
import FuzzSupport
import PenFuzzing
import PencilInput
import PencilProtocol

runFuzzer { bytes in
    var input = FuzzInput(bytes)
    let description = DeviceRecipe.read(&input)
    var tracker = PenTracker(description: description, id: "fuzz0")
    var model = PenModel(device: "fuzz0")
    var frame = PenFrame()
    var time: Int64 = 1_000_000_000

    tracker.start(at: time, into: &frame)
    model.apply(frame, tracker: tracker)

    while input.remaining >= Step.size {
        let step = Step.read(&input)
        time += step.timeDelta
        // The daemon fires a due timer before it reads the next event.
        if let deadline = tracker.nextDeadline, deadline <= time {
            check(tracker.advance(to: time, into: &frame), "a due deadline did not fire")
            check(frame.time == deadline, "a timer's events are not at its deadline")
            model.apply(frame, tracker: tracker)
            check(tracker.nextDeadline != deadline, "a fired deadline is still pending")
        }
        switch step.action {
        case .event(let type, let code, let value):
            if tracker.feed(InputEvent(time: time, type: type, code: code, value: value), into: &frame) {
                check(frame.time == time, "a frame's time is not its SYN_REPORT's")
                model.apply(frame, tracker: tracker)
            }
        case .resynchronise:
            tracker.beginResynchronisation()
        case .catchUp, .changePreferences:
            model.checkCatchUp(tracker.catchUpEvents(at: time))
        }
    }
    tracker.remove(into: &frame)
    model.apply(frame, tracker: tracker)
    model.checkRemoved()
    check(tracker.nextDeadline == nil, "a removed device still has a timer")
    let fed = tracker.feed(InputEvent(time: time + 1, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0), into: &frame)
    check(!fed, "a removed device produced a frame")
}
