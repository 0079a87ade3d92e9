import PencilDevices
import PencilProtocol

/// What an action does for one app: the binding (nil: nothing) and the section it was
/// written in (pattern nil: the fallback section).
public struct ResolvedBinding: Equatable, Sendable {
    public var binding: Binding?
    public var pattern: AppPattern?
    public var line: Int?

    public init(binding: Binding?, pattern: AppPattern?, line: Int?) {
        self.binding = binding
        self.pattern = pattern
        self.line = line
    }

    /// "[switchEraser @krita], line 12" or "[switchEraser], line 3".
    public func section(of action: PreferredAction) -> String {
        let header = "[\(action.rawValue)\(pattern.map { " @\($0.text)" } ?? "")]"
        return line.map { "\(header), line \($0)" } ?? header
    }
}
