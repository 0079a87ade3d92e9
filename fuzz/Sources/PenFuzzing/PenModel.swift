#if canImport(Glibc)
import Glibc
#endif
import FuzzSupport
import PencilInput
import PencilProtocol

/// PENCILD_FUZZ_TRACE=1 prints every event checked: to see what an input (a seed, a
/// crash) does when run by hand.
let tracing = getenv("PENCILD_FUZZ_TRACE") != nil

/// What a client can know from the events alone, with the contract's rules about which
/// event may come when. Every violation traps. Gesture events are a violation unless
/// `allowsGestures` (the tracker alone makes none).
public struct PenModel {
    public let device: String
    public let allowsGestures: Bool
    var added = false
    var removed = false
    var tool: Tool?
    var tipDown = false
    var hovering = false
    var buttons: ButtonSet = []
    /// The phased gestures begun and not yet ended or cancelled.
    var phased: Set<Gesture> = []

    public init(device: String, allowsGestures: Bool = false) {
        self.device = device
        self.allowsGestures = allowsGestures
    }

    /// The events of one frame, and the tracker's state after it.
    public mutating func apply(_ frame: PenFrame, tracker: PenTracker) {
        check((0...frame.events.count).contains(frame.gestureIndex), "gestureIndex out of the frame")
        check(frame.replacedGestureIndex <= frame.gestureIndex, "replacedGestureIndex after gestureIndex")
        for event in frame.events {
            check(event.time == frame.time, "\(event.type) at \(event.time) in a frame at \(frame.time)")
            apply(event)
        }
        checkAgrees(with: tracker.state)
        check(frame.current == tracker.state, "the frame's current state is not the tracker's")
    }

    /// The events of a pipeline's step, then its tracker's state.
    public mutating func apply(_ events: [Event], state: PenState) {
        for event in events { apply(event) }
        checkAgrees(with: state)
    }

    func checkAgrees(with state: PenState) {
        check(state.tool == tool, "state's tool \(String(describing: state.tool)) but events say \(String(describing: tool))")
        check(state.tipDown == tipDown, "state's tip disagrees with the events")
        check(state.buttons == buttons, "state's buttons disagree with the events")
        check(state.isHovering == hovering, "state's hover disagrees with the events")
    }

    public mutating func apply(_ event: Event) {
        if tracing { print(event.jsonText) }
        check(!removed, "\(event.type) after deviceRemoved")
        check(event.device == device, "event for device \(String(describing: event.device))")
        if event.type != .deviceAdded { check(added, "\(event.type) before deviceAdded") }
        if let pose = event.pose { Self.checkRanges(pose) }
        switch event.type {
        case .deviceAdded:
            check(!added, "deviceAdded twice")
            check(event.deviceInfo?.id == device, "deviceAdded without its device")
            added = true
        case .deviceRemoved:
            check(tool == nil, "deviceRemoved with a tool in proximity")
            check(phased.isEmpty, "deviceRemoved with \(phased) open")
            removed = true
        case .proximityIn:
            check(tool == nil, "proximityIn while \(String(describing: tool)) is in proximity")
            check(event.tool != nil && event.pose != nil, "proximityIn without tool or pose")
            tool = event.tool
        case .proximityOut:
            requireTool(event)
            check(!tipDown, "proximityOut with the tip down")
            check(buttons.isEmpty, "proximityOut with buttons held")
            check(!hovering, "proximityOut while hovering")
            check(phased.isEmpty, "proximityOut with \(phased) open")
            tool = nil
        case .tipDown:
            requireTool(event)
            check(!tipDown, "tipDown twice")
            check(!hovering, "tipDown while hovering (no hover ended first)")
            tipDown = true
        case .tipUp:
            requireTool(event)
            check(tipDown, "tipUp without tipDown")
            check(event.pose?.pressure == 0, "tipUp with pressure")
            tipDown = false
        case .motion:
            requireTool(event)
            check(tipDown, "motion with the tip up")
        case .hover:
            requireTool(event)
            switch event.phase {
            case .began:
                check(!hovering && !tipDown, "hover began while hovering or touching")
                hovering = true
            case .changed:
                check(hovering, "hover changed without began")
            case .ended:
                check(hovering, "hover ended without began")
                hovering = false
            default:
                fatalError("hover with phase \(String(describing: event.phase))")
            }
        case .buttonDown:
            requireTool(event)
            guard let button = event.button else { fatalError("buttonDown without button") }
            check(!buttons.contains(button), "buttonDown of a held button")
            buttons.insert(ButtonSet(button))
        case .buttonUp:
            requireTool(event)
            guard let button = event.button else { fatalError("buttonUp without button") }
            check(buttons.contains(button), "buttonUp of a button not held")
            buttons.remove(ButtonSet(button))
        case .preferencesChanged:
            fatalError("a pipeline made a preferencesChanged")
        case .deviceChanged:
            // The daemon's, when a mirror comes or goes or switches its tool: never a pipeline's.
            fatalError("a pipeline made a deviceChanged")
        default:
            guard let gesture = Gesture(event.type) else { fatalError("\(event.type) is neither a pen event nor a gesture") }
            applyGesture(gesture, event)
        }
    }

    /// Any gesture, by what the contract says of its kind: a one-shot gesture carries its
    /// action; a phased one begins once, then changes, then ends with its action or is
    /// cancelled.
    private mutating func applyGesture(_ gesture: Gesture, _ event: Event) {
        check(allowsGestures, "the tracker made a \(gesture)")
        requireTool(event)
        guard gesture.isPhased else {
            check(event.phase == nil, "\(gesture) with a phase")
            check(event.action != nil, "\(gesture) without action")
            return
        }
        switch event.phase {
        case .began:
            check(!phased.contains(gesture), "\(gesture) began twice")
            phased.insert(gesture)
        case .changed:
            check(phased.contains(gesture), "\(gesture) changed without began")
        case .ended:
            check(phased.contains(gesture), "\(gesture) ended without began")
            check(event.action != nil, "\(gesture) ended without action")
            phased.remove(gesture)
        case .cancelled:
            check(phased.contains(gesture), "\(gesture) cancelled without began")
            phased.remove(gesture)
        case nil:
            fatalError("\(gesture) without phase")
        }
    }

    private func requireTool(_ event: Event) {
        guard let current = tool else { fatalError("\(event.type) with no tool in proximity") }
        check(event.tool == current, "\(event.type) for \(String(describing: event.tool)), but \(current) is in proximity")
        check(event.pose != nil, "\(event.type) without pose")
    }

    /// A new subscriber's catch-up events must rebuild exactly this state.
    public func checkCatchUp(_ events: [Event]) {
        var fresh = PenModel(device: device, allowsGestures: allowsGestures)
        fresh.added = true
        for event in events { fresh.apply(event) }
        check(fresh.tool == tool && fresh.tipDown == tipDown && fresh.hovering == hovering && fresh.buttons == buttons
              && fresh.phased == phased,
                     "catch-up events do not rebuild the state")
    }

    public func checkRemoved() {
        check(removed, "remove() did not end with deviceRemoved")
    }

    static func checkRanges(_ pose: Pose) {
        func within(_ value: Double?, _ range: ClosedRange<Double>, _ name: String) {
            guard let value else { return }
            check(value.isFinite && range.contains(value), "\(name) = \(value), outside \(range)")
        }
        within(pose.x, 0...1, "x")
        within(pose.y, 0...1, "y")
        within(pose.pressure, 0...1, "pressure")
        within(pose.zOffset, 0...1, "zOffset")
        within(pose.tiltX, -90...90, "tiltX")
        within(pose.tiltY, -90...90, "tiltY")
        within(pose.azimuth, 0...(2 * Double.pi), "azimuth")
        within(pose.altitude, 0...(Double.pi / 2), "altitude")
        within(pose.roll, 0...(2 * Double.pi), "roll")
        within(pose.slider, 0...1, "slider")
        within(pose.wheel, -1...1, "wheel")
        within(pose.xMillimeters, 0...Double.greatestFiniteMagnitude, "xMillimeters")
        within(pose.yMillimeters, 0...Double.greatestFiniteMagnitude, "yMillimeters")
    }
}
