import PencilClient
import PencilProtocol
import PencilSystem

/// What the watch view shows, from the events alone.
struct WatchModel {
    struct Mark: Equatable {
        var x: Double
        var y: Double
        var pressure: Double
    }

    let socketPath: String
    var devices: [String: DeviceInfo] = [:]
    /// The device of the last pen event.
    var device: String?
    /// The device shown last, after it went away (until another one comes).
    var departed: DeviceInfo?
    var tool: Tool?
    /// Which pen the tool is, when libwacom knows it (from its proximityIn).
    var stylus: Stylus?
    var tipDown = false
    var buttons: [PenButton] = []
    var pose = Pose()
    var gesture: String?
    var gestureTime: Int64 = 0
    var squeezing = false
    var status: String?
    var origin: Int64?
    /// Where the tip touched, oldest first; bounded so that a long session cannot grow it.
    private(set) var marks: [Mark] = []
    static let maximumMarks = 8192

    init(socketPath: String) { self.socketPath = socketPath }

    mutating func reset() {
        self = WatchModel(socketPath: socketPath)
    }

    mutating func clearCanvas() { marks.removeAll(keepingCapacity: true) }

    /// pencild's demo pen, when one is attached (docs/protocol.md names it `demo0`, `demo1`, ...):
    /// the one pen that makes a gesture when asked.
    var demoPen: String? { devices.keys.sorted().first { $0.hasPrefix("demo") } }

    mutating func apply(_ event: Event) {
        if origin == nil { origin = event.time }
        switch event.type {
        case .deviceAdded:
            if let info = event.deviceInfo { devices[info.id] = info }
            if device == nil { device = event.device }
            departed = nil
        case .deviceRemoved:
            if let id = event.device {
                if id == device { departed = devices[id] }
                devices[id] = nil
            }
            if event.device == device {
                device = devices.keys.sorted().first
                tool = nil
                tipDown = false
                buttons = []
            }
        case .preferencesChanged:
            status = "preferences changed"
        case .deviceChanged:
            if let info = event.deviceInfo { devices[info.id] = info }
        default:
            device = event.device ?? device
        }
        if let pose = event.pose { self.pose = pose }
        switch event.type {
        case .proximityIn:
            tool = event.tool
            stylus = event.stylus
        case .proximityOut:
            tool = nil
            stylus = nil
            tipDown = false
            buttons = []
        case .tipDown:
            tipDown = true
            mark()
        case .tipUp:
            tipDown = false
        case .motion:
            mark()
        case .buttonDown:
            if let button = event.button, !buttons.contains(button) { buttons.append(button) }
        case .buttonUp:
            buttons.removeAll { $0 == event.button }
        default:
            guard let gesture = Gesture(event.type) else { break }
            let name = gesture.rawValue, action = event.action?.rawValue ?? "?"
            guard gesture.isPhased else {
                setGesture("\(name) → \(action)", at: event.time)
                break
            }
            switch event.phase {
            case .began: squeezing = true; setGesture("\(name) began", at: event.time)
            case .ended: squeezing = false; setGesture("\(name) ended → \(action)", at: event.time)
            case .cancelled: squeezing = false; setGesture("\(name) cancelled", at: event.time)
            default: break
            }
        }
    }

    private mutating func setGesture(_ text: String, at time: Int64) {
        gesture = text
        gestureTime = time
    }

    private mutating func mark() {
        if marks.count >= Self.maximumMarks { marks.removeFirst(marks.count / 4) }
        marks.append(Mark(x: pose.x, y: pose.y, pressure: pose.pressure))
    }
}
