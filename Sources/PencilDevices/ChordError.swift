import CEvdev
import PencilProtocol

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
