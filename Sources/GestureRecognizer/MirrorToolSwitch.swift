import PencilInput
import PencilProtocol

/// docs/gestures.md, "The pen switches tool through its mirror": while the switch holds, the
/// mirror reports the pen's tip as its eraser end, so that every tablet app switches to its
/// eraser (and its eraser's tool, brush and size) with nothing to configure.
///
/// Pure, a part of `MirrorRouter`: it rewrites the evdev events the router wrote for a step and
/// appends the frames of a switch. The switch is written as an AES pen's firmware reports its
/// eraser button, which libinput and the compositors already handle: the tip's tool leaves, the
/// eraser enters at the same place (the kernel keeps every axis's value), with the eraser's
/// identity: libwacom's eraser for the stylus, with its tool id and the stylus's serial, where
/// it has one; otherwise BTN_TOOL_RUBBER with the pen's own ids.
///
///     tip ──request──▶ (tip down: wanting) ──tip lifts──▶ eraser ──request──▶ (tip down: wanting) ──tip lifts──▶ tip
///      ▲    tip up, or no tip in range: at once ──────────▲  │                                                     │
///      │                                                     └───── tip up, or no tip in range: at once ───────────┘
///      └── a request while wanting takes the wish back (a second double-tap before the lift)
///
/// A request by name (SetTipTool) moves along the same edges, or nowhere when the tip already
/// is, or waits to be, what it asks for.
///
/// The real eraser end passes as itself: turning the pen over never changes the switch, and the
/// switch lasts across proximity out and in. It ends with the router (the pen gone, another
/// deciding user, the mirror let go).
struct MirrorToolSwitch: Sendable {
    /// The tip is reported as the eraser.
    private(set) var reportsEraser = false
    /// What the person asked for last; differs from `reportsEraser` while a tip is down.
    private(set) var wantsEraser = false
    /// The eraser tool id of each pen tool id (libwacom's pairs).
    private let eraserIDs: [Int64: Int64]
    /// The tool in proximity and its tip, as the frames so far had them.
    private var tool: Tool?
    private var tipDown = false

    init(identity: PenIdentity) {
        eraserIDs = identity.eraserIDs
    }

    /// A switchEraser or switchPrevious the mirror performs: with two tools, both flip.
    mutating func request() { wantsEraser.toggle() }

    /// A tool asked for by name (SetTipTool): the eraser, or the tip as itself.
    mutating func request(eraser: Bool) { wantsEraser = eraser }

    /// The switch differs from what is written, and can be written now.
    var isDue: Bool { wantsEraser != reportsEraser && !tipDown }

    /// Rewrites the events the router appended for one frame (from `start`), then appends the
    /// switch's two frames when it is due. `tool` and `tipDown`: the pen after that frame (the
    /// two fields alone: a whole PenState would be copied each frame).
    mutating func rewrite(_ output: inout [InputEvent], from start: Int, tool newTool: Tool?, tipDown newTipDown: Bool, time: Int64) {
        // While no switch is active this is all a frame costs (docs/benchmarks.md).
        if reportsEraser { rewriteAsEraser(&output, from: start, newTool: newTool) }
        tool = newTool
        tipDown = newTipDown
        if wantsEraser != reportsEraser { appendDueSwitch(to: &output, time: time) }
    }

    /// The tip's own frames, as the eraser's (its leaving included); the real eraser's pass as
    /// they are. Kept out of line, so that callgrind shows what a switched frame costs.
    @inline(never)
    private func rewriteAsEraser(_ output: inout [InputEvent], from start: Int, newTool: Tool?) {
        let tipTool = [tool, newTool].lazy.compactMap { $0 }.first(where: Self.isTip)
        for index in output.indices[start...] {
            let event = output[index]
            if event.type == EventCode.EV_KEY, Self.isTipCode(event.code) {
                output[index] = InputEvent(time: event.time, type: event.type, code: EventCode.BTN_TOOL_RUBBER, value: event.value)
            } else if event.type == EventCode.EV_ABS, event.code == EventCode.ABS_MISC, let tipTool, tipTool.id != 0,
                      Int64(event.value) == tipTool.id {
                output[index] = InputEvent(time: event.time, type: event.type, code: event.code, value: Int32(truncatingIfNeeded: eraserID(of: tipTool)))
            }
        }
    }

    /// Writes the switch if it is due (the tip lifted, or a request with the tip up).
    mutating func appendDueSwitch(to output: inout [InputEvent], time: Int64) {
        guard isDue else { return }
        reportsEraser = wantsEraser
        // No tip in range (none at all, or the real eraser end): the next one enters as switched.
        guard let tool, Self.isTip(tool) else { return }
        let tipCode = tool.type.keyCode
        let leaving = reportsEraser ? tipCode : EventCode.BTN_TOOL_RUBBER
        let entering = reportsEraser ? EventCode.BTN_TOOL_RUBBER : tipCode
        let enteringID = reportsEraser ? eraserID(of: tool) : tool.id
        output.append(InputEvent(time: time, type: EventCode.EV_KEY, code: leaving, value: 0))
        if tool.id != 0 { output.append(InputEvent(time: time, type: EventCode.EV_ABS, code: EventCode.ABS_MISC, value: 0)) }
        output.append(InputEvent(time: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
        output.append(InputEvent(time: time, type: EventCode.EV_KEY, code: entering, value: 1))
        if tool.id != 0 {
            output.append(InputEvent(time: time, type: EventCode.EV_ABS, code: EventCode.ABS_MISC, value: Int32(truncatingIfNeeded: enteringID)))
        }
        if tool.serial != 0 {
            output.append(InputEvent(time: time, type: EventCode.EV_MSC, code: EventCode.MSC_SERIAL, value: Int32(truncatingIfNeeded: tool.serial)))
        }
        output.append(InputEvent(time: time, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0))
    }

    /// The eraser end's tool id of a pen tool: libwacom's, else the pen's own.
    private func eraserID(of tool: Tool) -> Int64 { eraserIDs[tool.id] ?? tool.id }

    /// A tip that can be reported as the eraser: pens, brushes, pencils, airbrushes (not the
    /// eraser itself, not a mouse or lens).
    static func isTip(_ tool: Tool) -> Bool {
        switch tool.type {
        case .pen, .brush, .pencil, .airbrush: return true
        case .eraser, .mouse, .lens: return false
        }
    }

    static func isTipCode(_ code: UInt16) -> Bool {
        code == EventCode.BTN_TOOL_PEN || code == EventCode.BTN_TOOL_BRUSH || code == EventCode.BTN_TOOL_PENCIL
            || code == EventCode.BTN_TOOL_AIRBRUSH
    }
}
