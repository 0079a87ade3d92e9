import PencilClient
import PencilProtocol

/// One gesture to perform: the preferred action the daemon resolved, and the event it came
/// with (a double-tap, an ended squeeze, or nil for `pencilctl actions test`).
public struct GestureRequest: Equatable, Sendable {
    public var action: PreferredAction
    public var event: PencilEvent?
    public init(action: PreferredAction, event: PencilEvent?) {
        self.action = action
        self.event = event
    }
}

/// pencil-actions' decisions, free of I/O: which events it acts on, and what acting means.
public enum ActionDecision {
    /// The events pencil-actions subscribes to.
    public static let subscribedEvents: [PencilEventType] = [.doubleTap, .squeeze]

    /// The action to perform for `event`, or nil. A double-tap acts when it arrives, a squeeze
    /// when it ends (with its action); a cancelled squeeze, its other phases, and every event
    /// while an app holds focus (`this` or `other`) do nothing: pencil-actions is a fallback for
    /// apps that do not speak the protocol, and such a fallback acts only on `none`. An event
    /// without `focus` comes from a daemon that knows no focus: nobody can hold it. An action
    /// this version does not know is bound to nothing.
    public static func request(for event: PencilEvent) -> GestureRequest? {
        guard (event.focus ?? .nobody) == .nobody, let name = event.action?.rawValue,
              let action = PreferredAction(rawValue: name), action != .ignore else { return nil }
        switch event.type {
        case .doubleTap:
            return GestureRequest(action: action, event: event)
        case .squeeze where event.phase == .ended:
            return GestureRequest(action: action, event: event)
        default:
            return nil
        }
    }

    /// What pencil-actions does for a request with the bindings in force.
    public enum Performance: Equatable, Sendable {
        case sendChord(KeyChord)
        case runCommand([String])
        /// The action has no binding: nothing happens.
        case unbound
    }

    public static func performance(of action: PreferredAction, bindings: ActionBindings) -> Performance {
        switch bindings[action] {
        case .key(let chord)?: return .sendChord(chord)
        case .command(let words)?: return .runCommand(words)
        case nil: return .unbound
        }
    }
}

/// The environment a command binding runs with: pencil-actions' own, minus any `PENCIL_*`
/// variable it inherited, plus the event's fields.
public enum CommandEnvironment {
    /// `PENCIL_GESTURE` for `pencilctl actions test`, which has no gesture.
    public static let testGesture = "test"

    public static func variables(for request: GestureRequest) -> [(String, String)] {
        var variables: [(String, String)] = [
            ("PENCIL_ACTION", request.action.rawValue),
            ("PENCIL_GESTURE", request.event?.type.rawValue ?? testGesture),
        ]
        guard let event = request.event else { return variables }
        variables.append(("PENCIL_TIME", String(event.time)))
        if let phase = event.phase { variables.append(("PENCIL_PHASE", phase.rawValue)) }
        variables.append(("PENCIL_FOCUS", (event.focus ?? .nobody).rawValue))
        if let device = event.device { variables.append(("PENCIL_DEVICE", device)) }
        if let tool = event.tool {
            variables.append(("PENCIL_TOOL", tool.type.rawValue))
            variables.append(("PENCIL_TOOL_SERIAL", String(tool.serial)))
        }
        if let pose = event.pose {
            let fields: [(String, Double?)] = [
                ("PENCIL_X", pose.x), ("PENCIL_Y", pose.y),
                ("PENCIL_X_MM", pose.xMillimeters), ("PENCIL_Y_MM", pose.yMillimeters),
                ("PENCIL_PRESSURE", pose.pressure), ("PENCIL_Z_OFFSET", pose.zOffset),
                ("PENCIL_TILT_X", pose.tiltX), ("PENCIL_TILT_Y", pose.tiltY),
                ("PENCIL_AZIMUTH", pose.azimuth), ("PENCIL_ALTITUDE", pose.altitude),
                ("PENCIL_ROLL", pose.roll),
            ]
            for (name, value) in fields {
                if let value { variables.append((name, decimal(value))) }
            }
        }
        return variables
    }

    /// `inherited` ("NAME=value" strings) with the request's variables in place of any
    /// `PENCIL_*` it had.
    public static func environment(for request: GestureRequest, inherited: [String]) -> [String] {
        var result = inherited.filter { !$0.hasPrefix("PENCIL_") }
        result += variables(for: request).map { "\($0.0)=\($0.1)" }
        return result
    }

    /// Plain decimal, as the protocol writes numbers.
    static func decimal(_ value: Double) -> String {
        var writer = JSONWriter(capacity: 32)
        writer.double(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
