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
