import PencilProtocol

/// The pen as it stands at the end of a frame.
public struct PenState: Equatable, Sendable {
    /// The tool in proximity, nil when none is.
    public var tool: Tool?
    public var tipDown = false
    public var buttons: ButtonSet = []
    /// The last pose applied (kept after the tool leaves: closing events carry it).
    public var pose = Pose()

    public init(tool: Tool? = nil, tipDown: Bool = false, buttons: ButtonSet = [], pose: Pose = Pose()) {
        self.tool = tool
        self.tipDown = tipDown
        self.buttons = buttons
        self.pose = pose
    }

    public var inProximity: Bool { tool != nil }

    /// The events that bring a new subscriber to this state: proximityIn, then tipDown or hover
    /// began, then buttonDown for each held button (docs/protocol.md, Monitor).
    public func catchUpEvents(device id: String, identity: PenIdentity, at time: Int64) -> [Event] {
        guard let tool else { return [] }
        var events = [Event.proximityIn(time: time, device: id, tool: tool, pose: pose, stylus: identity.stylus(for: tool))]
        if tipDown {
            events.append(Event(type: .tipDown, time: time, device: id, tool: tool, pose: pose))
        } else {
            events.append(Event(type: .hover, time: time, device: id, tool: tool, pose: pose, phase: .began))
        }
        for button in buttons.buttons {
            events.append(Event(type: .buttonDown, time: time, device: id, tool: tool, pose: pose, button: button))
        }
        return events
    }
    /// The events that end this state for a reader who stops seeing the pen while it is in
    /// range, in the order of a device that goes away (docs/gestures.md): tipUp, buttonUp for
    /// each held button, hover ended, proximityOut; every one with pressure 0.
    public func closeOutEvents(device id: String, at time: Int64) -> [Event] {
        guard let tool else { return [] }
        var pose = pose
        pose.pressure = 0
        var events: [Event] = []
        if tipDown { events.append(Event(type: .tipUp, time: time, device: id, tool: tool, pose: pose)) }
        for button in buttons.buttons {
            events.append(Event(type: .buttonUp, time: time, device: id, tool: tool, pose: pose, button: button))
        }
        if !tipDown { events.append(Event(type: .hover, time: time, device: id, tool: tool, pose: pose, phase: .ended)) }
        events.append(Event(type: .proximityOut, time: time, device: id, tool: tool, pose: pose))
        return events
    }

    /// docs/gestures.md: hovering = a tool in proximity with the tip up.
    public var isHovering: Bool { tool != nil && !tipDown }
}

/// What one frame (or one timer, or a device's arrival or departure) changed: the protocol's
/// pen events in contract order, and the facts a gesture recogniser needs to add its own.
///
/// Gesture events are not in `events`; a recogniser inserts them at `gestureIndex` (and a
/// replaced tool's cancelled squeeze at `replacedGestureIndex`), which keeps the order of
/// docs/gestures.md ("buttonDown/buttonUp, doubleTap, squeeze, hover ended, proximityOut").
public struct PenFrame: Sendable {
    public enum Kind: Sendable, Equatable {
        /// A SYN_REPORT of the device.
        case report
        /// The forced proximity-out timer fired (time = the deadline).
        case forcedProximityOut
        /// The device appeared: `events` is its deviceAdded.
        case added
        /// The device went away: the close-out and deviceRemoved.
        case removed
    }

    public var kind: Kind = .report
    public var time: Int64 = 0
    public var device: String = ""
    public var events: [Event] = []
    public var gestureIndex = 0
    /// The tool another tool replaced in this frame, if any.
    public var replacedTool: Tool?
    public var replacedGestureIndex = 0
    /// SYN_DROPPED came before this frame: the state was resynchronised.
    public var resynchronised = false
    public var previous = PenState()
    public var current = PenState()
    /// Buttons of the current tool pressed and released in this frame.
    public var pressed: ButtonSet = []
    public var released: ButtonSet = []

    public init() {
        events.reserveCapacity(16)
    }

    /// Empties the frame for reuse without giving back its storage.
    public mutating func reset(kind: Kind, time: Int64) {
        self.kind = kind
        self.time = time
        events.removeAll(keepingCapacity: true)
        gestureIndex = 0
        replacedTool = nil
        replacedGestureIndex = 0
        resynchronised = false
        pressed = []
        released = []
    }

    /// The frame's events with gestures inserted at their places: for callers that do not
    /// care about allocation (tools, tests).
    public func merging(gestures: [Event], replacedGestures: [Event] = []) -> [Event] {
        var result: [Event] = []
        result.reserveCapacity(events.count + gestures.count + replacedGestures.count)
        appendEvents(gestures: gestures, replacedGestures: replacedGestures, into: &result)
        return result
    }
}
