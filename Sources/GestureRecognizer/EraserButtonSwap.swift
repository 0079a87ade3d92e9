import PencilInput
import PencilProtocol

/// docs/gestures.md, "An eraser that is a button": on a pen whose eraser is a button (AES and MPP
/// pens), the firmware reports a press of that button as the pen leaving proximity and the
/// eraser entering it, and its release as the reverse. Under `eraserButton` `button` this
/// stage, the first step of a user's recogniser, turns that swap back into what the person
/// did: the pen stays in proximity and its button `eraser` goes down (or up).
///
/// Pure, like the rest of the recogniser: a pen that leaves may be the first half of a swap,
/// so its leaving is held back until the eraser enters (a swap) or `pairingWindow` passes (a
/// real leave, then reported with the time of the frame in which the pen left). The window is
/// a deadline the owner delivers, never a clock read.
///
///     idle ──pen leaves, hovering, no button held──▶ penLeft ──eraser enters, same serial──▶ swapped
///       ▲                                              │ window passes or another frame:            │
///       │◀──────────── the pen's leave reported ───────┘                                           │
///       │                                                                                          │
///       │◀── pen enters, same serial ── eraserLeft ◀── eraser leaves, hovering: buttonUp(eraser) ──┘
///       │◀── window passes or another frame: the pen's leave reported ──┘
///
/// A pen that leaves with its tip down or a barrel button held is a real leave: the firmware
/// swaps only while the pen hovers, and holding it back would delay a release past a gesture's
/// deadline. A swap within one frame (the pen's key up and the eraser's down together) is a
/// swap at once.
struct EraserButtonSwap: Sendable {
    /// The longest time between the pen leaving and the eraser entering (or back) that is one
    /// swap, in microseconds.
    static let pairingWindow: Int64 = 30_000

    enum State: Sendable, Equatable {
        /// The pen is what the firmware says it is.
        case idle
        /// The pen left at `time`: a swap if the eraser of the same serial enters in time.
        case penLeft(time: Int64)
        /// The eraser is in proximity in the pen's place: its button `eraser` is held.
        case swapped
        /// The eraser left at `time` and `eraser` was released: the pen is back if it enters
        /// in time, otherwise it left.
        case eraserLeft(time: Int64)
    }

    private(set) var state = State.idle
    /// The pen as this user's stream presents it.
    private(set) var presented: PenState
    /// The pen whose eraser is held (the tool the stream keeps seeing).
    private var pen: Tool?
    let identity: PenIdentity
    let device: String
    /// Frames made for the recogniser: at most two per input (a held leave, then the frame).
    private(set) var frames: [PenFrame] = [PenFrame(), PenFrame()]
    private(set) var frameCount = 0

    init(device: String, identity: PenIdentity, state: PenState) {
        self.device = device
        self.identity = identity
        presented = state
    }

    /// When a held leave must be reported unless a frame decides first, or nil.
    var deadline: Int64? {
        switch state {
        case .penLeft(let time), .eraserLeft(let time): return time + Self.pairingWindow + 1
        case .idle, .swapped: return nil
        }
    }

    /// True when the stage changes nothing about `frame`: the recogniser then uses the frame
    /// as it is (most frames, so the common path copies nothing).
    func passesThrough(_ frame: borrowing PenFrame) -> Bool {
        guard state == .idle, frame.kind == .report || frame.kind == .forcedProximityOut else { return frame.kind == .added }
        return !penMayBeLeavingForItsEraser(frame) && !penSwapsToItsEraser(frame)
    }

    /// Turns `frame` into the frames this user's recogniser sees (in `frames`, `frameCount`
    /// of them). Call only when `passesThrough` is false.
    mutating func transform(_ frame: borrowing PenFrame) {
        frameCount = 0
        // While idle the stream follows the device: the frames that passed through left the
        // pen where the device's previous frame did.
        if state == .idle { presented = frame.previous }
        switch frame.kind {
        case .added:
            presented = frame.current
        case .removed:
            flushHeldLeave()
            let out = beginFrame(kind: .removed, time: frame.time)
            frames[out].appendTransitions(from: presented, to: PenState(pose: presented.pose), time: frame.time, identity: identity)
            frames[out].events.append(contentsOf: frame.events.filter { $0.type == .deviceRemoved })
            finish(out, to: PenState(pose: presented.pose))
            state = .idle
            pen = nil
        case .report, .forcedProximityOut:
            transformReport(frame)
        }
    }

    /// The window passed: a held leave is a real one.
    mutating func expire() {
        frameCount = 0
        flushHeldLeave()
    }

    // MARK: Frames of the pen

    private mutating func transformReport(_ frame: borrowing PenFrame) {
        let physical = frame.current
        switch state {
        case .idle:
            if penMayBeLeavingForItsEraser(frame) {
                // Perhaps the first half of a swap: nothing yet.
                pen = frame.previous.tool
                state = .penLeft(time: frame.time)
            } else if penSwapsToItsEraser(frame) {
                // Both halves in one frame.
                pen = frame.previous.tool
                state = .swapped
                present(asPen(physical), frame)
            } else {
                presentSwitching(to: physical, frame)
            }
        case .penLeft:
            if frame.previous.tool == nil, let entering = physical.tool, isEraserOfPen(entering) {
                state = .swapped
                present(asPen(physical), frame)
            } else {
                flushHeldLeave()
                transformReport(frame)
            }
        case .swapped:
            if let tool = physical.tool, isEraserOfPen(tool) {
                present(asPen(physical), frame)
            } else if physical.tool == nil, frame.previous.tool.map(isEraserOfPen) == true,
                      !physical.tipDown, presented.buttons == .eraser, !presented.tipDown {
                // The button comes up now; whether the pen is still there, the next frames say.
                var released = presented
                released.buttons = []
                state = .eraserLeft(time: frame.time)
                present(released, frame)
            } else {
                // Back to the pen within one frame, or anything else, which is no swap: the
                // stream follows the device again.
                state = .idle
                presentSwitching(to: physical, frame)
            }
        case .eraserLeft:
            if frame.previous.tool == nil, let tool = physical.tool, let pen, tool.isSameTool(as: pen) {
                state = .idle
                presentSwitching(to: physical, frame)
            } else {
                flushHeldLeave()
                transformReport(frame)
            }
        }
        if state == .idle { pen = nil }
    }

    /// The pen leaves, and it may be half a swap: only while it hovers with no barrel button
    /// held, in a frame of the device (not the forced proximity-out).
    private func penMayBeLeavingForItsEraser(_ frame: borrowing PenFrame) -> Bool {
        frame.previous.tool?.type == .pen && frame.kind == .report && frame.current.tool == nil
            && frame.previous.isHovering && frame.previous.buttons.isEmpty && !frame.resynchronised
    }

    /// The pen's key up and its eraser's down (same serial) in one frame: both halves of a swap.
    private func penSwapsToItsEraser(_ frame: borrowing PenFrame) -> Bool {
        guard let leaving = frame.previous.tool, leaving.type == .pen, let entering = frame.current.tool else { return false }
        return entering.type == .eraser && entering.serial == leaving.serial
    }

    private func isEraserOfPen(_ tool: Tool) -> Bool {
        guard let pen else { return false }
        return tool.type == .eraser && tool.serial == pen.serial
    }

    /// The eraser in the pen's place: the pen, with its button `eraser` held.
    private func asPen(_ physical: PenState) -> PenState {
        var state = physical
        state.tool = pen
        state.buttons.insert(.eraser)
        return state
    }

    /// The pen that left (or whose eraser left) is gone: its leave, with the time it left.
    private mutating func flushHeldLeave() {
        let time: Int64
        switch state {
        case .penLeft(let left), .eraserLeft(let left): time = left
        case .idle, .swapped: return
        }
        state = .idle
        pen = nil
        let out = beginFrame(kind: .report, time: time)
        let gone = PenState(pose: presented.pose)
        frames[out].appendTransitions(from: presented, to: gone, time: time, identity: identity)
        finish(out, to: gone)
    }

    /// Back to what the device reports. A pen that returns with another id (ABS_MISC) is the
    /// same tool to the contract but not to a stream that saw the first: it leaves and enters
    /// again, in two frames.
    private mutating func presentSwitching(to next: PenState, _ frame: borrowing PenFrame) {
        if let shown = presented.tool, let tool = next.tool, shown != tool, shown.isSameTool(as: tool) {
            let out = beginFrame(kind: .report, time: frame.time)
            let gone = PenState(pose: presented.pose)
            frames[out].appendTransitions(from: presented, to: gone, time: frame.time, identity: identity)
            finish(out, to: gone)
        }
        present(next, frame)
    }

    /// One frame for the recogniser: from `presented` to `next`, at the device frame's time.
    private mutating func present(_ next: PenState, _ frame: borrowing PenFrame) {
        let out = beginFrame(kind: frame.kind, time: frame.time)
        frames[out].resynchronised = frame.resynchronised
        frames[out].appendTransitions(from: presented, to: next, time: frame.time, identity: identity)
        finish(out, to: next)
    }

    private mutating func beginFrame(kind: PenFrame.Kind, time: Int64) -> Int {
        let index = frameCount
        frameCount += 1
        if index == frames.count { frames.append(PenFrame()) }
        frames[index].reset(kind: kind, time: time)
        frames[index].device = device
        frames[index].previous = presented
        return index
    }

    private mutating func finish(_ index: Int, to next: PenState) {
        frames[index].current = next
        presented = next
    }
}
