import JSON
import Testing

/// A name in `pencilctl monitor --json` or `devices --json` reaches a terminal: the writer
/// escapes what a terminal would act on, as JSON allows, and the text still reads back whole.
@Suite("JSON strings safe on a terminal")
struct TerminalSafeStringTests {
    private func written(_ text: String) -> String {
        var writer = JSONWriter()
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test("DEL, C1 and the bidirectional controls are written as \\u escapes, and read back as they were")
    func controlsAreEscaped() throws {
        let hostile = "a\u{7F}b\u{80}\u{9B}2J\u{9F}pen\u{202E}txt.exe\u{202A}\u{2066}\u{2069}\u{200E}\u{200F}\u{061C}\u{1B}[0m"
        let text = written(hostile)
        #expect(text == #""a\u007fb\u0080\u009b2J\u009fpen\u202etxt.exe\u202a\u2066\u2069\u200e\u200f\u061c\u001b[0m""#)
        #expect(text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "nothing but printable ASCII is left")
        #expect(try JSONReader.parse(text) == .string(hostile))
    }

    @Test("their neighbours, accents, other scripts and emoji are written as they are")
    func neighboursAreNot() throws {
        // U+00A0 and U+00A1 after C1, U+061B before ALM, U+200D and U+2010 around LRM and RLM,
        // U+2029 and U+202F around the embeddings, U+2065 and U+206A around the isolates; and
        // characters whose UTF-8 starts with the same lead bytes (C2, D8, E2).
        let plain = "\u{A0}\u{A1}\u{A9}\u{061B}\u{061D}ب\u{200D}\u{2010}\u{2029}\u{202F}\u{2065}\u{206A}€✏️ Stylet à pointe ペン"
        #expect(written(plain) == "\"" + plain + "\"")
    }

    @Test("the JSON writer escapes exactly the terminal controls, over every scalar")
    func exactlyTheTerminalControls() throws {
        // Every scalar but the quote and the backslash (JSON's own escapes) in one string: what
        // comes out raw is what went in, less the escapes, and each escape is a terminal control.
        let scalars = (0...0x10FFFF).compactMap { Unicode.Scalar($0) }.filter { $0 != "\"" && $0 != "\\" }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars)
        let output = Array(written(String(text)).unicodeScalars)
        var escaped: [UInt32] = []
        var raw: [Unicode.Scalar] = []
        var index = 1
        while index < output.count - 1 {
            if output[index] == "\\" {
                let next = output[index + 1]
                switch next {
                case "u":
                    let hex = String(String.UnicodeScalarView(output[(index + 2)..<(index + 6)]))
                    escaped.append(UInt32(hex, radix: 16)!)
                    index += 6
                case "n": escaped.append(0x0A); index += 2
                case "r": escaped.append(0x0D); index += 2
                case "t": escaped.append(0x09); index += 2
                default: Issue.record("unexpected escape \\\(next)"); index += 2
                }
            } else {
                raw.append(output[index])
                index += 1
            }
        }
        #expect(escaped == scalars.filter(\.isTerminalControl).map(\.value))
        let rawControls = raw.filter(\.isTerminalControl).map(\.value)
        #expect(rawControls.isEmpty, "terminal controls written raw: \(rawControls)")
        // Every other scalar comes out as it went in, in order.
        #expect(raw.elementsEqual(scalars.lazy.filter { !$0.isTerminalControl }))
    }
}
