import CEvdev
import PencilProtocol

/// One frame of a chord on the virtual keyboard.
public struct KeyFrame: Equatable, Sendable {
    public var code: UInt16
    public var down: Bool
}
