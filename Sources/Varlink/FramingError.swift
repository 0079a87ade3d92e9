import PencilSystem

public enum FramingError: Error, Equatable, Sendable, CustomStringConvertible {
    case messageTooLarge(limit: Int)

    public var description: String {
        switch self {
        case .messageTooLarge(let limit): return "message longer than \(limit) bytes"
        }
    }
}
