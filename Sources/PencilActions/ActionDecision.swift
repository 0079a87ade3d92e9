import PencilClient
import PencilDevices
import PencilProtocol

/// pencil-actions' decisions, free of I/O: which events it acts on, and what acting means.
public enum ActionDecision {
    /// The events pencil-actions subscribes to: every gesture's.
    public static let subscribedEvents: [PencilEventType] = PencilGesture.known.map(\.eventType)
    /// And the pen's coming and going, which closes an open system palette once the pen has
    /// been away for `PaletteProcess.awayMicroseconds`.
    public static let paletteEvents: [PencilEventType] = [.proximityIn, .proximityOut]

    /// The action to perform for `event`, or nil. A one-shot gesture (a double-tap) acts when it
    /// arrives, a phased one (a squeeze) when it ends (with its action); a cancelled squeeze, its
    /// other phases, and every event while an app holds focus (`this` or `other`) do nothing:
    /// pencil-actions is a fallback for apps that do not speak the protocol, and such a fallback
    /// acts only on `none`. An event without `focus` comes from a daemon that knows no focus:
    /// nobody can hold it. An action this version does not know is bound to nothing.
    public static func request(for event: PencilEvent) -> GestureRequest? {
        guard let gesture = PencilGesture(event.type), !gesture.isPhased || event.phase == .ended,
              (event.focus ?? .nobody) == .nobody, let name = event.action?.rawValue,
              let action = PreferredAction(rawValue: name), action != .ignore else { return nil }
        return GestureRequest(action: action, event: event)
    }

    /// What pencil-actions does for a request with the bindings in force.
    public enum Performance: Equatable, Sendable {
        case sendChord(KeyChord)
        case runCommand([String])
        /// The action has no binding: nothing happens.
        case unbound
    }

    /// `app` is the focused app's id (nil when unknown: the fallback sections apply).
    public static func performance(of action: PreferredAction, bindings: ActionBindings, app: String? = nil) -> Performance {
        switch bindings.resolve(action, app: app).binding {
        case .key(let chord)?: return .sendChord(chord)
        case .command(let words)?: return .runCommand(words)
        case nil: return .unbound
        }
    }
}
