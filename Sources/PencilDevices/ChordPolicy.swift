/// Which chords a keyboard shared by a seat's users may press (docs/robustness.md, "The
/// seat's keyboard and the seat's input"): the keys an app's shortcut uses, and none that acts on the machine or
/// on another session. The keyboard is the system's, so a chord that could reach a text
/// console, the display server or the power button is refused whoever asks.
public enum ChordPolicy {
    /// Letters, digits, punctuation, space, Enter, Tab, Escape, Backspace, the editing and
    /// cursor keys, F1–F12, the keypad and the modifiers. Not Power, Sleep, Wake-up, SysRq
    /// (Print), Pause/Break, the lock keys (their state outlives the chord) or media keys.
    public static let allowedKeys: Set<UInt16> = {
        var keys = Set<UInt16>(1...57)          // Esc … Space: the main block and its modifiers
        keys.formUnion(59...68)                  // F1–F10
        keys.formUnion(71...83)                  // the keypad's digits and operators
        keys.formUnion([86, 87, 88])             // 102nd, F11, F12
        keys.formUnion([96, 97, 98, 100])        // KP Enter, right Ctrl, KP /, right Alt
        keys.formUnion(102...111)                // Home … Delete: cursor and editing keys
        keys.formUnion([117, 125, 126, 127])     // KP =, the Super keys, Menu
        return keys
    }()

    static let alt: Set<UInt16> = [56, 100]
    static let ctrl: Set<UInt16> = [29, 97]
    static let functionKeys: Set<UInt16> = Set(59...68).union([87, 88])
    /// Left and Right: with Alt they step through the virtual consoles on a text console.
    static let consoleArrows: Set<UInt16> = [105, 106]
    static let backspace: UInt16 = 14
    static let deleteKeys: Set<UInt16> = [111, 83]

    /// Why `chord` may not be pressed, or nil when it may.
    public static func refusal(of chord: KeyChord) -> ChordRefusal? {
        for code in chord.keys where !allowedKeys.contains(code) {
            return ChordRefusal(key: KeyNames.name(of: code), reason: "not a key of an app's shortcut: the keyboard sends only letters, digits, punctuation, editing and cursor keys, F1–F12, the keypad and modifiers")
        }
        let keys = Set(chord.keys)
        let withAlt = !keys.isDisjoint(with: alt), withCtrl = !keys.isDisjoint(with: ctrl)
        let key = KeyNames.name(of: chord.key)
        if withAlt, functionKeys.contains(chord.key) {
            return ChordRefusal(key: key, reason: "Alt with a function key switches virtual terminals")
        }
        if withAlt, consoleArrows.contains(chord.key) {
            return ChordRefusal(key: key, reason: "Alt with Left or Right switches virtual terminals on a text console")
        }
        if withAlt, withCtrl, chord.key == backspace {
            return ChordRefusal(key: key, reason: "Ctrl+Alt+Backspace ends the X server where zapping is on")
        }
        if withAlt, withCtrl, deleteKeys.contains(chord.key) {
            return ChordRefusal(key: key, reason: "Ctrl+Alt+Delete restarts the machine from a text console")
        }
        return nil
    }
}

/// A key a chord may not use, and why, in words for the person who bound it.
public struct ChordRefusal: Equatable, Sendable, CustomStringConvertible {
    public var key: String
    public var reason: String

    public var description: String { "\(key): \(reason)" }
}
