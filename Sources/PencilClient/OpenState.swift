/// What a subscriber has seen opened and not yet closed: devices, tools in proximity, the tip
/// down, held buttons, a squeeze, a hover. When the connection ends without the daemon
/// closing them, `closeAll` makes the closing events, as the daemon itself does when a
/// device goes away (gestures.md "When a device goes away"): per tool tipUp, buttonUp for
/// each held button, squeeze cancelled, hover ended, proximityOut; then deviceRemoved.
struct OpenState {
    struct ToolState {
        var tool: PencilTool
        var pose: PencilPose?
        var inProximity = false
        var tipDown = false
        var buttons: [PencilButton] = []
        var squeezing = false
        var squeezeFocus: PencilFocus?
        var hovering = false
    }

    struct DeviceState {
        var id: String
        var added = false
        /// The time of the device's last event: closing events carry it.
        var lastTime: Int64
        var tools: [ToolState] = []
    }

    private(set) var devices: [DeviceState] = []

    var isEmpty: Bool { devices.isEmpty }

    mutating func observe(_ event: PencilEvent) {
        guard let id = event.device else { return }
        var index = devices.firstIndex { $0.id == id }
        if index == nil {
            // A device this stream has not seen added (the filter left it out): still track
            // what opens on it.
            if event.type == .deviceRemoved { return }
            devices.append(DeviceState(id: id, lastTime: event.time))
            index = devices.count - 1
        }
        let deviceIndex = index!
        devices[deviceIndex].lastTime = event.time
        switch event.type {
        case .deviceAdded:
            devices[deviceIndex].added = true
            return
        case .deviceRemoved:
            devices.remove(at: deviceIndex)
            return
        default:
            break
        }
        guard let tool = event.tool else { return }
        var tools = devices[deviceIndex].tools
        let toolIndex: Int
        if let found = tools.firstIndex(where: { $0.tool.isSameTool(as: tool) }) {
            toolIndex = found
        } else {
            if event.type == .proximityOut { return }
            tools.append(ToolState(tool: tool))
            toolIndex = tools.count - 1
        }
        tools[toolIndex].tool = tool
        if let pose = event.pose { tools[toolIndex].pose = pose }
        switch event.type {
        case .proximityIn: tools[toolIndex].inProximity = true
        case .tipDown: tools[toolIndex].tipDown = true
        case .tipUp: tools[toolIndex].tipDown = false
        case .buttonDown:
            if let button = event.button, !tools[toolIndex].buttons.contains(button) { tools[toolIndex].buttons.append(button) }
        case .buttonUp:
            if let button = event.button { tools[toolIndex].buttons.removeAll { $0 == button } }
        case .hover:
            tools[toolIndex].hovering = event.phase == .began || event.phase == .changed
        case .squeeze:
            let open = event.phase == .began || event.phase == .changed
            if open, !tools[toolIndex].squeezing { tools[toolIndex].squeezeFocus = event.focus }
            tools[toolIndex].squeezing = open
        default:
            break
        }
        if event.type == .proximityOut {
            tools.remove(at: toolIndex)
        }
        devices[deviceIndex].tools = tools
    }

    /// The events that close everything open, in the contract's order, device by device;
    /// afterwards nothing is open.
    mutating func closeAll() -> [PencilEvent] {
        var events: [PencilEvent] = []
        for device in devices {
            let time = device.lastTime
            for state in device.tools {
                func event(_ type: PencilEventType) -> PencilEvent {
                    PencilEvent(type: type, time: time, device: device.id, tool: state.tool, pose: state.pose)
                }
                if state.tipDown { events.append(event(.tipUp)) }
                // Buttons in the protocol's order, as the daemon releases them.
                for button in PencilButton.known where state.buttons.contains(button) {
                    var up = event(.buttonUp)
                    up.button = button
                    events.append(up)
                }
                for button in state.buttons where !button.isKnown {
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
                if state.inProximity { events.append(event(.proximityOut)) }
            }
            if device.added { events.append(PencilEvent(type: .deviceRemoved, time: time, device: device.id)) }
        }
        devices.removeAll()
        return events
    }
}
