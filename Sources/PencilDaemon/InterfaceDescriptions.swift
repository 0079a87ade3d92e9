/// The interface descriptions served by GetInterfaceDescription.
public enum InterfaceDescriptions {
    public static let serviceInterface = "org.varlink.service"

    /// org.varlink.service as the varlink specification defines it.
    public static let service = """
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
