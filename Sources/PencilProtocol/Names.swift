// Generated from interfaces/org.pencild.Pen.varlink by scripts/generate-from-interface: do not edit.
// The daemon's enums of the interface's names: closed, in the interface's order.

/// A tool's type (docs/protocol.md, Device.tools and Tool.type).
public enum ToolType: String, Sendable, CaseIterable, KnownName {
    case pen, eraser, brush, pencil, airbrush, mouse, lens
}

/// An axis a device reports (docs/protocol.md, Device.axes).
public enum AxisName: String, Sendable, CaseIterable, KnownName {
    case pressure, distance, tilt, rotation, slider, wheel
}

/// A barrel button, by its protocol name. `eraser` is the button of a pen whose eraser is a
/// button (docs/gestures.md, "An eraser that is a button"): the firmware reports it as a tool swap,
/// and a user's recogniser turns the swap back into this button under `eraserButton` `button`.
public enum PenButton: String, Sendable, CaseIterable, KnownName {
    case stylus, stylus2, stylus3
    /// (on a pen whose eraser is a button)
    case eraser
}

/// What kind of stylus libwacom says a tool is (docs/protocol.md, "Stylus").
public enum StylusKind: String, Sendable, CaseIterable, KnownName {
    case general, inking, airbrush, classic, marker, stroke, puck, mobile
    /// (libwacom does not say)
    case unknown
}

/// What a stylus has for an eraser: none, the other end (`invert`), or a button that the
/// firmware reports as the eraser tool.
public enum EraserKind: String, Sendable, CaseIterable, KnownName {
    case none
    /// (the other end)
    case invert
    /// (a button that the firmware reports as the eraser tool)
    case button
}

/// Apple's UIPencilPreferredAction, by name.
public enum PreferredAction: String, Sendable, CaseIterable, KnownName {
    case ignore, switchEraser, switchPrevious, showColorPalette, showInkAttributes, showContextualPalette, runSystemShortcut
}

/// The button whose double-click is a double-tap (preference `tapButton`).
public enum TapButton: String, Sendable, CaseIterable, KnownName {
    case stylus, stylus2, stylus3, eraser, none
}

/// What makes a squeeze (preference `squeezeButton`): holding a button, or a long press of the tap button.
public enum SqueezeButton: String, Sendable, CaseIterable, KnownName {
    case stylus, stylus2, stylus3, eraser, longPress, none
}

/// On a pen whose eraser is a button (docs/gestures.md, "An eraser that is a button"): the eraser
/// tool, as the firmware reports it, or a barrel button named `eraser` (preference `eraserButton`).
public enum EraserButtonMode: String, Sendable, CaseIterable, KnownName {
    case eraser, button
}

/// What an event reports (docs/protocol.md, "Event").
public enum EventType: String, Sendable, CaseIterable, KnownName {
    case deviceAdded, deviceRemoved, proximityIn, proximityOut, tipDown, tipUp, motion, hover, buttonDown, buttonUp, doubleTap, squeeze, preferencesChanged, deviceChanged
}

/// The phase of a hover or a squeeze.
public enum Phase: String, Sendable, CaseIterable, KnownName {
    case began, changed, ended, cancelled
}

/// A gesture the recogniser makes (docs/gestures.md): reported by the event type of its name,
/// its action the user's preference `<gesture>Action`.
public enum Gesture: String, Sendable, CaseIterable, KnownName {
    /// (one-shot: acted on when it arrives)
    case doubleTap
    /// (phased: began, changed, then ended or cancelled; acted on when it ends)
    case squeeze
}

/// Which app acts on a gesture (docs/protocol.md, "Which app acts (focus)"), as seen by the stream
/// that receives it.
public enum Focus: String, Sendable, CaseIterable, KnownName {
    /// (the receiving process holds its user's focus)
    case this
    /// (another process of that user does)
    case other
    /// (nobody claimed it)
    case none
    /// (pencild performed it through the pen's mirror)
    case pen
}

extension EventType {
    /// The event's JSON up to its time, `{"type":"<name>","time":`, copied in one piece.
    public var jsonOpening: StaticString {
        switch self {
        case .deviceAdded: #"{"type":"deviceAdded","time":"#
        case .deviceRemoved: #"{"type":"deviceRemoved","time":"#
        case .proximityIn: #"{"type":"proximityIn","time":"#
        case .proximityOut: #"{"type":"proximityOut","time":"#
        case .tipDown: #"{"type":"tipDown","time":"#
        case .tipUp: #"{"type":"tipUp","time":"#
        case .motion: #"{"type":"motion","time":"#
        case .hover: #"{"type":"hover","time":"#
        case .buttonDown: #"{"type":"buttonDown","time":"#
        case .buttonUp: #"{"type":"buttonUp","time":"#
        case .doubleTap: #"{"type":"doubleTap","time":"#
        case .squeeze: #"{"type":"squeeze","time":"#
        case .preferencesChanged: #"{"type":"preferencesChanged","time":"#
        case .deviceChanged: #"{"type":"deviceChanged","time":"#
        }
    }
}

extension Gesture {
    /// The event type that reports the gesture.
    public var eventType: EventType {
        switch self {
        case .doubleTap: .doubleTap
        case .squeeze: .squeeze
        }
    }

    /// The gesture an event of `type` reports; nil for an event that reports none.
    public init?(_ type: EventType) {
        switch type {
        case .doubleTap: self = .doubleTap
        case .squeeze: self = .squeeze
        default: return nil
        }
    }

    /// A phased gesture (began, changed, then ended or cancelled) is acted on when it ends, and
    /// keeps the focus it began with; a one-shot gesture is acted on when it arrives.
    public var isPhased: Bool {
        switch self {
        case .doubleTap: false
        case .squeeze: true
        }
    }
}
