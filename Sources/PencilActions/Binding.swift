import PencilDevices
import PencilProtocol

/// What a preferred action does on this desktop: a key chord sent through the virtual
/// keyboard, or a command run with the event's fields in its environment.
public enum Binding: Equatable, Sendable, CustomStringConvertible {
    case key(KeyChord)
    /// The program and its arguments (no shell: `sh -c` if the person wants one).
    case command([String])

    public var description: String {
        switch self {
        case .key(let chord): return "key \(chord)"
        case .command(let words): return "command \(CommandWords.quoted(words))"
        }
    }
}
