import PencilDevices
import PencilProtocol

/// One `[ACTION @PATTERN]` section: its action's binding while a matching app has the focus.
public struct AppBinding: Equatable, Sendable {
    public var action: PreferredAction
    public var pattern: AppPattern
    public var binding: Binding
    public var line: Int
}
