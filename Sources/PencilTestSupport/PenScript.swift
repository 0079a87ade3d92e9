import PencilInput
import PencilProtocol

/// A script of what a person does with a pen, turned into the evdev events a device of the
/// given description would send: tool keys, MSC_SERIAL, ABS_*, BTN_* and SYN_REPORT, each
/// frame stamped with the script's clock.
///
///     var pen = PenScript(device: cintiq)
///     pen.approach(x: 0.5, y: 0.5)
///     pen.wait(ms: 20)
///     pen.click(.stylus, holdingMs: 80)
///     pen.touchDown(pressure: 0.5)
///     pen.move(toX: 0.6, y: 0.5)
///     pen.lift()
///     pen.leave()
///
/// Actions happen at the current time; only `wait` moves the clock. A device without tool
/// keys has no way to say the pen left: `leave()` then sends nothing and the tracker's
/// forced proximity-out ends the proximity. Codes the device lacks are never sent.
public struct PenScript: Sendable {
    public let device: DeviceDescription
    /// Everything sent so far, in order.
    public private(set) var events: [InputEvent] = []
    /// The script's clock, in microseconds.
    public private(set) var time: Int64
    /// The tool in proximity, as the device was told.
    public private(set) var tool: ToolType?
    public private(set) var serial: Int64 = 0
    public private(set) var x = 0.5
    public private(set) var y = 0.5
    public private(set) var pressure = 0.0
    public private(set) var buttons: ButtonSet = []
    /// Set by `unplug()`: later actions are ignored.
    public private(set) var isUnplugged = false

    public init(device: DeviceDescription, startingAt time: Int64 = 1_000_000) {
        self.device = device
        self.time = time
    }

    // MARK: Time

    public mutating func wait(ms: Int) { time += Int64(ms) * 1000 }
    public mutating func wait(us: Int64) { time += us }

    // MARK: Proximity

    /// The tool comes into range above (x, y), normalised 0..1.
    public mutating func approach(x: Double = 0.5, y: Double = 0.5, tool: ToolType = .pen, serial: Int64 = 0x1234, distance: Double = 0.5) {
        guard !isUnplugged else { return }
        self.x = x
        self.y = y
        self.serial = serial
        self.tool = tool
        if let toolKey = Self.key(of: tool), device.hasKey(toolKey) {
            key(toolKey, down: true)
        }
        if device.hasAbs(EventCode.ABS_MISC) { abs(EventCode.ABS_MISC, Int32(truncatingIfNeeded: toolID(of: tool))) }
        position()
        if device.hasAbs(EventCode.ABS_DISTANCE) { abs(EventCode.ABS_DISTANCE, scaled(distance, EventCode.ABS_DISTANCE)) }
        report()
    }

    /// The tool goes out of range. Like a Wacom, the leaving frame zeroes the axes (pencild
    /// must not apply them). Held buttons stay down unless `releasingButtons`.
    public mutating func leave(releasingButtons: Bool = false) {
        guard !isUnplugged, let tool else { return }
        guard let toolKey = Self.key(of: tool), device.hasKey(toolKey) else {
            self.tool = nil
            return
        }
        if releasingButtons {
            for button in buttons.buttons { if let code = Self.key(of: button) { key(code, down: false) } }
            buttons = []
        }
        for code in [EventCode.ABS_X, EventCode.ABS_Y, EventCode.ABS_DISTANCE, EventCode.ABS_TILT_X, EventCode.ABS_TILT_Y, EventCode.ABS_MISC]
        where device.hasAbs(code) {
            abs(code, 0)
        }
        key(toolKey, down: false)
        report()
        self.tool = nil
    }

    /// Turns the pen around (or picks up another tool) while in range: the new tool's key goes
    /// down while the old one is still down, then the old one comes up in the next frame.
    public mutating func flip(to newTool: ToolType, serial newSerial: Int64? = nil) {
        guard !isUnplugged, let oldTool = tool else { return }
        let oldKey = Self.key(of: oldTool)
        tool = newTool
        if let newSerial { serial = newSerial }
        if let newKey = Self.key(of: newTool), device.hasKey(newKey) {
            key(newKey, down: true)
        }
        if device.hasAbs(EventCode.ABS_MISC) { abs(EventCode.ABS_MISC, Int32(truncatingIfNeeded: toolID(of: newTool))) }
        position()
        report()
        if let oldKey, device.hasKey(oldKey), oldKey != Self.key(of: newTool) {
            key(oldKey, down: false)
            report()
        }
    }

    // MARK: Tip

    /// The tip touches the surface with `pressure` (0..1).
    public mutating func touchDown(pressure: Double = 0.5) {
        guard !isUnplugged else { return }
        self.pressure = pressure
        if device.hasKey(EventCode.BTN_TOUCH) { key(EventCode.BTN_TOUCH, down: true) }
        if device.hasAbs(EventCode.ABS_PRESSURE) { abs(EventCode.ABS_PRESSURE, scaled(pressure, EventCode.ABS_PRESSURE)) }
        report()
    }

    /// Changes the pressure while touching.
    public mutating func press(pressure: Double) {
        guard !isUnplugged else { return }
        self.pressure = pressure
        if device.hasAbs(EventCode.ABS_PRESSURE) { abs(EventCode.ABS_PRESSURE, scaled(pressure, EventCode.ABS_PRESSURE)) }
        report()
    }

    public mutating func lift() {
        guard !isUnplugged else { return }
        pressure = 0
        if device.hasAbs(EventCode.ABS_PRESSURE) { abs(EventCode.ABS_PRESSURE, scaled(0, EventCode.ABS_PRESSURE)) }
        if device.hasKey(EventCode.BTN_TOUCH) { key(EventCode.BTN_TOUCH, down: false) }
        report()
    }

    // MARK: Motion

    /// One frame at the new position (normalised 0..1).
    public mutating func move(toX x: Double, y: Double) {
        guard !isUnplugged else { return }
        self.x = x
        self.y = y
        position()
        report()
    }

    /// A straight line to (x, y) in `steps` frames spread over `ms`.
    public mutating func move(toX x: Double, y: Double, overMs ms: Int, steps: Int) {
        let steps = max(steps, 1)
        let startX = self.x, startY = self.y
        for step in 1...steps {
            wait(us: Int64(ms) * 1000 / Int64(steps))
            let fraction = Double(step) / Double(steps)
            move(toX: startX + (x - startX) * fraction, y: startY + (y - startY) * fraction)
        }
    }

    /// Moves by a distance in millimetres; the device's X and Y need a resolution.
    public mutating func move(byMillimetersX dx: Double, y dy: Double = 0) {
        let unitsX = Double(device.absInfo[EventCode.ABS_X]?.resolution ?? 0)
        let unitsY = Double(device.absInfo[EventCode.ABS_Y]?.resolution ?? 0)
        guard unitsX > 0, unitsY > 0, let rangeX = device.absInfo[EventCode.ABS_X]?.range, let rangeY = device.absInfo[EventCode.ABS_Y]?.range,
              rangeX > 0, rangeY > 0 else { return }
        move(toX: x + dx * unitsX / Double(rangeX), y: y + dy * unitsY / Double(rangeY))
    }

    /// Tilts the pen (degrees), where the device has tilt.
    public mutating func tilt(x degreesX: Double, y degreesY: Double) {
        guard !isUnplugged else { return }
        for (code, degrees) in [(EventCode.ABS_TILT_X, degreesX), (EventCode.ABS_TILT_Y, degreesY)] {
            guard let info = device.absInfo[code], device.hasAbs(code) else { continue }
            let value = info.resolution > 0 ? degrees * .pi / 180 * Double(info.resolution) : degrees
            abs(code, Self.clamp(value.rounded(), info))
        }
        report()
    }

    // MARK: Barrel buttons

    /// A barrel button goes down. The eraser button of a pen whose eraser is a button is a
    /// tool swap, as its firmware sends it: the pen leaves, and the eraser enters
    /// `eraserSwapGapMs` later.
    public mutating func press(_ button: PenButton) { setButton(button, down: true) }

    public mutating func release(_ button: PenButton) { setButton(button, down: false) }

    private mutating func setButton(_ button: PenButton, down: Bool) {
        guard !isUnplugged else { return }
        if down { buttons.insert(ButtonSet(button)) } else { buttons.remove(ButtonSet(button)) }
        guard let code = Self.key(of: button) else {
            swapTool(to: down ? .eraser : .pen)
            return
        }
        key(code, down: down)
        report()
    }

    /// How long the firmware of a pen with an eraser button takes between the frame in which
    /// one tool leaves and the one in which the other enters.
    public var eraserSwapGapMs = 2

    /// The firmware's swap between the pen and its eraser button: the old tool's key up in a
    /// frame of its own, then the new tool's key down with its id and position.
    private mutating func swapTool(to newTool: ToolType) {
        guard let oldTool = tool, let oldKey = Self.key(of: oldTool), let newKey = Self.key(of: newTool),
              device.hasKey(oldKey), device.hasKey(newKey) else { return }
        key(oldKey, down: false)
        report()
        wait(ms: eraserSwapGapMs)
        tool = newTool
        key(newKey, down: true)
        if device.hasAbs(EventCode.ABS_MISC) { abs(EventCode.ABS_MISC, Int32(truncatingIfNeeded: toolID(of: newTool))) }
        position()
        report()
    }

    /// Press, hold for `holdingMs`, release.
    public mutating func click(_ button: PenButton, holdingMs: Int = 80) {
        press(button)
        wait(ms: holdingMs)
        release(button)
    }

    // MARK: Trouble

    /// The kernel's buffer overflowed: SYN_DROPPED, then the report that ends the lost events.
    public mutating func dropEvents() {
        guard !isUnplugged else { return }
        append(EventCode.EV_SYN, EventCode.SYN_DROPPED, 0)
        report()
    }

    /// The device goes away: the script ends here (later actions are ignored).
    public mutating func unplug() {
        isUnplugged = true
    }

    // MARK: Encoding

    public static func key(of tool: ToolType) -> UInt16? { tool.keyCode }

    /// The key of a barrel button; nil for `eraser`, which the firmware reports as a tool swap.
    public static func key(of button: PenButton) -> UInt16? {
        switch button {
        case .stylus: return EventCode.BTN_STYLUS
        case .stylus2: return EventCode.BTN_STYLUS2
        case .stylus3: return EventCode.BTN_STYLUS3
        case .eraser: return nil
        }
    }

    /// The tool ids the device reports in ABS_MISC, where a script wants its own (a Pro Pen 3's
    /// 0x200); the others are Wacom-like ids.
    public var toolIDs: [ToolType: Int64] = [:]

    func toolID(of tool: ToolType) -> Int64 { toolIDs[tool] ?? Self.toolID(of: tool) }

    /// Wacom-like tool ids (ABS_MISC), so scripts exercise the field.
    static func toolID(of tool: ToolType) -> Int64 {
        switch tool {
        case .pen: return 0x802
        case .eraser: return 0x80a
        case .brush: return 0x902
        case .pencil: return 0x812
        case .airbrush: return 0x902 + 0x10
        case .mouse: return 0x006
        case .lens: return 0x096
        }
    }

    private mutating func position() {
        if device.hasAbs(EventCode.ABS_X) { abs(EventCode.ABS_X, scaled(x, EventCode.ABS_X)) }
        if device.hasAbs(EventCode.ABS_Y) { abs(EventCode.ABS_Y, scaled(y, EventCode.ABS_Y)) }
    }

    private func scaled(_ fraction: Double, _ code: UInt16) -> Int32 {
        guard let info = device.absInfo[code] else { return 0 }
        return Self.clamp((Double(info.minimum) + fraction * Double(info.range)).rounded(), info)
    }

    private static func clamp(_ value: Double, _ info: AbsInfo) -> Int32 {
        Int32(min(max(value, Double(info.minimum)), Double(info.maximum)))
    }

    private mutating func key(_ code: UInt16, down: Bool) {
        append(EventCode.EV_KEY, code, down ? 1 : 0)
    }

    private mutating func abs(_ code: UInt16, _ value: Int32) {
        append(EventCode.EV_ABS, code, value)
    }

    /// Ends a frame; a Wacom sends the tool's serial in every frame while it is in range.
    private mutating func report() {
        if tool != nil, serial != 0, device.has(type: EventCode.EV_MSC, code: EventCode.MSC_SERIAL) {
            append(EventCode.EV_MSC, EventCode.MSC_SERIAL, Int32(truncatingIfNeeded: serial))
        }
        append(EventCode.EV_SYN, EventCode.SYN_REPORT, 0)
    }

    private mutating func append(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: time, type: type, code: code, value: value))
    }
}
