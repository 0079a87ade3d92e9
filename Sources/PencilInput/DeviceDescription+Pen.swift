import PencilProtocol

extension ToolTypeCode {
    public var toolType: ToolType {
        switch self {
        case .pen: return .pen
        case .eraser: return .eraser
        case .brush: return .brush
        case .pencil: return .pencil
        case .airbrush: return .airbrush
        case .mouse: return .mouse
        case .lens: return .lens
        }
    }
}

extension ToolType {
    /// The tool key (`BTN_TOOL_*`) that reports this tool, from `EventCode.toolKeys`.
    public var keyCode: UInt16 {
        // toolKeys has every tool type: the search always finds one.
        EventCode.toolKeys.first { $0.tool.toolType == self }!.code
    }
}

extension DeviceDescription {
    /// The device as the protocol describes it to clients (docs/protocol.md "Device"), with what
    /// libwacom knows of it: its model, and `eraser` among its buttons when its pens' eraser
    /// is a button.
    public func penDeviceInfo(id: String, identity: PenIdentity = .unknown) -> DeviceInfo {
        var tools = EventCode.toolKeys.filter { hasKey($0.code) }.map { $0.tool.toolType }
        // A device without tool keys reports one pen (docs/gestures.md, Proximity and tools).
        if tools.isEmpty { tools = [.pen] }
        var axes: [AxisName] = []
        if hasAbs(EventCode.ABS_PRESSURE) { axes.append(.pressure) }
        if hasAbs(EventCode.ABS_DISTANCE) { axes.append(.distance) }
        if hasAbs(EventCode.ABS_TILT_X) && hasAbs(EventCode.ABS_TILT_Y) { axes.append(.tilt) }
        if hasAbs(EventCode.ABS_Z) { axes.append(.rotation) }
        if hasAbs(EventCode.ABS_WHEEL) { axes.append(.slider) }
        if hasAbs(EventCode.ABS_THROTTLE) { axes.append(.wheel) }
        var buttons: [PenButton] = []
        if hasKey(EventCode.BTN_STYLUS) { buttons.append(.stylus) }
        if hasKey(EventCode.BTN_STYLUS2) { buttons.append(.stylus2) }
        if hasKey(EventCode.BTN_STYLUS3) { buttons.append(.stylus3) }
        if identity.eraserIsButton, hasKey(EventCode.BTN_TOOL_RUBBER) { buttons.append(.eraser) }
        return DeviceInfo(
            id: id, name: name, bus: bus, vendor: vendor, product: product,
            direct: hasProperty(EventCode.INPUT_PROP_DIRECT),
            widthMillimeters: millimetres(of: EventCode.ABS_X),
            heightMillimeters: millimetres(of: EventCode.ABS_Y),
            tools: tools, axes: axes, buttons: buttons, model: identity.model)
    }

    private func millimetres(of code: UInt16) -> Double? {
        guard let info = absInfo[code], info.resolution > 0, info.maximum > info.minimum else { return nil }
        return Double(info.range) / Double(info.resolution)
    }
}

extension DeviceDescription {
    /// The event types a virtual pen keeps; every other type (switches, LEDs, sounds,
    /// force feedback, key repeat) is left out.
    public static let penEventTypes: Set<UInt16> = [EventCode.EV_SYN, EventCode.EV_KEY, EventCode.EV_REL, EventCode.EV_ABS, EventCode.EV_MSC]

    /// This description without what a pen does not need and a keyboard would: keys below
    /// BTN_MISC and from KEY_OK on (letters, Ctrl, Alt, F-keys, SysRq, KEY_POWER, a tablet's
    /// express keys), and every event type but `penEventTypes`; with how many codes went.
    /// What a virtual pen (`pencilctl emulate`, a pen's mirror) declares, so that it can never
    /// type.
    /// What a pen's mirror declares (docs/gestures.md, "The mirror"): the pen's codes only; the
    /// eraser tool, which the mirror reports when it switches the pen to its eraser; and no
    /// fuzz, since the values it writes were filtered by the pen's own node and must pass
    /// unchanged.
    public func mirrorDescription() -> DeviceDescription {
        var result = keepingPenCodesOnly().0
        result.codes[EventCode.EV_KEY, default: []].insert(EventCode.BTN_TOOL_RUBBER)
        for code in result.absInfo.keys { result.absInfo[code]!.fuzz = 0 }
        return result
    }

    public func keepingPenCodesOnly() -> (DeviceDescription, removed: Int) {
        var result = self
        var removed = 0
        for (type, codes) in codes {
            if !Self.penEventTypes.contains(type) {
                removed += codes.count
                result.codes[type] = nil
            } else if type == EventCode.EV_KEY {
                let keyboard = codes.filter { $0 < 0x100 || $0 >= 0x160 }
                removed += keyboard.count
                result.codes[type] = codes.subtracting(keyboard)
            }
        }
        return (result, removed)
    }
}
