/// What a subscriber has seen opened and not yet closed: devices, the tool in proximity, the
/// tip down, held buttons, a squeeze, a hover. When the connection ends without the daemon
/// closing them, `closeAll` makes the closing events (docs/protocol.md, "When pencild goes
/// away"); tests/contract holds the cases every library passes.
struct OpenState {
    /// The same bounds in every library: a stream that names more opens nothing more.
    static let maximumDevices = 64
    static let maximumButtons = 8

    struct ToolState {
        var tool: PencilTool
        var pose: PencilPose?
        var tipDown = false
        var buttons: [PencilButton] = []
        var squeezing = false
        var squeezeFocus: PencilFocus?
        var hovering = false
    }

    struct DeviceState {
        var id: String
        var added = false
        /// The latest time of the device's events: closing events carry it.
        var lastTime: Int64
        /// The one tool in proximity: a device has at most one.
        var tool: ToolState?
    }

    private(set) var devices: [DeviceState] = []

    var isEmpty: Bool { devices.isEmpty }

    mutating func observe(_ event: PencilEvent) {
        guard let id = event.device else { return }
        let found = devices.firstIndex { $0.id == id }
        if event.type == .deviceRemoved {
            if let found { devices.remove(at: found) }
            return
        }
        let index: Int
        if let found {
            index = found
        } else {
            guard devices.count < Self.maximumDevices else { return }
            devices.append(DeviceState(id: id, lastTime: event.time))
            index = devices.count - 1
        }
        devices[index].lastTime = max(devices[index].lastTime, event.time)
        if event.type == .deviceAdded {
            devices[index].added = true
            return
        }
        guard let tool = event.tool else { return }
        if event.type == .proximityIn, devices[index].tool.map({ !$0.tool.isSameTool(as: tool) }) ?? true {
            // A tool whose proximityOut never came is forgotten with what it had open.
            devices[index].tool = ToolState(tool: tool)
        }
        guard var state = devices[index].tool, state.tool.isSameTool(as: tool) else { return }
        state.tool = tool
        if let pose = event.pose { state.pose = pose }
        switch event.type {
        case .proximityOut:
            devices[index].tool = nil
            return
        case .tipDown: state.tipDown = true
        case .tipUp: state.tipDown = false
        case .buttonDown:
            if let button = event.button, !state.buttons.contains(button), state.buttons.count < Self.maximumButtons {
                state.buttons.append(button)
            }
        case .buttonUp:
            if let button = event.button { state.buttons.removeAll { $0 == button } }
        case .hover:
            if event.phase == .began { state.hovering = true } else if event.phase == .ended { state.hovering = false }
        case .squeeze:
            if event.phase == .began {
                state.squeezing = true
                state.squeezeFocus = event.focus
            } else if event.phase == .ended || event.phase == .cancelled {
                state.squeezing = false
            }
        default:
            break
        }
        devices[index].tool = state
    }

    /// The events that close everything open, in the contract's order, device by device in
    /// the order they first appeared, each marked synthesized; afterwards nothing is open.
    mutating func closeAll() -> [PencilEvent] {
        var events: [PencilEvent] = []
        for device in devices {
            let time = device.lastTime
            func closing(_ type: PencilEventType) -> PencilEvent {
                var event = PencilEvent(type: type, time: time, device: device.id)
                event.isSynthesized = true
                return event
            }
            if let state = device.tool {
                // Every closing event comes with the tip up: pressure 0.
                var pose = state.pose
                pose?.pressure = 0
                func event(_ type: PencilEventType) -> PencilEvent {
                    var event = closing(type)
                    event.tool = state.tool
                    event.pose = pose
                    return event
                }
                if state.tipDown { events.append(event(.tipUp)) }
                // Known buttons in the protocol's order, as the daemon releases them; then
                // names this library does not know, in the order they were pressed.
                let released = PencilButton.known.filter { state.buttons.contains($0) } + state.buttons.filter { !$0.isKnown }
                for button in released {
                    var up = event(.buttonUp)
                    up.button = button
                    events.append(up)
                }
                if state.squeezing {
                    var squeeze = event(.squeeze)
                    squeeze.phase = .cancelled
                    squeeze.focus = state.squeezeFocus
                    events.append(squeeze)
                }
                if state.hovering {
                    var hover = event(.hover)
                    hover.phase = .ended
                    events.append(hover)
                }
                events.append(event(.proximityOut))
            }
            if device.added { events.append(closing(.deviceRemoved)) }
        }
        devices.removeAll()
        return events
    }
}
