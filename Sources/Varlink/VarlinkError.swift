import JSON

/// A varlink error reply: a qualified name and its parameters.
public struct VarlinkError: Error, Equatable, Sendable, CustomStringConvertible {
    public var name: String
    public var parameters: JSONValue

    public init(name: String, parameters: JSONValue = .object([])) {
        self.name = name
        self.parameters = parameters
    }

    public var description: String {
        if case .object(let members) = parameters, members.isEmpty { return name }
        return "\(name) \(parameters.jsonText)"
    }

    // org.varlink.service's standard errors.
    public static func interfaceNotFound(_ interface: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.InterfaceNotFound", parameters: .object([("interface", .string(interface))]))
    }
    public static func methodNotFound(_ method: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.MethodNotFound", parameters: .object([("method", .string(method))]))
    }
    public static func methodNotImplemented(_ method: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.MethodNotImplemented", parameters: .object([("method", .string(method))]))
    }
    public static func invalidParameter(_ parameter: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.InvalidParameter", parameters: .object([("parameter", .string(parameter))]))
    }
    public static let expectedMore = VarlinkError(name: "org.varlink.service.ExpectedMore")
    public static let permissionDenied = VarlinkError(name: "org.varlink.service.PermissionDenied")
}
