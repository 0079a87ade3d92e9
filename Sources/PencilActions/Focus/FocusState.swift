import PencilSystem

/// What pencil-actions knows of the focused app.
public enum FocusState: Equatable, Sendable {
    /// The desktop tells us the focus: `app` is the focused window's app id (nil while no
    /// window, or one without an app id, has the focus).
    case following(app: String?)
    /// Nothing tells us: the fallback sections apply, for this reason.
    case unavailable(String)

    /// The app whose sections apply (nil: the fallback's).
    public var app: String? {
        if case .following(let app) = self { return app }
        return nil
    }
}
