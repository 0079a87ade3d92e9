import CEvdev
import PencilProtocol

/// A key chord: modifiers held around one key, by evdev code (`shift+e`, `ctrl+alt+delete`).
public struct KeyChord: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Modifier keys, in the order they are pressed.
    public var modifiers: [UInt16]
    public var key: UInt16

    public init(modifiers: [UInt16], key: UInt16) {
        self.modifiers = modifiers
        self.key = key
    }

    /// Every key the chord presses.
    public var keys: [UInt16] { modifiers + [key] }

    /// The chord with evdev names, lower case, as a person would write it (`leftshift+e`).
    public var description: String { keys.map(KeyNames.name(of:)).joined(separator: "+") }

    /// One frame per key change: each modifier down, the key down, the key up, each modifier
    /// up in the reverse order. Value 1 is down, 0 is up.
    public var frames: [KeyFrame] {
        var frames = modifiers.map { KeyFrame(code: $0, down: true) }
        frames.append(KeyFrame(code: key, down: true))
        frames.append(KeyFrame(code: key, down: false))
        frames += modifiers.reversed().map { KeyFrame(code: $0, down: false) }
        return frames
    }

    /// Parses `shift+e`: modifiers, then one key. Names are evdev's without `KEY_`, in any
    /// case; `ctrl`, `shift`, `alt` and `super` mean the left-hand keys, `right...` the others.
    public static func parse(_ text: String) -> Result<KeyChord, ChordError> {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map { $0.trimmingWhitespace().lowercased() }
        guard parts.count <= 8 else { return .failure(.tooManyKeys(text)) }
        var codes: [UInt16] = []
        for part in parts {
            guard !part.isEmpty else { return .failure(.emptyName(text)) }
            guard let code = KeyNames.code(of: part) else { return .failure(.unknownKey(part)) }
            guard !codes.contains(code) else { return .failure(.repeated(part)) }
            codes.append(code)
        }
        let key = codes.removeLast()
        if let notModifier = codes.first(where: { !KeyNames.modifiers.contains($0) }) {
            return .failure(.notAModifier(KeyNames.name(of: notModifier)))
        }
        return .success(KeyChord(modifiers: codes, key: key))
    }
}

/// One frame of a chord on the virtual keyboard.
public struct KeyFrame: Equatable, Sendable {
    public var code: UInt16
    public var down: Bool
    public init(code: UInt16, down: Bool) {
        self.code = code
        self.down = down
    }
}

/// What is wrong with a chord, in words for the person who wrote it.
public enum ChordError: Error, Equatable, Sendable, CustomStringConvertible {
    case emptyName(String)
    case unknownKey(String)
    case repeated(String)
    case notAModifier(String)
    case tooManyKeys(String)

    /// The key the error is about, when it is about one.
    public var keyName: String? {
        switch self {
        case .unknownKey(let name), .repeated(let name), .notAModifier(let name): return name
        case .emptyName, .tooManyKeys: return nil
        }
    }

    public var description: String {
        switch self {
        case .emptyName(let chord):
            return "'\(chord)' has an empty key name (keys are joined by +, e.g. ctrl+shift+z)"
        case .unknownKey(let name):
            return "unknown key '\(name)': use evdev key names without KEY_ (e, f5, space, leftbrace, ...) or ctrl, shift, alt, super"
        case .repeated(let name):
            return "'\(name)' appears twice in the chord"
        case .notAModifier(let name):
            return "only modifiers (ctrl, shift, alt, super, left or right) may come before the last key, not '\(name)'"
        case .tooManyKeys(let chord):
            return "'\(chord)' has more than 8 keys"
        }
    }
}

/// evdev key names and codes, from libevdev's tables.
public enum KeyNames {
    static let keyMaximum: UInt16 = 0x2FF

    /// The short names and what they mean.
    static let aliases: [String: String] = [
        "ctrl": "leftctrl", "control": "leftctrl", "shift": "leftshift", "alt": "leftalt",
        "super": "leftmeta", "meta": "leftmeta", "leftsuper": "leftmeta", "rightsuper": "rightmeta",
        "altgr": "rightalt", "esc": "esc", "escape": "esc", "return": "enter", "del": "delete",
    ]

    public static let modifiers: Set<UInt16> = Set(
        ["leftctrl", "rightctrl", "leftshift", "rightshift", "leftalt", "rightalt", "leftmeta", "rightmeta"]
            .compactMap { code(of: $0) })

    /// The code of a key name (`e`, `KEY_E`, `shift`), or nil when evdev has no such key.
    public static func code(of name: String) -> UInt16? {
        var lower = name.lowercased()
        if lower.hasPrefix("key_") { lower.removeFirst(4) }
        let resolved = aliases[lower] ?? lower
        guard !resolved.isEmpty, resolved.utf8.allSatisfy({ $0 < 0x80 && $0 > 0x20 }) else { return nil }
        let code = libevdev_event_code_from_name(UInt32(EV_KEY), "KEY_" + resolved.uppercased())
        guard code > 0, code <= Int32(keyMaximum) else { return nil }
        return UInt16(code)
    }

    /// `leftshift` for KEY_LEFTSHIFT.
    public static func name(of code: UInt16) -> String {
        guard let name = libevdev_event_code_get_name(UInt32(EV_KEY), UInt32(code)) else { return "key\(code)" }
        var text = String(cString: name).lowercased()
        if text.hasPrefix("key_") { text.removeFirst(4) }
        return text
    }
}
