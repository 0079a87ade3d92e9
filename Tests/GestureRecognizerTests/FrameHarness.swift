import GestureRecognizer
import PencilInput
import PencilProtocol

/// Drives a GestureRecognizer with hand-built frames, the way a PenTracker would fill them,
/// so the recogniser's rules can be tested on their own. Reads like what the person does.
struct FrameHarness {
    var recognizer: GestureRecognizer
    var pen = PenState()
    var time: Int64 = 1_000_000
    /// Gestures in order, with the replaced tool's ones where they fall.
    var gestures: [Event] = []
    var frameGestures: [Event] = []
    var replacedGestures: [Event] = []

    static let twoButtons = DeviceInfo(id: "event7", name: "Test Pen", bus: 3, vendor: 0x56a, product: 0x5b, direct: true,
                                       tools: [.pen, .eraser], axes: [.pressure], buttons: [.stylus, .stylus2])
    static let oneButton = DeviceInfo(id: "event8", name: "One-button Pen", bus: 3, vendor: 0x256c, product: 0x6d, direct: false,
                                      tools: [.pen], axes: [.pressure], buttons: [.stylus])

    static let pen = Tool(type: .pen, serial: 0x1234, id: 0x802)
    static let eraser = Tool(type: .eraser, serial: 0x1234, id: 0x80a)

    init(device: DeviceInfo = FrameHarness.twoButtons, preferences: Preferences = .defaults) throws {
        recognizer = try GestureRecognizer(device: device, preferences: preferences)
    }

    mutating func wait(ms: Int) { time += Int64(ms) * 1000 }
    mutating func wait(us: Int64) { time += us }

    /// A pose at (x, y) normalised, with millimetres from a 480 × 270 mm surface unless `mm` is false.
    static func pose(x: Double, y: Double, mm: Bool = true) -> Pose {
        var pose = Pose()
        pose.x = x
        pose.y = y
        if mm {
            pose.xMillimeters = x * 480
            pose.yMillimeters = y * 270
        }
        return pose
    }

    mutating func approach(_ tool: Tool = FrameHarness.pen, x: Double = 0.5, y: Double = 0.5, mm: Bool = true) {
        frame { $0.tool = tool; $0.pose = Self.pose(x: x, y: y, mm: mm) }
    }

    mutating func move(toX x: Double, y: Double, mm: Bool = true) {
        frame { $0.pose = Self.pose(x: x, y: y, mm: mm) }
    }

    /// Moves along X by a distance in millimetres (on the 480 mm wide surface).
    mutating func move(byMillimetersX dx: Double) {
        let x = pen.pose.x + dx / 480
        frame { $0.pose = Self.pose(x: x, y: $0.pose.y, mm: $0.pose.xMillimeters != nil) }
    }

    mutating func press(_ button: PenButton) { frame { $0.buttons.insert(ButtonSet(button)) } }
    mutating func release(_ button: PenButton) { frame { $0.buttons.remove(ButtonSet(button)) } }

    mutating func click(_ button: PenButton, holdingMs: Int = 80) {
        press(button)
        wait(ms: holdingMs)
        release(button)
    }

    mutating func touchDown() { frame { $0.tipDown = true; $0.pose.pressure = 0.5 } }
    mutating func lift() { frame { $0.tipDown = false; $0.pose.pressure = 0 } }

    /// The tool leaves; held buttons are released with it, the pose stays the last one.
    mutating func leave(kind: PenFrame.Kind = .report) {
        frame(kind: kind) { $0.tool = nil; $0.tipDown = false; $0.buttons = [] }
    }

    /// Another tool comes into proximity (with the buttons now held, if any).
    mutating func flip(to tool: Tool, holding buttons: ButtonSet = []) {
        let old = pen.tool
        frame(replaced: old) { $0.tool = tool; $0.buttons = buttons }
    }

    /// SYN_DROPPED: the next frame is resynchronised to `change`.
    mutating func dropEvents(_ change: (inout PenState) -> Void = { _ in }) {
        frame(resynchronised: true, change)
    }

    mutating func unplug() {
        frame(kind: .removed) { $0.tool = nil; $0.tipDown = false; $0.buttons = [] }
    }

    /// Fires the recogniser's deadline if it is due by now, as the pipeline would.
    mutating func advanceClock() {
        frameGestures.removeAll()
        recognizer.advance(to: time, into: &frameGestures)
        gestures += frameGestures
    }

    mutating func frame(kind: PenFrame.Kind = .report, replaced: Tool? = nil, resynchronised: Bool = false,
                        _ change: (inout PenState) -> Void) {
        advanceClock()
        var frame = PenFrame()
        frame.reset(kind: kind, time: time)
        frame.device = recognizer.device.id
        frame.previous = pen
        change(&pen)
        frame.current = pen
        frame.replacedTool = replaced
        frame.resynchronised = resynchronised
        frame.pressed = pen.buttons.subtracting(frame.previous.buttons)
        frame.released = frame.previous.buttons.subtracting(pen.buttons)
        frameGestures.removeAll()
        replacedGestures.removeAll()
        recognizer.process(frame, gestures: &frameGestures, replacedGestures: &replacedGestures)
        gestures += replacedGestures
        gestures += frameGestures
    }

    /// The gestures as short words: "doubleTap switchEraser", "squeeze began", ...
    var summary: [String] { gestures.map(\.summary) }
}

extension Event {
    var summary: String {
        if let gesture = Gesture(type) {
            // "doubleTap switchEraser", "squeeze began", "squeeze ended showContextualPalette".
            guard gesture.isPhased else { return "\(type.rawValue) \(action?.rawValue ?? "-")" }
            return "\(type.rawValue) \(phase?.rawValue ?? "-")" + (action.map { " \($0.rawValue)" } ?? "")
        }
        switch type {
        case .hover: return "hover \(phase?.rawValue ?? "-")"
        case .buttonDown, .buttonUp: return "\(type.rawValue) \(button?.rawValue ?? "-")"
        default: return type.rawValue
        }
    }

    var isGesture: Bool { Gesture(type) != nil }
}

func preferences(_ change: (inout Preferences) -> Void) -> Preferences {
    var result = Preferences.defaults
    change(&result)
    return result
}
