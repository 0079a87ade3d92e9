import JSON
import Testing
import Varlink

/// A method's parameters as a client sends them: present, left out, null, or of another kind.
@Suite struct ParameterReaderTests {
    private func reader(_ text: String) throws -> ParameterReader { ParameterReader(try JSONReader.parse(text)) }

    @Test func aRequiredParameterMustBeThereAndOfItsKind() throws {
        #expect(try reader(#"{"focused":true}"#).required("focused", .bool) == true)
        #expect(throws: InvalidParameter("focused")) { try reader(#"{}"#).required("focused", .bool) }
        #expect(throws: InvalidParameter("focused")) { try reader(#"{"focused":null}"#).required("focused", .bool) }
        #expect(throws: InvalidParameter("focused")) { try reader(#"{"focused":"yes"}"#).required("focused", .bool) }
    }

    @Test func anOptionalParameterMayBeLeftOutOrNullButNotOfAnotherKind() throws {
        #expect(try reader(#"{"device":"event7"}"#).optional("device", .string) == "event7")
        #expect(try reader(#"{}"#).optional("device", .string) == nil)
        #expect(try reader(#"{"device":null}"#).optional("device", .string) == nil)
        #expect(throws: InvalidParameter("device")) { try reader(#"{"device":7}"#).optional("device", .string) }
    }

    @Test func aListOfStringsHoldsStringsOnly() throws {
        #expect(try reader(#"{"keys":["leftctrl","z"]}"#).required("keys", .strings) == ["leftctrl", "z"])
        #expect(try reader(#"{"keys":[]}"#).required("keys", .strings) == [])
        #expect(throws: InvalidParameter("keys")) { try reader(#"{"keys":["z",1]}"#).required("keys", .strings) }
        #expect(throws: InvalidParameter("keys")) { try reader(#"{"keys":"z"}"#).required("keys", .strings) }
    }

    @Test func numbersAndJSONAreReadAsTheyCome() throws {
        #expect(try reader(#"{"n":3}"#).required("n", .int) == 3)
        #expect(throws: InvalidParameter("n")) { try reader(#"{"n":3.5}"#).required("n", .int) }
        #expect(try reader(#"{"x":2.5}"#).required("x", .float) == 2.5)
        #expect(try reader(#"{"p":{"a":1}}"#).required("p", .json) == .object([("a", .int(1))]))
    }
}
