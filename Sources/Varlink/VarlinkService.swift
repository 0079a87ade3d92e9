import JSON

/// org.varlink.service, the interface every varlink service answers: what the service is
/// (GetInfo) and the text of each of its interfaces (GetInterfaceDescription). The library answers
/// it from what the service says of itself, as sd-varlink does; the service writes only its own
/// interfaces' handlers.
public struct VarlinkService: Sendable {
    public static let interfaceName = "org.varlink.service"

    public var vendor: String
    public var product: String
    public var version: String
    public var url: String
    /// The service's own interfaces, by name, each with its description's text.
    public var interfaces: [(name: String, description: String)]

    public init(vendor: String, product: String, version: String, url: String, interfaces: [(name: String, description: String)]) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
        self.interfaces = interfaces
    }

    /// What answers a call of org.varlink.service.
    public enum Answer {
        /// A reply, its parameters written by the closure.
        case reply(@Sendable (inout JSONWriter) -> Void)
        case error(VarlinkError)
    }

    /// The answer to `call`, a call of org.varlink.service.
    public func answer(_ call: VarlinkCall) -> Answer {
        switch call.methodName {
        case "GetInfo":
            let (vendor, product, version, url) = (vendor, product, version, url)
            let names = [Self.interfaceName] + interfaces.map(\.name)
            return .reply { writer in
                writer.key("vendor"); writer.string(vendor)
                writer.key("product"); writer.string(product)
                writer.key("version"); writer.string(version)
                writer.key("url"); writer.string(url)
                writer.key("interfaces"); writer.beginArray()
                for name in names { writer.string(name) }
                writer.endArray()
            }
        case "GetInterfaceDescription":
            guard let name = call.parameters["interface"]?.stringValue else { return .error(.invalidParameter("interface")) }
            let text: String
            if name == Self.interfaceName {
                text = Self.interfaceDescription
            } else if let found = interfaces.first(where: { $0.name == name }) {
                text = found.description
            } else {
                return .error(.interfaceNotFound(name))
            }
            return .reply { writer in writer.key("description"); writer.string(text) }
        default:
            return .error(.methodNotFound(call.method))
        }
    }

    /// org.varlink.service as the varlink specification defines it.
    public static let interfaceDescription = """
    # The interface every varlink service provides: what the service is and which interfaces
    # it implements.
    interface org.varlink.service

    # The service's vendor, product, version and url, and its interfaces.
    method GetInfo() -> (
      vendor: string,
      product: string,
      version: string,
      url: string,
      interfaces: []string
    )

    # The description of one of the service's interfaces.
    method GetInterfaceDescription(interface: string) -> (description: string)

    # The service has no such interface.
    error InterfaceNotFound (interface: string)

    # The interface has no such method.
    error MethodNotFound (method: string)

    # The interface has the method but this service does not implement it.
    error MethodNotImplemented (method: string)

    # A parameter is missing or wrong.
    error InvalidParameter (parameter: string)

    # The caller may not use this service.
    error PermissionDenied ()

    # The method streams replies and must be called with "more": true.
    error ExpectedMore ()

    """
}
