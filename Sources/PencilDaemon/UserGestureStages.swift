import GestureRecognizer
import PencilInput
import PencilProtocol

/// The stage after a device's tracker in the daemon: one gesture recogniser per user who
/// monitors (each under that user's preferences), so that `PenPipeline` serves the daemon as it
/// serves `pencilctl events`. A user whose preferences cannot make a recogniser (a bug: they were
/// validated when stored) still gets the pen's own events.
struct UserGestureStages: PenFrameStage {
    typealias Output = UserEvents

    /// The routing of the pen's mirror while the pen is grabbed, under the deciding user's
    /// preferences (`mirrorPreferences`); it runs before the users' recognisers.
    private(set) var mirror: MirrorRouter?
    private(set) var mirrorPreferences: Preferences?
    /// The deciding user the mirror follows.
    private var mirrorOwner: UInt32?
    private var mirrorDeadline: Int64?
    private var uids: [UInt32] = []
    private var recognizers: [GestureRecognizer?] = []
    /// Each recogniser's next deadline, kept after each of its steps: the pipeline asks before
    /// every evdev event, and reading it from a recogniser in the array copies the recogniser.
    private var deadlines: [Int64?] = []

    func contains(_ uid: UInt32) -> Bool { uids.contains(uid) }

    /// The tip is reported as the eraser through the mirror now.
    var mirrorReportsEraser: Bool { mirror?.reportsEraser ?? false }

    /// SetTipTool: false without a mirror, or with one that switches no tools.
    mutating func setMirrorTipTool(eraser: Bool, at time: Int64, into output: inout UserEvents) -> Bool {
        guard mirror != nil else { return false }
        return mirror!.setTipTool(eraser: eraser, at: time, into: &output.mirror)
    }

    /// An app of the mirror's owner holds the focus (it acts on gestures itself) or not.
    mutating func setMirrorOwnerAppHoldsFocus(_ held: Bool) {
        if mirror != nil { mirror!.appHoldsFocus = held }
    }

    /// Starts routing the mirror under `preferences` (nil: no mirror). Only while the pen is
    /// idle: a router starts with no tool in proximity and no button held.
    /// The same owner's new preferences keep the tool switch (docs/gestures.md, "The pen switches
    /// tool through its mirror"); another owner, or none, ends it.
    mutating func setMirror(device: DeviceInfo, identity: PenIdentity, preferences: Preferences?, owner: UInt32?) throws(InvalidPreferences) {
        var router = try preferences.map { (preferences) throws(InvalidPreferences) in
            try MirrorRouter(device: device, preferences: preferences, identity: identity)
        }
        if router != nil, let previous = mirror, owner == mirrorOwner { router!.keepToolSwitch(of: previous) }
        mirror = router
        mirrorOwner = preferences == nil ? nil : owner
        mirrorPreferences = preferences
        mirrorDeadline = mirror?.nextDeadline
    }

    /// `state`: the pen as it stands now, for a user who starts monitoring mid-stroke.
    mutating func add(uid: UInt32, device: DeviceInfo, identity: PenIdentity, preferences: Preferences, state: PenState) {
        remove(uid: uid)
        let recognizer = try? GestureRecognizer(device: device, preferences: preferences, state: state, identity: identity)
        uids.append(uid)
        recognizers.append(recognizer)
        deadlines.append(recognizer?.nextDeadline)
    }

    mutating func remove(uid: UInt32) {
        guard let index = uids.firstIndex(of: uid) else { return }
        uids.remove(at: index)
        recognizers.remove(at: index)
        deadlines.remove(at: index)
    }

    /// New preferences for `uid`: a squeeze cut short by them is cancelled (docs/gestures.md).
    mutating func update(uid: UInt32, preferences: Preferences, at time: Int64, into output: inout UserEvents) {
        guard let index = uids.firstIndex(of: uid), recognizers[index] != nil else { return }
        let slot = output.slot(of: uid)
        try? recognizers[index]!.setPreferences(preferences, at: time, into: &output.lists[slot])
        deadlines[index] = recognizers[index]!.nextDeadline
    }

    mutating func observe(_ event: InputEvent) {
        if mirror != nil { mirror!.observe(event) }
    }

    mutating func beginResynchronisation() {
        if mirror != nil { mirror!.beginResynchronisation() }
    }

    mutating func process(_ frame: borrowing PenFrame, into output: inout UserEvents) {
        var performed: EventType?
        if mirror != nil {
            (mirrorDeadline, performed) = mirror!.processReturningState(frame, into: &output.mirror)
        }
        for index in uids.indices {
            let slot = output.slot(of: uids[index])
            let start = output.lists[slot].count
            if recognizers[index] != nil {
                deadlines[index] = recognizers[index]!.processReturningDeadline(frame, into: &output.lists[slot])
            } else {
                output.lists[slot].append(contentsOf: frame.events)
            }
            if let performed { Self.mark(performed, in: &output.lists[slot], from: start) }
        }
    }

    /// A gesture of a step the mirror performed: focus `pen` on every user's streams (each
    /// user's recogniser reports it), so that nothing acts on it a second time.
    private static func mark(_ performed: EventType, in events: inout [Event], from start: Int) {
        for index in events.indices[start...] where events[index].type == performed {
            events[index].focus = .pen
        }
    }

    var nextDeadline: Int64? {
        var earliest = mirrorDeadline
        for case let deadline? in deadlines where earliest.map({ deadline < $0 }) ?? true {
            earliest = deadline
        }
        return earliest
    }

    mutating func advance(to time: Int64, into output: inout UserEvents) {
        var performed: EventType?
        if let deadline = mirrorDeadline, deadline <= time {
            (mirrorDeadline, performed) = mirror!.advanceReturningState(to: time, into: &output.mirror)
        }
        for index in uids.indices {
            guard let deadline = deadlines[index], deadline <= time else { continue }
            let slot = output.slot(of: uids[index])
            let start = output.lists[slot].count
            recognizers[index]!.advance(to: time, into: &output.lists[slot])
            deadlines[index] = recognizers[index]!.nextDeadline
            if let performed { Self.mark(performed, in: &output.lists[slot], from: start) }
        }
    }

    /// The pen as `uid`'s stream has it, when that user's recogniser presents it otherwise than
    /// the device reports it (an eraser button held).
    func presentedState(of uid: UInt32) -> PenState? {
        guard let index = uids.firstIndex(of: uid) else { return nil }
        return recognizers[index]?.presentedState
    }

    /// What a new subscriber of `uid` needs from its recogniser (a squeeze in progress).
    func catchUpEvents(of uid: UInt32, at time: Int64) -> [Event] {
        guard let index = uids.firstIndex(of: uid), let recognizer = recognizers[index] else { return [] }
        return recognizer.catchUpEvents(at: time)
    }
}

extension MirrorRouter {
    /// `process`, then the next deadline and the gesture performed, read in place (reading them
    /// through the optional in the stage would copy the whole router each frame).
    fileprivate mutating func processReturningState(_ frame: borrowing PenFrame, into output: inout [InputEvent]) -> (Int64?, EventType?) {
        process(frame, into: &output)
        return (nextDeadline, performedInStep)
    }

    fileprivate mutating func advanceReturningState(to time: Int64, into output: inout [InputEvent]) -> (Int64?, EventType?) {
        advance(to: time, into: &output)
        return (nextDeadline, performedInStep)
    }
}

extension GestureRecognizer {
    /// `process`, then the next deadline read in place (reading it from a copy out of an array
    /// would copy the whole recogniser).
    fileprivate mutating func processReturningDeadline(_ frame: borrowing PenFrame, into output: inout [Event]) -> Int64? {
        process(frame, into: &output)
        return nextDeadline
    }
}
