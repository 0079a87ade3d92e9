import PencilProtocol
import Testing

@Suite("Untrusted text shown to a person")
struct TerminalTextTests {
    @Test("plain names, accents and emoji are shown as they are")
    func plainTextIsUnchanged() {
        for name in ["Wacom Intuos Pro M Pen", "Stylet Wacom à pointe fine", "ペン", "✏️ pen", ""] {
            #expect(name.escapedForTerminal == name)
        }
    }

    @Test("C0, DEL, C1 and the bidirectional controls are shown as escapes, and a backslash cannot forge one")
    func controlsAreEscaped() {
        #expect("a\u{1B}]0;owned\u{07}b".escapedForTerminal == "a\\x1b]0;owned\\x07b")
        #expect("line\n<0>forged\r\t".escapedForTerminal == "line\\x0a<0>forged\\x0d\\x09")
        #expect("\u{00}\u{7F}\u{80}\u{9B}31m\u{9F}".escapedForTerminal == "\\x00\\x7f\\x80\\x9b31m\\x9f")
        #expect("pen\u{202E}gpj.exe\u{2066}\u{2069}\u{200E}\u{200F}\u{061C}".escapedForTerminal
                == "pen\\u{202e}gpj.exe\\u{2066}\\u{2069}\\u{200e}\\u{200f}\\u{61c}")
        #expect("already \\x1b".escapedForTerminal == "already \\\\x1b")
        // The result holds no control character at all.
        let every = String(String.UnicodeScalarView((0...0x9f).compactMap(Unicode.Scalar.init)))
        #expect(every.escapedForTerminal.unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7f...0x9f).contains($0.value) })
    }
}
