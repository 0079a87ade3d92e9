// Generated from interfaces/org.pencild.Pen.varlink by scripts/generate-from-interface: do not edit.
// The protocol's names as open enums (see ProtocolName).
import PencilProtocol

/// The kind of an event (docs/protocol.md "Event").
public enum PencilEventType: ProtocolName, KnownName {
    public typealias Known = EventType

    case deviceAdded
    case deviceRemoved
    case proximityIn
    case proximityOut
    case tipDown
    case tipUp
    case motion
    case hover
    case buttonDown
    case buttonUp
    case doubleTap
    case squeeze
    case preferencesChanged
    case deviceChanged
    case unknown(String)

    public static let known: [Self] = [
        .deviceAdded,
        .deviceRemoved,
        .proximityIn,
        .proximityOut,
        .tipDown,
        .tipUp,
        .motion,
        .hover,
        .buttonDown,
        .buttonUp,
        .doubleTap,
        .squeeze,
        .preferencesChanged,
        .deviceChanged,
    ]

    public var rawValue: String {
        switch self {
        case .deviceAdded: "deviceAdded"
        case .deviceRemoved: "deviceRemoved"
        case .proximityIn: "proximityIn"
        case .proximityOut: "proximityOut"
        case .tipDown: "tipDown"
        case .tipUp: "tipUp"
        case .motion: "motion"
        case .hover: "hover"
        case .buttonDown: "buttonDown"
        case .buttonUp: "buttonUp"
        case .doubleTap: "doubleTap"
        case .squeeze: "squeeze"
        case .preferencesChanged: "preferencesChanged"
        case .deviceChanged: "deviceChanged"
        case .unknown(let name): name
        }
    }
}

/// A tool's type, as in a device's `tools`.
public enum PencilToolType: ProtocolName, KnownName {
    public typealias Known = ToolType

    case pen
    case eraser
    case brush
    case pencil
    case airbrush
    case mouse
    case lens
    case unknown(String)

    public static let known: [Self] = [
        .pen,
        .eraser,
        .brush,
        .pencil,
        .airbrush,
        .mouse,
        .lens,
    ]

    public var rawValue: String {
        switch self {
        case .pen: "pen"
        case .eraser: "eraser"
        case .brush: "brush"
        case .pencil: "pencil"
        case .airbrush: "airbrush"
        case .mouse: "mouse"
        case .lens: "lens"
        case .unknown(let name): name
        }
    }
}

/// An axis a device reports, as in a device's `axes`.
public enum PencilAxis: ProtocolName, KnownName {
    public typealias Known = AxisName

    case pressure
    case distance
    case tilt
    case rotation
    case slider
    case wheel
    case unknown(String)

    public static let known: [Self] = [
        .pressure,
        .distance,
        .tilt,
        .rotation,
        .slider,
        .wheel,
    ]

    public var rawValue: String {
        switch self {
        case .pressure: "pressure"
        case .distance: "distance"
        case .tilt: "tilt"
        case .rotation: "rotation"
        case .slider: "slider"
        case .wheel: "wheel"
        case .unknown(let name): name
        }
    }
}

/// A barrel button.
public enum PencilButton: ProtocolName, KnownName {
    public typealias Known = PenButton

    case stylus
    case stylus2
    case stylus3
    /// The button of a pen whose eraser is a button, under `eraserButton` `button`.
    case eraser
    case unknown(String)

    public static let known: [Self] = [
        .stylus,
        .stylus2,
        .stylus3,
        .eraser,
    ]

    public var rawValue: String {
        switch self {
        case .stylus: "stylus"
        case .stylus2: "stylus2"
        case .stylus3: "stylus3"
        case .eraser: "eraser"
        case .unknown(let name): name
        }
    }
}

/// The phase of a hover or a squeeze.
public enum PencilPhase: ProtocolName, KnownName {
    public typealias Known = Phase

    case began
    case changed
    case ended
    case cancelled
    case unknown(String)

    public static let known: [Self] = [
        .began,
        .changed,
        .ended,
        .cancelled,
    ]

    public var rawValue: String {
        switch self {
        case .began: "began"
        case .changed: "changed"
        case .ended: "ended"
        case .cancelled: "cancelled"
        case .unknown(let name): name
        }
    }
}

/// A gesture pencild recognises: reported by the event type of its name, its action the user's
/// preference `<gesture>Action` (docs/gestures.md).
public enum PencilGesture: ProtocolName, KnownName {
    public typealias Known = Gesture

    case doubleTap
    case squeeze
    case unknown(String)

    public static let known: [Self] = [
        .doubleTap,
        .squeeze,
    ]

    public var rawValue: String {
        switch self {
        case .doubleTap: "doubleTap"
        case .squeeze: "squeeze"
        case .unknown(let name): name
        }
    }
}

/// What the user wants a double-tap or a squeeze to do (Apple's UIPencilPreferredAction).
public enum PencilAction: ProtocolName, KnownName {
    public typealias Known = PreferredAction

    case ignore
    case switchEraser
    case switchPrevious
    case showColorPalette
    case showInkAttributes
    case showContextualPalette
    case runSystemShortcut
    case unknown(String)

    public static let known: [Self] = [
        .ignore,
        .switchEraser,
        .switchPrevious,
        .showColorPalette,
        .showInkAttributes,
        .showContextualPalette,
        .runSystemShortcut,
    ]

    public var rawValue: String {
        switch self {
        case .ignore: "ignore"
        case .switchEraser: "switchEraser"
        case .switchPrevious: "switchPrevious"
        case .showColorPalette: "showColorPalette"
        case .showInkAttributes: "showInkAttributes"
        case .showContextualPalette: "showContextualPalette"
        case .runSystemShortcut: "runSystemShortcut"
        case .unknown(let name): name
        }
    }
}

/// Who holds the user's focus when a double-tap or squeeze happens (docs/protocol.md "Which app
/// acts"). The protocol's `none` is `.nobody` here, so that it never reads as an absent value.
public enum PencilFocus: ProtocolName, KnownName {
    public typealias Known = Focus

    /// This process holds the focus: act.
    case this
    /// Another process of the same user does: do not act.
    case other
    /// Nobody claimed it (`none` on the wire).
    case nobody
    case pen
    case unknown(String)

    public static let known: [Self] = [
        .this,
        .other,
        .nobody,
        .pen,
    ]

    public var rawValue: String {
        switch self {
        case .this: "this"
        case .other: "other"
        case .nobody: "none"
        case .pen: "pen"
        case .unknown(let name): name
        }
    }
}

/// The button whose double-click is a double-tap (preference `tapButton`).
public enum PencilTapButton: ProtocolName, KnownName {
    public typealias Known = TapButton

    case stylus
    case stylus2
    case stylus3
    case eraser
    case none
    case unknown(String)

    public static let known: [Self] = [
        .stylus,
        .stylus2,
        .stylus3,
        .eraser,
        .none,
    ]

    public var rawValue: String {
        switch self {
        case .stylus: "stylus"
        case .stylus2: "stylus2"
        case .stylus3: "stylus3"
        case .eraser: "eraser"
        case .none: "none"
        case .unknown(let name): name
        }
    }
}

/// What makes a squeeze (preference `squeezeButton`): holding a button, or a long press of
/// the tap button.
public enum PencilSqueezeButton: ProtocolName, KnownName {
    public typealias Known = SqueezeButton

    case stylus
    case stylus2
    case stylus3
    case eraser
    case longPress
    case none
    case unknown(String)

    public static let known: [Self] = [
        .stylus,
        .stylus2,
        .stylus3,
        .eraser,
        .longPress,
        .none,
    ]

    public var rawValue: String {
        switch self {
        case .stylus: "stylus"
        case .stylus2: "stylus2"
        case .stylus3: "stylus3"
        case .eraser: "eraser"
        case .longPress: "longPress"
        case .none: "none"
        case .unknown(let name): name
        }
    }
}

/// On a pen whose eraser is a button: the eraser tool, or a barrel button named `eraser`
/// (preference `eraserButton`).
public enum PencilEraserButtonMode: ProtocolName, KnownName {
    public typealias Known = EraserButtonMode

    case eraser
    case button
    case unknown(String)

    public static let known: [Self] = [
        .eraser,
        .button,
    ]

    public var rawValue: String {
        switch self {
        case .eraser: "eraser"
        case .button: "button"
        case .unknown(let name): name
        }
    }
}

/// What kind of stylus libwacom says a tool is.
public enum PencilStylusKind: ProtocolName, KnownName {
    public typealias Known = StylusKind

    case general
    case inking
    case airbrush
    case classic
    case marker
    case stroke
    case puck
    case mobile
    /// libwacom's own "unknown" (`unknown` on the wire), not a name this library lacks.
    case unknownKind
    case unknown(String)

    public static let known: [Self] = [
        .general,
        .inking,
        .airbrush,
        .classic,
        .marker,
        .stroke,
        .puck,
        .mobile,
        .unknownKind,
    ]

    public var rawValue: String {
        switch self {
        case .general: "general"
        case .inking: "inking"
        case .airbrush: "airbrush"
        case .classic: "classic"
        case .marker: "marker"
        case .stroke: "stroke"
        case .puck: "puck"
        case .mobile: "mobile"
        case .unknownKind: "unknown"
        case .unknown(let name): name
        }
    }
}

/// What a stylus has for an eraser: none, the other end (`invert`), or a button the firmware
/// reports as the eraser tool.
public enum PencilEraserKind: ProtocolName, KnownName {
    public typealias Known = EraserKind

    case none
    case invert
    case button
    case unknown(String)

    public static let known: [Self] = [
        .none,
        .invert,
        .button,
    ]

    public var rawValue: String {
        switch self {
        case .none: "none"
        case .invert: "invert"
        case .button: "button"
        case .unknown(let name): name
        }
    }
}

extension PencilGesture {
    /// The event type that reports the gesture.
    public var eventType: PencilEventType { PencilEventType(rawValue: rawValue) }

    /// The gesture an event of `type` reports; nil for an event that reports none (unknown
    /// event types included: a gesture this library does not know is not acted on).
    public init?(_ type: PencilEventType) {
        let gesture = Self(rawValue: type.rawValue)
        guard Self.known.contains(gesture) else { return nil }
        self = gesture
    }

    /// A phased gesture (began, changed, then ended or cancelled) is acted on when it ends, and
    /// keeps the focus it began with; a one-shot gesture is acted on when it arrives.
    public var isPhased: Bool {
        switch self {
        case .squeeze: true
        default: false
        }
    }

    /// The name of the preference that holds the gesture's action.
    public var actionField: String { rawValue + "Action" }
}
