import Testing
import PencilProtocol
@testable import Varlink

@Suite("Calls and replies")
struct CallTests {
    @Test("a full call is read with its flags and parameters")
    func fullCall() throws {
        let call = try VarlinkCall.parse(Array(#"{"method":"org.pencild.Pen.Monitor","parameters":{"devices":["replay0"]},"more":true}"#.utf8))
        #expect(call.method == "org.pencild.Pen.Monitor")
        #expect(call.interface == "org.pencild.Pen")
        #expect(call.methodName == "Monitor")
        #expect(call.more)
        #expect(!call.oneway)
        #expect(call.parameters["devices"] == .array([.string("replay0")]))
    }

    @Test("parameters may be left out or null")
    func parametersOptional() throws {
        #expect(try VarlinkCall.parse(Array(#"{"method":"a.B"}"#.utf8)).parameters == .object([]))
        #expect(try VarlinkCall.parse(Array(#"{"method":"a.B","parameters":null}"#.utf8)).parameters == .object([]))
    }

    @Test("bad input is refused with the reason that fits", arguments: [
        ("", "json"),
        ("{", "json"),
        ("{\"method\":\"a.B\"} x", "json"),
        ("[1,2]", "object"),
        ("\"a.B\"", "object"),
        ("{}", "method"),
        ("{\"method\":7}", "method"),
        ("{\"method\":\"NoDot\"}", "method"),
        ("{\"method\":\"a..B\"}", "method"),
        ("{\"method\":\"a.B\",\"parameters\":[]}", "parameters"),
        ("{\"method\":\"a.B\",\"more\":\"yes\"}", "more"),
        ("{\"method\":\"a.B\",\"oneway\":1}", "oneway"),
    ])
    func badInput(text: String, expected: String) {
        do {
            _ = try VarlinkCall.parse(Array(text.utf8))
            Issue.record("accepted \(text)")
        } catch {
            switch error {
            case .invalidJSON: #expect(expected == "json", "\(text)")
            case .notAnObject: #expect(expected == "object", "\(text)")
            case .invalidField(let name): #expect(name == expected, "\(text)")
            }
        }
    }

    @Test("nesting deeper than the limit is refused, not followed")
    func deepNesting() {
        let deep = "{\"method\":\"a.B\",\"parameters\":{\"x\":" + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}}"
        #expect(throws: CallError.self) { try VarlinkCall.parse(Array(deep.utf8)) }
    }

    @Test("a call encodes to what the parser reads back")
    func roundTrip() throws {
        let call = VarlinkCall(method: "org.pencild.Pen.SetPreferences", parameters: .object([("preferences", .object([("tapMaxDuration", .int(250))]))]), oneway: true)
        let bytes = call.encoded
        #expect(bytes.last == 0)
        let back = try VarlinkCall.parse(bytes.dropLast())
        #expect(back.method == call.method)
        #expect(back.parameters == call.parameters)
        #expect(back.oneway && !back.more)
    }

    @Test("replies and errors are NUL-terminated objects a client reads back")
    func replies() throws {
        var writer = JSONWriter()
        ReplyEncoder.reply(into: &writer, continues: true) { writer in
            writer.key("n"); writer.int(3)
        }
        ReplyEncoder.error(into: &writer, .invalidParameter("events"))
        let messages = writer.bytes.split(separator: 0, omittingEmptySubsequences: false)
        #expect(messages.count == 3 && messages[2].isEmpty)
        let reply = try VarlinkReply(json: try JSONReader.parse(messages[0]))
        #expect(reply.continues && reply.error == nil && reply.parameters["n"] == .int(3))
        let error = try VarlinkReply(json: try JSONReader.parse(messages[1]))
        #expect(error.error == "org.varlink.service.InvalidParameter")
        #expect(error.parameters["parameter"] == .string("events"))
    }
}
