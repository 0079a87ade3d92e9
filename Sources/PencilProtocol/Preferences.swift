/// The user's choices for gestures (docs/protocol.md "Preferences", defaults in docs/gestures.md).

extension TapButton {
    /// The barrel button it names; nil for `none`.
    public var button: PenButton? { PenButton(rawValue: rawValue) }
}

extension SqueezeButton {
    /// The barrel button it names; nil for `longPress` and `none`.
    public var button: PenButton? { PenButton(rawValue: rawValue) }
}

public struct Preferences: Equatable, Sendable {
    public var doubleTapAction: PreferredAction = .switchEraser
    public var squeezeAction: PreferredAction = .showContextualPalette
    public var tapButton: TapButton = .stylus
    public var squeezeButton: SqueezeButton = .stylus2
    /// Milliseconds.
    public var tapMaxDuration: Int = 300
    /// Milliseconds, from the first press to the second.
    public var doubleTapInterval: Int = 400
    /// Milliseconds.
    public var longPressDuration: Int = 500
    /// Millimetres.
    public var doubleTapSlop: Double = 4
    /// Apps receive the gesture buttons' clicks unless this is true (docs/gestures.md, "What apps
    /// receive: gesture clicks withheld").
    public var withholdGestureClicks = true
    public var eraserButton: EraserButtonMode = .eraser
    /// Apple's preferences, which pencild only stores and reports: an app draws only with the
    /// pen (fingers scroll), and previews its tool under a hovering pen.
    public var prefersPencilOnlyDrawing = false
    public var prefersHoverToolPreview = true
    /// While no app holds the focus, switchEraser and switchPrevious are performed through the
    /// pen's mirror (docs/gestures.md, "The pen switches tool through its mirror").
    public var mirrorSwitchesTool = true

    public init() {}

    public static let defaults = Preferences()

    /// The accepted range of each duration, in milliseconds, and of the slop, in millimetres.
    public static let durationRange: ClosedRange<Int> = 1...10_000
    public static let slopRange: ClosedRange<Double> = 0...1_000

    /// Checks every field; the first bad one is named. Values are never clamped.
    public func validate() throws(InvalidPreferences) {
        for (field, value) in [("tapMaxDuration", tapMaxDuration), ("doubleTapInterval", doubleTapInterval), ("longPressDuration", longPressDuration)] {
            guard Self.durationRange.contains(value) else {
                throw InvalidPreferences(field: field, reason: "must be between \(Self.durationRange.lowerBound) and \(Self.durationRange.upperBound) milliseconds, not \(value)")
            }
        }
        guard doubleTapSlop.isFinite, Self.slopRange.contains(doubleTapSlop) else {
            throw InvalidPreferences(field: "doubleTapSlop", reason: "must be between 0 and \(Int(Self.slopRange.upperBound)) millimetres")
        }
        if let tap = tapButton.button, let squeeze = squeezeButton.button, tap == squeeze {
            throw InvalidPreferences(field: "squeezeButton", reason: "tapButton and squeezeButton may not name the same button (\(tap.rawValue))")
        }
        if squeezeButton == .longPress, tapButton == .none {
            throw InvalidPreferences(field: "squeezeButton", reason: "longPress is a long hold of tapButton, which is none")
        }
    }
}

/// docs/protocol.md: `org.pencild.Pen.InvalidPreferences(field, reason)`.
public struct InvalidPreferences: Error, Equatable, Sendable, CustomStringConvertible {
    public var field: String
    public var reason: String
    public var description: String { "\(field): \(reason)" }
}
