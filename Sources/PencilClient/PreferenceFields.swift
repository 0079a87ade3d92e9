// Generated from interfaces/org.pencild.Pen.varlink by scripts/generate-from-interface: do not edit.
import PencilProtocol

/// The user's gesture preferences (docs/protocol.md "Preferences"; defaults and meaning in
/// docs/gestures.md and in the interface file). Durations are milliseconds, the slop millimetres.
public struct PencilPreferences: Equatable, Sendable {
    public var doubleTapAction: PencilAction
    public var squeezeAction: PencilAction
    public var tapButton: PencilTapButton
    public var squeezeButton: PencilSqueezeButton
    public var tapMaxDuration: Int
    public var doubleTapInterval: Int
    public var longPressDuration: Int
    public var doubleTapSlop: Double
    public var withholdGestureClicks: Bool
    public var eraserButton: PencilEraserButtonMode
    public var prefersPencilOnlyDrawing: Bool
    public var prefersHoverToolPreview: Bool
    public var mirrorSwitchesTool: Bool

    /// The daemon's defaults.
    public init() {
        self.init(Preferences.defaults)
    }

    /// Each field left out after the first takes the daemon's default.
    public init(doubleTapAction: PencilAction,
                squeezeAction: PencilAction = PencilAction(rawValue: Preferences.defaults.squeezeAction.rawValue),
                tapButton: PencilTapButton = PencilTapButton(rawValue: Preferences.defaults.tapButton.rawValue),
                squeezeButton: PencilSqueezeButton = PencilSqueezeButton(rawValue: Preferences.defaults.squeezeButton.rawValue),
                tapMaxDuration: Int = Preferences.defaults.tapMaxDuration,
                doubleTapInterval: Int = Preferences.defaults.doubleTapInterval,
                longPressDuration: Int = Preferences.defaults.longPressDuration,
                doubleTapSlop: Double = Preferences.defaults.doubleTapSlop,
                withholdGestureClicks: Bool = Preferences.defaults.withholdGestureClicks,
                eraserButton: PencilEraserButtonMode = PencilEraserButtonMode(rawValue: Preferences.defaults.eraserButton.rawValue),
                prefersPencilOnlyDrawing: Bool = Preferences.defaults.prefersPencilOnlyDrawing,
                prefersHoverToolPreview: Bool = Preferences.defaults.prefersHoverToolPreview,
                mirrorSwitchesTool: Bool = Preferences.defaults.mirrorSwitchesTool) {
        self.doubleTapAction = doubleTapAction
        self.squeezeAction = squeezeAction
        self.tapButton = tapButton
        self.squeezeButton = squeezeButton
        self.tapMaxDuration = tapMaxDuration
        self.doubleTapInterval = doubleTapInterval
        self.longPressDuration = longPressDuration
        self.doubleTapSlop = doubleTapSlop
        self.withholdGestureClicks = withholdGestureClicks
        self.eraserButton = eraserButton
        self.prefersPencilOnlyDrawing = prefersPencilOnlyDrawing
        self.prefersHoverToolPreview = prefersHoverToolPreview
        self.mirrorSwitchesTool = mirrorSwitchesTool
    }

    /// The same preferences as the package's own `Preferences`.
    public init(_ preferences: Preferences) {
        self.init(doubleTapAction: PencilAction(rawValue: preferences.doubleTapAction.rawValue),
                  squeezeAction: PencilAction(rawValue: preferences.squeezeAction.rawValue),
                  tapButton: PencilTapButton(rawValue: preferences.tapButton.rawValue),
                  squeezeButton: PencilSqueezeButton(rawValue: preferences.squeezeButton.rawValue),
                  tapMaxDuration: preferences.tapMaxDuration,
                  doubleTapInterval: preferences.doubleTapInterval,
                  longPressDuration: preferences.longPressDuration,
                  doubleTapSlop: preferences.doubleTapSlop,
                  withholdGestureClicks: preferences.withholdGestureClicks,
                  eraserButton: PencilEraserButtonMode(rawValue: preferences.eraserButton.rawValue),
                  prefersPencilOnlyDrawing: preferences.prefersPencilOnlyDrawing,
                  prefersHoverToolPreview: preferences.prefersHoverToolPreview,
                  mirrorSwitchesTool: preferences.mirrorSwitchesTool)
    }

    /// A change to some of the preferences: the fields left nil keep their values
    /// (`SetPreferences` merges).
    public struct Change: Equatable, Sendable {
        public var doubleTapAction: PencilAction?
        public var squeezeAction: PencilAction?
        public var tapButton: PencilTapButton?
        public var squeezeButton: PencilSqueezeButton?
        public var tapMaxDuration: Int?
        public var doubleTapInterval: Int?
        public var longPressDuration: Int?
        public var doubleTapSlop: Double?
        public var withholdGestureClicks: Bool?
        public var eraserButton: PencilEraserButtonMode?
        public var prefersPencilOnlyDrawing: Bool?
        public var prefersHoverToolPreview: Bool?
        public var mirrorSwitchesTool: Bool?

        public init(doubleTapAction: PencilAction? = nil,
                    squeezeAction: PencilAction? = nil,
                    tapButton: PencilTapButton? = nil,
                    squeezeButton: PencilSqueezeButton? = nil,
                    tapMaxDuration: Int? = nil,
                    doubleTapInterval: Int? = nil,
                    longPressDuration: Int? = nil,
                    doubleTapSlop: Double? = nil,
                    withholdGestureClicks: Bool? = nil,
                    eraserButton: PencilEraserButtonMode? = nil,
                    prefersPencilOnlyDrawing: Bool? = nil,
                    prefersHoverToolPreview: Bool? = nil,
                    mirrorSwitchesTool: Bool? = nil) {
            self.doubleTapAction = doubleTapAction
            self.squeezeAction = squeezeAction
            self.tapButton = tapButton
            self.squeezeButton = squeezeButton
            self.tapMaxDuration = tapMaxDuration
            self.doubleTapInterval = doubleTapInterval
            self.longPressDuration = longPressDuration
            self.doubleTapSlop = doubleTapSlop
            self.withholdGestureClicks = withholdGestureClicks
            self.eraserButton = eraserButton
            self.prefersPencilOnlyDrawing = prefersPencilOnlyDrawing
            self.prefersHoverToolPreview = prefersHoverToolPreview
            self.mirrorSwitchesTool = mirrorSwitchesTool
        }
    }

    /// Every field, as a change: `setPreferences` with it replaces them all.
    public var asChange: Change {
        Change(doubleTapAction: doubleTapAction,
               squeezeAction: squeezeAction,
               tapButton: tapButton,
               squeezeButton: squeezeButton,
               tapMaxDuration: tapMaxDuration,
               doubleTapInterval: doubleTapInterval,
               longPressDuration: longPressDuration,
               doubleTapSlop: doubleTapSlop,
               withholdGestureClicks: withholdGestureClicks,
               eraserButton: eraserButton,
               prefersPencilOnlyDrawing: prefersPencilOnlyDrawing,
               prefersHoverToolPreview: prefersHoverToolPreview,
               mirrorSwitchesTool: mirrorSwitchesTool)
    }
}

extension PencilPreferences {
    /// Fields the reply leaves out (a daemon's replies carry all of them) keep the defaults.
    package init(json: JSONValue) throws(PencilClientError) {
        guard json.objectValue != nil else { throw .protocolViolation("preferences must be an object, not \(json.kindName)") }
        self.init()
        if let value = PencilAction(json: json["doubleTapAction"]) { doubleTapAction = value }
        if let value = PencilAction(json: json["squeezeAction"]) { squeezeAction = value }
        if let value = PencilTapButton(json: json["tapButton"]) { tapButton = value }
        if let value = PencilSqueezeButton(json: json["squeezeButton"]) { squeezeButton = value }
        if let value = json["tapMaxDuration"]?.intValue { tapMaxDuration = Int(truncatingIfNeeded: value) }
        if let value = json["doubleTapInterval"]?.intValue { doubleTapInterval = Int(truncatingIfNeeded: value) }
        if let value = json["longPressDuration"]?.intValue { longPressDuration = Int(truncatingIfNeeded: value) }
        if let value = json["doubleTapSlop"]?.doubleValue { doubleTapSlop = value }
        if let value = json["withholdGestureClicks"]?.boolValue { withholdGestureClicks = value }
        if let value = PencilEraserButtonMode(json: json["eraserButton"]) { eraserButton = value }
        if let value = json["prefersPencilOnlyDrawing"]?.boolValue { prefersPencilOnlyDrawing = value }
        if let value = json["prefersHoverToolPreview"]?.boolValue { prefersHoverToolPreview = value }
        if let value = json["mirrorSwitchesTool"]?.boolValue { mirrorSwitchesTool = value }
    }

    /// The package's own `Preferences`; nil when a name is unknown to it.
    package var protocolPreferences: Preferences? {
        var result = Preferences()
        guard let doubleTapAction = PreferredAction(rawValue: doubleTapAction.rawValue) else { return nil }
        result.doubleTapAction = doubleTapAction
        guard let squeezeAction = PreferredAction(rawValue: squeezeAction.rawValue) else { return nil }
        result.squeezeAction = squeezeAction
        guard let tapButton = TapButton(rawValue: tapButton.rawValue) else { return nil }
        result.tapButton = tapButton
        guard let squeezeButton = SqueezeButton(rawValue: squeezeButton.rawValue) else { return nil }
        result.squeezeButton = squeezeButton
        result.tapMaxDuration = tapMaxDuration
        result.doubleTapInterval = doubleTapInterval
        result.longPressDuration = longPressDuration
        result.doubleTapSlop = doubleTapSlop
        result.withholdGestureClicks = withholdGestureClicks
        guard let eraserButton = EraserButtonMode(rawValue: eraserButton.rawValue) else { return nil }
        result.eraserButton = eraserButton
        result.prefersPencilOnlyDrawing = prefersPencilOnlyDrawing
        result.prefersHoverToolPreview = prefersHoverToolPreview
        result.mirrorSwitchesTool = mirrorSwitchesTool
        return result
    }
}

extension PencilPreferences.Change {
    /// The `preferences` parameter of `SetPreferences`: only the fields that are set.
    package var jsonValue: JSONValue {
        var members: [(String, JSONValue)] = []
        func add(_ name: String, _ value: JSONValue?) { if let value { members.append((name, value)) } }
        add("doubleTapAction", doubleTapAction.map { .string($0.rawValue) })
        add("squeezeAction", squeezeAction.map { .string($0.rawValue) })
        add("tapButton", tapButton.map { .string($0.rawValue) })
        add("squeezeButton", squeezeButton.map { .string($0.rawValue) })
        add("tapMaxDuration", tapMaxDuration.map { .int(Int64($0)) })
        add("doubleTapInterval", doubleTapInterval.map { .int(Int64($0)) })
        add("longPressDuration", longPressDuration.map { .int(Int64($0)) })
        add("doubleTapSlop", doubleTapSlop.map { .double($0) })
        add("withholdGestureClicks", withholdGestureClicks.map { .bool($0) })
        add("eraserButton", eraserButton.map { .string($0.rawValue) })
        add("prefersPencilOnlyDrawing", prefersPencilOnlyDrawing.map { .bool($0) })
        add("prefersHoverToolPreview", prefersHoverToolPreview.map { .bool($0) })
        add("mirrorSwitchesTool", mirrorSwitchesTool.map { .bool($0) })
        return .object(members)
    }
}

extension PencilPreferences {
    /// The action the user prefers for `gesture` (its preference `<gesture>Action`); nil for a
    /// gesture this library does not know.
    public func action(for gesture: PencilGesture) -> PencilAction? {
        switch gesture {
        case .doubleTap: doubleTapAction
        case .squeeze: squeezeAction
        default: nil
        }
    }
}
