// Generated from interfaces/org.pencild.Pen.varlink by scripts/generate-from-interface: do not edit.

extension Preferences {
    /// The interface's Preferences fields in its order: what the JSON writer and reader and
    /// `pencilctl prefs` go through; each number's unit is the generator's PREFERENCE_UNITS.
    public static let fields: [PreferenceField] = [
        .names("doubleTapAction", \.doubleTapAction),
        .names("squeezeAction", \.squeezeAction),
        .names("tapButton", \.tapButton),
        .names("squeezeButton", \.squeezeButton),
        .milliseconds("tapMaxDuration", \.tapMaxDuration),
        .milliseconds("doubleTapInterval", \.doubleTapInterval),
        .milliseconds("longPressDuration", \.longPressDuration),
        .millimetres("doubleTapSlop", \.doubleTapSlop),
        .flag("withholdGestureClicks", \.withholdGestureClicks),
        .names("eraserButton", \.eraserButton),
        .flag("prefersPencilOnlyDrawing", \.prefersPencilOnlyDrawing),
        .flag("prefersHoverToolPreview", \.prefersHoverToolPreview),
        .flag("mirrorSwitchesTool", \.mirrorSwitchesTool),
    ]

    /// The action the user prefers for `gesture`: its preference `<gesture>Action`.
    public func action(for gesture: Gesture) -> PreferredAction {
        switch gesture {
        case .doubleTap: doubleTapAction
        case .squeeze: squeezeAction
        }
    }
}
