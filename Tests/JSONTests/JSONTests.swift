import Testing
import JSON

@Suite("JSON reader and writer")
struct JSONTests {
    @Test func readsEveryKindOfValue() throws {
        let value = try JSONReader.parse(#"{"a": [1, -2.5, true, false, null], "b": "x\u00e9\n\ud83d\ude00", "c": {}}"#)
        #expect(value["a"] == .array([.int(1), .double(-2.5), .bool(true), .bool(false), .null]))
        #expect(value["b"] == .string("xé\n😀"))
        #expect(value["c"] == .object([]))
    }

    @Test(arguments: [
        ("", 0), ("{", 1), (#"{"a" 1}"#, 5), ("[1,]", 3), ("01", 1), ("1.", 2), (#""\x""#, 3),
        ("nul", 0), (#""\ud800""#, 7), ("{} x", 3), ("\"a\u{01}\"", 2), ("-", 1), ("1e", 2),
    ])
    func rejectsMalformedTextSayingWhere(_ text: String, _ offset: Int) {
        #expect(throws: JSONParseError.self) { try JSONReader.parse(text) }
        do { _ = try JSONReader.parse(text) } catch { #expect(error.offset == offset, "\(text): \(error)") }
    }

    @Test func limitsNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONReader.parse(deep) }
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect((try? JSONReader.parse(ok)) != nil)
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONReader.parse([0x22, 0xff, 0x22]) }
    }

    @Test func hugeNumbersBecomeDoublesOrErrors() throws {
        #expect(try JSONReader.parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
        #expect(throws: JSONParseError.self) { try JSONReader.parse("1e400") }
        #expect(try JSONReader.parse("-9223372036854775808") == .int(Int64.min))
    }

    @Test func writesWhatItReads() throws {
        let text = #"{"s":"q\"b\\n\n\u0001","n":[0,-17,0.25,1e-05],"t":true,"z":null}"#
        let value = try JSONReader.parse(text)
        #expect(try JSONReader.parse(value.jsonText) == value)
    }

    @Test func doublesAreWrittenAsTheStandardLibraryPrintsThem() throws {
        var state: UInt64 = 0x1234_5678
        var values: [Double] = [0.5, -0.25, 1e-5, 123.456, 0.6103160505412765, 1e300, -2.2250738585072014e-308, 1e15 + 0.5]
        for _ in 0..<2000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            values.append(Double(bitPattern: state >> 2) )
            values.append(Double(state % 1_000_000) / 999_983)
        }
        for value in values where value.isFinite && value != value.rounded() {
            var writer = JSONWriter()
            writer.double(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == value.description)
            #expect(try JSONReader.parse(writer.bytes).doubleValue == value)
        }
    }

    @Test func integersAndEscapesAreExact() throws {
        for value: Int64 in [0, 7, 10, -1, -10, 1234567890123, Int64.max, Int64.min] {
            var writer = JSONWriter()
            writer.int(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == String(value))
        }
        var writer = JSONWriter()
        writer.string("plain, then \"quoted\\\n\u{01}é")
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #""plain, then \"quoted\\\n\u0001é""#)
    }

    @Test func nonFiniteNumbersAreWrittenAsNull() {
        var writer = JSONWriter()
        writer.beginArray(); writer.double(.nan); writer.double(.infinity); writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[null,null]")
    }
}
