import PencilSystem

/// No provider: the fallback sections, and why.
public final class NoFocusProvider: FocusProvider {
    public let name = "none"
    public let state: FocusState
    public init(reason: String) { state = .unavailable(reason) }
    public var descriptor: FileDescriptor? { nil }
    public func handleEvents() {}
    public func close() {}
}
