import PencilProtocol
import PencilSystem
import Varlink

/// A mistake in the command line or the configuration file, with where it is.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
