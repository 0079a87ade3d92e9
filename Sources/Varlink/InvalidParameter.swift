import JSON

/// A call's parameter that is missing, null where it may not be, or of another kind than its
/// method declares: the call is answered `org.varlink.service.InvalidParameter` with its name.
public struct InvalidParameter: Error, Equatable, Sendable {
    public var name: String

    public init(_ name: String) { self.name = name }
}
