import PencilProtocol

/// Turns one device's evdev events into the protocol's pen events, frame by frame
/// (docs/gestures.md: Frames, Proximity and tools, Tip, Pose, Hover, Order, When a device goes away).
///
/// Pure: no I/O and no clock. Time comes in with the events; the forced proximity-out is a
/// deadline the owner reads from `nextDeadline` and delivers with `advance(to:into:)`.
///
/// Evdev events of a frame are gathered in `pending`; at SYN_REPORT the frame is settled
/// (which tool is in proximity, tip, buttons, pose) and compared with the previous frame's
/// `state` to emit transitions in the contract's order.
public struct PenTracker: Sendable {
    public let deviceInfo: DeviceInfo
    public let description: DeviceDescription
    /// What libwacom knows of the device (its model, its styli by tool id).
    public let identity: PenIdentity
    /// The kernel name of the device's mirror while it has one (Device.mirror): named by its
    /// owner, who makes it, in deviceAdded and ListDevices.
    public var mirrorName: String?
    /// The styli that have come into proximity, in the order they first came.
    public private(set) var styliSeen: [Stylus] = []

    /// How long a device with a tool in proximity may stay silent before the tool is taken
    /// out of proximity (docs/gestures.md, Forced proximity-out).
    public static let forcedProximityTimeout: Int64 = 500_000

    /// The raw device state: what evdev has reported, whatever the proximity.
    private struct RawState: Equatable {
        var axes = RawAxes()
        var serial: Int64 = 0
        /// Bit i: the i-th entry of EventCode.toolKeys is down.
        var toolKeys: UInt8 = 0
        var buttons: ButtonSet = []
        var touch = false
    }

    /// What the tool keys of the frame in progress asked for.
    private enum ToolRequest: Equatable {
        case none
        case enter(ToolType)
        case leave
    }

    private let normalizer: PoseNormalizer
    private var tiltMemo = TiltMemo()
    private let hasToolKeys: Bool
    private let usesPressure: Bool
    private let tipDownThreshold: Int32
    private let tipUpThreshold: Int32

    private var committed = RawState()
    private var pending = RawState()
    private var frameHasPosition = false
    private var frameToolRequest = ToolRequest.none
    private var frameReleasedToolInProximity = false

    private var current = PenState()
    private var lastFrameTime: Int64?
    /// Set once the device has released the key of a tool in proximity by itself: from then on
    /// the forced proximity-out never fires for it.
    private var deviceReportsProximityOut = false
    /// After SYN_DROPPED in a recording: events are discarded up to the next SYN_REPORT.
    private var discardingUntilReport = false
    private var resynchronisationPending = false
    private var removed = false

    public init(description: DeviceDescription, id: String, identity: PenIdentity = .unknown) {
        self.description = description
        self.identity = identity
        self.deviceInfo = description.penDeviceInfo(id: id, identity: identity)
        normalizer = PoseNormalizer(description)
        hasToolKeys = description.hasToolKeys
        if let pressure = description.absInfo[EventCode.ABS_PRESSURE], description.hasAbs(EventCode.ABS_PRESSURE) {
            usesPressure = true
            let range = Double(pressure.maximum) - Double(pressure.minimum)
            // Integer thresholds: "≥ min + 5 %" and "< min + 1 %" of the range.
            tipDownThreshold = Int32(clamping: Int64((Double(pressure.minimum) + 0.05 * range).rounded(.up)))
            tipUpThreshold = Int32(clamping: Int64((Double(pressure.minimum) + 0.01 * range).rounded(.up)))
        } else {
            usesPressure = false
            tipDownThreshold = 0
            tipUpThreshold = 0
        }
    }

    /// The pen at the end of the last frame.
    public var state: PenState { current }

    /// Fills `frame` with the device's deviceAdded.
    public mutating func start(at time: Int64, into frame: inout PenFrame) {
        beginFrame(&frame, kind: .added, time: time)
        var info = deviceInfo
        info.mirror = mirrorName
        // A mirror starts with the tip as itself (docs/gestures.md, "The pen switches tool
        // through its mirror"); a later switch comes as a deviceChanged.
        if mirrorName != nil { info.tipReportedAs = .pen }
        frame.events.append(Event(type: .deviceAdded, time: time, device: deviceInfo.id, deviceInfo: info))
        frame.gestureIndex = frame.events.count
        finishFrame(&frame)
    }

    /// Feeds one evdev event. Returns true when it completed a frame (a SYN_REPORT), which is
    /// then in `frame`; `frame` is reset and refilled, never reallocated once warm.
    /// A SYN_DROPPED event discards the frame in progress and everything up to the next
    /// SYN_REPORT (recordings; live sources call `beginResynchronisation()` instead).
    public mutating func feed(_ event: InputEvent, into frame: inout PenFrame) -> Bool {
        guard !removed else { return false }
        switch event.type {
        case EventCode.EV_SYN:
            if event.code == EventCode.SYN_REPORT {
                if discardingUntilReport {
                    discardingUntilReport = false
                    return false
                }
                settleFrame(at: event.time, into: &frame)
                return true
            }
            if event.code == EventCode.SYN_DROPPED {
                dropFrameInProgress()
                discardingUntilReport = true
            }
            return false
        case _ where discardingUntilReport:
            return false
        case EventCode.EV_KEY:
            handleKey(code: event.code, isDown: event.value != 0)
        case EventCode.EV_ABS:
            if pending.axes.set(event.code, event.value),
               event.code == EventCode.ABS_X || event.code == EventCode.ABS_Y {
                frameHasPosition = true
            }
        case EventCode.EV_MSC:
            if event.code == EventCode.MSC_SERIAL {
                // Serials are unsigned 32-bit numbers that evdev carries in a signed value.
                pending.serial = Int64(UInt32(bitPattern: event.value))
            }
        default:
            break
        }
        return false
    }

    /// Live sources: libevdev reported SYN_DROPPED and is about to replay the device's real
    /// state; the frame in progress is dropped and the next frame is marked resynchronised.
    public mutating func beginResynchronisation() {
        dropFrameInProgress()
        discardingUntilReport = false
    }

    /// When the forced proximity-out will fire unless a frame comes first, or nil.
    public var nextDeadline: Int64? {
        guard !removed, current.tool != nil, !current.tipDown, current.buttons.isEmpty,
              !(hasToolKeys && deviceReportsProximityOut), let lastFrameTime else { return nil }
        return lastFrameTime + Self.forcedProximityTimeout
    }

    /// Fires the forced proximity-out if `time` has reached its deadline; returns true when
    /// `frame` then holds it (at the deadline's time).
    public mutating func advance(to time: Int64, into frame: inout PenFrame) -> Bool {
        guard let deadline = nextDeadline, deadline <= time else { return false }
        beginFrame(&frame, kind: .forcedProximityOut, time: deadline)
        forcedOutTime = deadline
        var next = current
        next.tool = nil
        next.tipDown = false
        next.buttons = []
        frame.appendTransitions(from: current, to: next, time: deadline, identity: identity)
        current = next
        finishFrame(&frame)
        return true
    }

    /// The device went away (unplug, or the end of a replay): closes what is open at the time
    /// of the last frame and ends with deviceRemoved. A timer that fired after the last frame
    /// (the forced proximity-out here, or a stage's long press, passed as `latestTimer`) moves
    /// that time to its own, so that times never go back.
    public mutating func remove(latestTimer: Int64? = nil, into frame: inout PenFrame) {
        let time = max(lastFrameTime ?? 0, forcedOutTime ?? Int64.min, latestTimer ?? Int64.min)
        beginFrame(&frame, kind: .removed, time: time)
        guard !removed else {
            finishFrame(&frame)
            return
        }
        removed = true
        if let tool = current.tool {
            // docs/gestures.md, "When a device goes away": tipUp, buttonUp for each held
            // button, (squeeze cancelled), hover ended, proximityOut, then deviceRemoved. The
            // tip is up for all of them: pressure 0 (docs/protocol.md, "When pencild goes away").
            let pose = current.pose.lifted
            if current.tipDown {
                frame.events.append(Event(type: .tipUp, time: time, device: deviceInfo.id, tool: tool, pose: pose))
            }
            for button in current.buttons.buttons {
                frame.events.append(Event(type: .buttonUp, time: time, device: deviceInfo.id, tool: tool, pose: pose, button: button))
            }
            frame.gestureIndex = frame.events.count
            if !current.tipDown {
                frame.events.append(Event(type: .hover, time: time, device: deviceInfo.id, tool: tool, pose: pose, phase: .ended))
            }
            frame.events.append(Event(type: .proximityOut, time: time, device: deviceInfo.id, tool: tool, pose: pose))
        } else {
            frame.gestureIndex = 0
        }
        frame.events.append(Event(type: .deviceRemoved, time: time, device: deviceInfo.id))
        // The recogniser's cancelled squeeze carries this pose: with the tip up, too.
        current = PenState(pose: current.pose.lifted)
        finishFrame(&frame)
    }

    /// The events that bring a new subscriber to the current state: proximityIn, then tipDown
    /// or hover began, then buttonDown for each held button (docs/protocol.md, Monitor).
    public func catchUpEvents(at time: Int64) -> [Event] {
        guard !removed else { return [] }
        return current.catchUpEvents(device: deviceInfo.id, identity: identity, at: time)
    }

    // MARK: - Gathering a frame

    private mutating func handleKey(code: UInt16, isDown: Bool) {
        if let index = EventCode.toolKeys.firstIndex(where: { $0.code == code }) {
            let bit = UInt8(1) << UInt8(index)
            let tool = EventCode.toolKeys[index].tool.toolType
            if isDown {
                pending.toolKeys |= bit
                // The newest tool key pressed wins.
                frameToolRequest = .enter(tool)
            } else {
                pending.toolKeys &= ~bit
                // Only the release of the tool in proximity (or entering in this frame) counts.
                let active: ToolType?
                switch frameToolRequest {
                case .enter(let entering): active = entering
                case .leave: active = nil
                case .none: active = current.tool?.type
                }
                if active == tool {
                    frameToolRequest = .leave
                    if current.tool?.type == tool { frameReleasedToolInProximity = true }
                }
            }
            return
        }
        switch code {
        case EventCode.BTN_TOUCH: pending.touch = isDown
        case EventCode.BTN_STYLUS: setButton(.stylus, isDown)
        case EventCode.BTN_STYLUS2: setButton(.stylus2, isDown)
        case EventCode.BTN_STYLUS3: setButton(.stylus3, isDown)
        default: break
        }
    }

    private mutating func setButton(_ button: ButtonSet, _ isDown: Bool) {
        if isDown { pending.buttons.insert(button) } else { pending.buttons.remove(button) }
    }

    private mutating func dropFrameInProgress() {
        pending = committed
        frameHasPosition = false
        frameToolRequest = .none
        frameReleasedToolInProximity = false
        resynchronisationPending = true
    }

    /// The tool whose key is down, newest-first in evdev order when several are.
    private func toolWithKeyDown(_ keys: UInt8) -> ToolType? {
        for index in EventCode.toolKeys.indices.reversed() where keys & (UInt8(1) << UInt8(index)) != 0 {
            return EventCode.toolKeys[index].tool.toolType
        }
        return nil
    }

    // MARK: - Settling a frame

    private mutating func settleFrame(at time: Int64, into frame: inout PenFrame) {
        beginFrame(&frame, kind: .report, time: time)
        frame.resynchronised = resynchronisationPending
        resynchronisationPending = false

        // Which tool is in proximity at the end of this frame.
        var tool = current.tool
        if hasToolKeys {
            switch frameToolRequest {
            case .enter(let type):
                if tool?.type != type { tool = Tool(type: type, serial: pending.serial, id: Int64(pending.axes.misc)) }
            case .leave:
                tool = nil
            case .none:
                // After a forced proximity-out the key is still down: the tool returns with
                // the device's next position.
                if tool == nil, frameHasPosition, let type = toolWithKeyDown(pending.toolKeys), lastFrameTime != nil, hadForcedOut {
                    tool = Tool(type: type, serial: pending.serial, id: Int64(pending.axes.misc))
                }
            }
        } else if tool == nil, frameHasPosition {
            tool = Tool(type: .pen, serial: pending.serial, id: Int64(pending.axes.misc))
        }
        if frameReleasedToolInProximity { deviceReportsProximityOut = true }

        let leaving = current.tool != nil && tool == nil
        if leaving {
            // Wacom zeroes the axes in the frame that ends proximity: keep the previous ones.
            pending.axes = committed.axes
        }
        committed = pending
        if tool != nil { hadForcedOut = false }

        var next = PenState(tool: tool, pose: current.pose)
        if let tool {
            let wasDown = current.tool.map { $0.isSameTool(as: tool) } == true && current.tipDown
            if usesPressure {
                let pressure = committed.axes.pressure
                next.tipDown = wasDown ? pressure >= tipUpThreshold : pressure >= tipDownThreshold
            } else {
                next.tipDown = committed.touch
            }
            next.buttons = committed.buttons
            next.pose = normalizer.pose(committed.axes, tool: tool, tipDown: next.tipDown, memo: &tiltMemo)
        }

        frame.appendTransitions(from: current, to: next, time: time, identity: identity)
        if let tool = next.tool, tool != current.tool { noteStylus(of: tool) }
        current = next
        lastFrameTime = time
        frameHasPosition = false
        frameToolRequest = .none
        frameReleasedToolInProximity = false
        finishFrame(&frame)
    }

    /// The device as ListDevices describes it: with the styli seen so far.
    public var listedDeviceInfo: DeviceInfo {
        var info = deviceInfo
        info.styli = styliSeen
        info.mirror = mirrorName
        return info
    }

    /// Remembers the stylus of a tool that came into proximity (rare: a look-up only when the
    /// tool changed).
    private mutating func noteStylus(of tool: Tool) {
        guard let stylus = identity.stylus(for: tool), !styliSeen.contains(stylus) else { return }
        styliSeen.append(stylus)
    }

    private var hadForcedOut = false
    /// When the last forced proximity-out fired.
    private var forcedOutTime: Int64?

    private func beginFrame(_ frame: inout PenFrame, kind: PenFrame.Kind, time: Int64) {
        frame.reset(kind: kind, time: time)
        frame.device = deviceInfo.id
        frame.previous = current
    }

    private mutating func finishFrame(_ frame: inout PenFrame) {
        frame.current = current
        if frame.kind == .forcedProximityOut { hadForcedOut = true }
    }
}
