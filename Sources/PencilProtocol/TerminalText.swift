import JSON

/// Text from devices and the daemon (device names, libwacom's names, error parameters) is
/// untrusted: a device can be named with terminal escapes, or with a newline and `<0>` that
/// would start a journal line of its own. Everything pencilctl prints for a person, and every
/// line pencild and pencil-actions log, shows each control character as a visible escape
/// instead: C0 (newline and tab included) and DEL as `\xNN`, C1 likewise, the bidirectional
/// controls that reorder what a terminal shows as `\u{NNNN}`, and a backslash as `\\` so that
/// an escape cannot be forged either. The one implementation, shared by every program; the
/// code points it escapes are `Unicode.Scalar.isTerminalControl`'s, which the JSON writer
/// escapes too.
extension String {
    public var escapedForTerminal: String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if scalar.isTerminalControl {
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
}
