import PencilClient
import PencilDevices
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

    /// What the log calls it: "squeeze showContextualPalette", "test switchEraser".
    public var label: String { "\(event?.type.rawValue ?? CommandEnvironment.testGesture) \(action.rawValue)" }
}
