/// Text from devices and the daemon (device names, libwacom's names, error parameters) is
/// untrusted: a device can be named with terminal escapes, or with a newline and `<0>` that
/// would start a journal line of its own. Everything pencilctl prints for a person, and every
/// line pencil-actions logs, shows each control character as a visible escape instead: C0
/// (newline and tab included) and DEL as `\xNN`, C1 likewise, the bidirectional controls that
/// reorder what a terminal shows as `\u{NNNN}`, and a backslash as `\\` so that an escape
/// cannot be forged either. The one implementation, shared by every program.
extension String {
    public var escapedForTerminal: String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if Self.isControl(scalar) {
                let hex = String(scalar.value, radix: 16)
                result += scalar.value <= 0xff ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{" + hex + "}"
            } else if scalar == "\\" {
                result += "\\\\"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1f, 0x7f...0x9f: return true
        // Bidirectional marks, embeddings, overrides and isolates.
        case 0x061c, 0x200e, 0x200f, 0x202a...0x202e, 0x2066...0x2069: return true
        default: return false
        }
    }
}
