import PencilProtocol

/// Preferences resolved against one device: which button drives which machine, and every
/// threshold in the units the machines compare (microseconds, and a slop ready to test).
struct GestureSettings: Sendable, Equatable {
    /// The button whose clicks make double-taps (and whose long hold is a squeeze under
    /// longPress); nil when tapButton is `none`.
    var tapButton: PenButton?
    /// A dedicated squeeze button the device has; nil under longPress or `none`.
    var squeezeButton: PenButton?
    /// The squeeze is a long hold of tapButton.
    var longPress: Bool
    var tapMaxDuration: Int64
    var doubleTapInterval: Int64
    var longPressDuration: Int64
    var slop: Slop
    /// Each gesture's preferred action (`action(for:)`).
    var actions: [Gesture: PreferredAction]
    /// The firmware's swap between the pen and its eraser is the button `eraser` (the device's
    /// eraser is a button and the user chose `eraserButton` `button`).
    var eraserIsButton: Bool

    /// docs/gestures.md: a squeezeButton the device lacks acts as longPress.
    init(preferences: Preferences, device: DeviceInfo) {
        tapButton = preferences.tapButton.button
        switch preferences.squeezeButton {
        case .none:
            squeezeButton = nil
            longPress = false
        case .longPress:
            squeezeButton = nil
            longPress = tapButton != nil
        case .stylus, .stylus2, .stylus3, .eraser:
            let wanted = preferences.squeezeButton.button
            if let wanted, device.buttons.contains(wanted) {
                squeezeButton = wanted
                longPress = false
            } else {
                squeezeButton = nil
                longPress = tapButton != nil
            }
        }
        // Validated preferences keep these products far from overflow.
        tapMaxDuration = Int64(preferences.tapMaxDuration) * 1000
        doubleTapInterval = Int64(preferences.doubleTapInterval) * 1000
        longPressDuration = Int64(preferences.longPressDuration) * 1000
        slop = Slop(millimeters: preferences.doubleTapSlop)
        actions = Dictionary(uniqueKeysWithValues: Gesture.allCases.map { ($0, preferences.action(for: $0)) })
        eraserIsButton = preferences.eraserButton == .button && device.buttons.contains(.eraser)
    }

    /// The action the user prefers for `gesture`.
    func action(for gesture: Gesture) -> PreferredAction {
        actions[gesture] ?? .ignore // every gesture has its entry
    }

    /// Settings that change what is recognised (as opposed to the actions it reports).
    func recognisesSameGestures(as other: GestureSettings) -> Bool {
        tapButton == other.tapButton && squeezeButton == other.squeezeButton && longPress == other.longPress
            && tapMaxDuration == other.tapMaxDuration && doubleTapInterval == other.doubleTapInterval
            && longPressDuration == other.longPressDuration && slop == other.slop && eraserIsButton == other.eraserIsButton
    }
}

/// The doubleTapSlop rule of docs/gestures.md: millimetres when both poses have them, otherwise
/// each millimetre counts as 0.25 % of the normalised diagonal (√2).
struct Slop: Sendable, Equatable {
    var millimeters: Double

    static let normalisedPerMillimeter = 0.0025 * 2.0.squareRoot()

    /// True when `b` lies within the slop around `a`.
    func contains(_ a: Pose, _ b: Pose) -> Bool {
        if let ax = a.xMillimeters, let ay = a.yMillimeters, let bx = b.xMillimeters, let by = b.yMillimeters {
            return Self.length(bx - ax, by - ay) <= millimeters
        }
        return Self.length(b.x - a.x, b.y - a.y) <= millimeters * Self.normalisedPerMillimeter
    }

    private static func length(_ dx: Double, _ dy: Double) -> Double {
        (dx * dx + dy * dy).squareRoot()
    }
}
