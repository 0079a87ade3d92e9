import CEvdev
import PencilProtocol

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
