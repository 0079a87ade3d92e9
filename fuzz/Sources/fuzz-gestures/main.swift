// Fuzzes the whole pure pipeline of one device: the tracker and the gesture recogniser
// (GesturePipeline), with preferences from the input and changed midway, timers driven as
// the daemon drives them.
//
// Findings: a crash, and any output that breaks the contract's bookkeeping (PenModel):
// every squeeze began followed by exactly one ended or cancelled, for the tool in
// proximity, before that tool leaves; gestures only with a tool in proximity; actions where
// they belong; a catch-up that rebuilds the state, squeeze included.
//
// Input layout: 1 byte of preferences (PreferencesRecipe), 6 of device, then 8-byte steps.
import FuzzSupport
import GestureRecognizer
import PenFuzzing
import PencilInput
import PencilProtocol

runFuzzer { bytes in
    var input = FuzzInput(bytes)
    let recipe = input.byte()
    let description = DeviceRecipe.read(&input)
    // With the ignore action's bit, a device with an eraser tool is an AES pen whose eraser is
    // a button, under eraserButton button (the eraser as the tap button instead of stylus3):
    // the swap stage runs in front of the machines.
    let aes = recipe & 0x40 != 0 && description.hasKey(EventCode.BTN_TOOL_RUBBER)
    let identity = aes ? PenIdentity(model: "fuzz AES", styli: [0x21: Stylus(name: "AES Pen", kind: .mobile, buttons: 1, eraser: .button)])
        : .unknown
    let preferences = PreferencesRecipe.make(recipe, eraserButton: aes)
    guard var pipeline = try? GesturePipeline(description: description, id: "fuzz0", preferences: preferences, identity: identity) else {
        fatalError("valid preferences refused: \(preferences)")
    }
    /// The pen as the stream has it: the device's, or the eraser swap's.
    func streamState() -> PenState { pipeline.recognizer.presentedState ?? pipeline.tracker.state }
    // The mirror of the same pen under the same preferences: its gesture keys are down only
    // while a tool is in proximity, and every other event reaches it unchanged, in order. The
    // tool switch, which writes the tip as the eraser on purpose, is off here
    // (MirrorToolSwitchTests have it).
    var mirrorPreferences = preferences
    mirrorPreferences.mirrorSwitchesTool = false
    guard var mirror = try? PenPipeline(tracker: PenTracker(description: description, id: "fuzz0", identity: identity),
                                        stage: MirrorRouter(device: description.penDeviceInfo(id: "fuzz0", identity: identity),
                                                            preferences: mirrorPreferences, identity: identity)) else {
        fatalError("valid preferences refused by the mirror: \(preferences)")
    }
    var mirrorOutput: [InputEvent] = []
    var mirrorInput: [InputEvent] = []
    var mirrorWritten: [InputEvent] = []
    var mirrorKeys: Set<UInt16> = []
    var lostEvents = false
    // The keys the mirror decides about: tapButton's, and squeezeButton's when the device has it.
    func key(_ button: PenButton?) -> UInt16? {
        switch button {
        case .stylus: return EventCode.BTN_STYLUS
        case .stylus2: return EventCode.BTN_STYLUS2
        case .stylus3: return EventCode.BTN_STYLUS3
        case .eraser, nil: return nil
        }
    }
    let tapKey = key(preferences.tapButton.button)
    // (tapButton's even where the device lacks the key; a squeezeButton the device lacks is a long press.)
    let squeezeKey = key(preferences.squeezeButton.button).flatMap { description.hasKey($0) ? $0 : nil }
    let gestureKeys = Set([tapKey, squeezeKey].compactMap { $0 })
    func checkMirror() {
        for event in mirrorOutput where event.type == EventCode.EV_KEY && event.code == tapKey {
            if event.value != 0 { mirrorKeys.insert(event.code) } else { mirrorKeys.remove(event.code) }
        }
        if mirror.tracker.state.tool == nil, !mirrorKeys.isEmpty {
            fatalError("the mirror holds \(mirrorKeys.sorted()) with no tool in proximity")
        }
    }
    var model = PenModel(device: "fuzz0", allowsGestures: true)
    var output: [Event] = []
    var time: Int64 = 1_000_000_000

    pipeline.start(at: time, into: &output)
    model.apply(output, state: streamState())

    while input.remaining >= Step.size {
        let step = Step.read(&input)
        time += step.timeDelta
        output.removeAll(keepingCapacity: true)
        switch step.action {
        case .event(let type, let code, let value):
            let event = InputEvent(time: time, type: type, code: code, value: value)
            pipeline.feed(event, into: &output)
            mirrorOutput.removeAll(keepingCapacity: true)
            mirror.feed(event, into: &mirrorOutput)
            checkMirror()
            mirrorWritten += mirrorOutput
            mirrorInput.append(event)
            if type == EventCode.EV_SYN, code == EventCode.SYN_DROPPED { lostEvents = true }
        case .resynchronise:
            pipeline.beginResynchronisation()
            mirror.beginResynchronisation()
            lostEvents = true
        case .catchUp:
            pipeline.advance(to: time, into: &output)
            model.apply(output, state: streamState())
            output.removeAll(keepingCapacity: true)
            model.checkCatchUp(streamState().catchUpEvents(device: "fuzz0", identity: identity, at: time)
                               + pipeline.recognizer.catchUpEvents(at: time))
        case .changePreferences(let recipe):
            pipeline.advance(to: time, into: &output)
            do {
                try pipeline.setPreferences(PreferencesRecipe.make(recipe, eraserButton: aes), at: time, into: &output)
            } catch {
                fatalError("valid preferences refused: \(error)")
            }
        }
        model.apply(output, state: streamState())
    }
    mirrorOutput.removeAll(keepingCapacity: true)
    mirror.finish(into: &mirrorOutput)
    mirrorWritten += mirrorOutput
    if !lostEvents {
        // Everything but the gesture keys passes unchanged, in order (up to the last whole frame).
        let complete = mirrorInput.lastIndex { $0.type == EventCode.EV_SYN && $0.code == EventCode.SYN_REPORT }.map { mirrorInput[...$0] } ?? []
        func others(_ events: some Sequence<InputEvent>) -> [InputEvent] {
            events.filter { !($0.type == EventCode.EV_KEY && gestureKeys.contains($0.code)) && $0.type != EventCode.EV_SYN }
        }
        if others(complete) != others(mirrorWritten) {
            fatalError("the mirror changed events that are no gesture's")
        }
    }
    output.removeAll(keepingCapacity: true)
    pipeline.finish(into: &output)
    model.apply(output, state: pipeline.tracker.state)
    model.checkRemoved()
}

/// Valid preferences from one byte: each button choice and gesture setting, short and long
/// durations (never tapButton and squeezeButton the same button, nor longPress without a
/// tapButton: both are invalid).
enum PreferencesRecipe {
    static func make(_ byte: UInt8, eraserButton: Bool = false) -> Preferences {
        var preferences = Preferences()
        preferences.eraserButton = eraserButton ? .button : .eraser
        let taps: [TapButton] = [.stylus, .stylus2, eraserButton ? .eraser : .stylus3, .none]
        let squeezes: [SqueezeButton] = [.stylus2, .longPress, .stylus, .stylus3, .none]
        preferences.tapButton = taps[Int(byte & 0x03)]
        preferences.squeezeButton = squeezes[Int(byte >> 2 & 0x07) % squeezes.count]
        if let tap = preferences.tapButton.button, preferences.squeezeButton.button == tap {
            preferences.squeezeButton = .longPress
        }
        // A long press needs a tapButton to hold.
        if preferences.tapButton == .none, preferences.squeezeButton == .longPress {
            preferences.squeezeButton = .none
        }
        if byte & 0x20 != 0 {
            preferences.tapMaxDuration = 1
            preferences.doubleTapInterval = 10_000
            preferences.longPressDuration = 1
            preferences.doubleTapSlop = 0
        }
        if byte & 0x40 != 0 { preferences.doubleTapAction = .ignore }
        if byte & 0x80 != 0 { preferences.doubleTapSlop = 1_000 }
        return preferences
    }
}
