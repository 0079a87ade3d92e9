import JSON
import Testing
import Varlink

/// org.varlink.service as the library answers it for a service that describes itself.
@Suite struct VarlinkServiceTests {
    private let service = VarlinkService(vendor: "Example", product: "example", version: "1.2", url: "https://example.org",
                                         interfaces: [("org.example.Thing", "interface org.example.Thing\nmethod Do() -> ()\n")])

    private func call(_ text: String) throws -> VarlinkService.Answer { service.answer(try VarlinkCall.parse(Array(text.utf8))) }

    private func replyText(_ answer: VarlinkService.Answer) -> String? {
        guard case .reply(let parameters) = answer else { return nil }
        var writer = JSONWriter()
        writer.beginObject()
        parameters(&writer)
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func error(_ answer: VarlinkService.Answer) -> VarlinkError? {
        guard case .error(let error) = answer else { return nil }
        return error
    }

    @Test func getInfoSaysWhatTheServiceIsAndListsItsInterfacesAfterTheServiceInterface() throws {
        let reply = try #require(replyText(try call(#"{"method":"org.varlink.service.GetInfo"}"#)))
        let json = try JSONReader.parse(reply)
        #expect(json["vendor"] == .string("Example"))
        #expect(json["version"] == .string("1.2"))
        #expect(json["interfaces"] == .array([.string("org.varlink.service"), .string("org.example.Thing")]))
    }

    @Test func getInterfaceDescriptionServesEachInterfaceTextAndNamesAMissingOne() throws {
        let thing = try #require(replyText(try call(#"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"org.example.Thing"}}"#)))
        #expect(try JSONReader.parse(thing)["description"] == .string("interface org.example.Thing\nmethod Do() -> ()\n"))
        let own = try #require(replyText(try call(#"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"org.varlink.service"}}"#)))
        #expect(try JSONReader.parse(own)["description"]?.stringValue?.contains("method GetInfo() -> (") == true)
        #expect(error(try call(#"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"org.example.None"}}"#))
                == .interfaceNotFound("org.example.None"))
        #expect(error(try call(#"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":7}}"#))
                == .invalidParameter("interface"))
        #expect(error(try call(#"{"method":"org.varlink.service.Reboot"}"#)) == .methodNotFound("org.varlink.service.Reboot"))
    }
}
