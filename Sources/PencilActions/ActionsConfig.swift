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

/// The bindings of one actions.conf: at most one per preferred action; `ignore` has none.
public struct ActionBindings: Equatable, Sendable {
    public var bindings: [PreferredAction: Binding]
    /// The line each binding was written on, for messages.
    public var lines: [PreferredAction: Int]

    public init(bindings: [PreferredAction: Binding] = [:], lines: [PreferredAction: Int] = [:]) {
        self.bindings = bindings
        self.lines = lines
    }

    public static let empty = ActionBindings()

    public subscript(action: PreferredAction) -> Binding? { bindings[action] }

    /// Every key some chord presses: what the virtual keyboard must be able to send.
    public var keys: Set<UInt16> {
        var keys: Set<UInt16> = []
        for case .key(let chord) in bindings.values { keys.formUnion(chord.keys) }
        return keys
    }
}

/// A mistake in actions.conf: the file, the line and what is wrong.
public struct ActionsConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    /// 0 when the mistake is about the whole file (too large, unreadable).
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// actions.conf: an INI file like pencild's own. One section per preferred action, named as
/// the protocol names it, holding `key = CHORD` or `command = PROGRAM ARGUMENTS...`;
/// `#` and `;` start comments.
///
///     [switchEraser]
///     key = shift+e
///
///     [runSystemShortcut]
///     command = notify-send "pen" "squeezed"
public enum ActionsConfig {
    /// Larger files are refused: a bindings file is a few hundred bytes.
    public static let maximumBytes = 64 * 1024

    public static func parse(_ text: String, file: String) throws(ActionsConfigError) -> ActionBindings {
        var result = ActionBindings()
        var section: PreferredAction?
        var sectionLine = 0
        var lineNumber = 0
        func fail(_ message: String) -> ActionsConfigError { ActionsConfigError(file: file, line: lineNumber, message: message) }
        func closeSection() throws(ActionsConfigError) {
            if let action = section, result.bindings[action] == nil {
                throw ActionsConfigError(file: file, line: sectionLine,
                                         message: "[\(action.rawValue)] binds nothing: give it key = CHORD or command = PROGRAM")
            }
        }
        let actionNames = PreferredAction.allCases.filter { $0 != .ignore }.map(\.rawValue).joined(separator: ", ")
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw fail("a section header must end with ']'") }
                try closeSection()
                let name = String(line.dropFirst().dropLast()).trimmingWhitespace()
                guard let action = PreferredAction(rawValue: name) else {
                    throw fail("unknown action [\(name)] (expected one of \(actionNames))")
                }
                guard action != .ignore else { throw fail("[ignore] means do nothing: it cannot be bound") }
                if let first = result.lines[action] {
                    throw fail("[\(name)] appears twice (first on line \(first))")
                }
                section = action
                sectionLine = lineNumber
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { throw fail("expected key = CHORD or command = PROGRAM, not '\(line)'") }
            let key = String(line[..<equals]).trimmingWhitespace()
            let value = String(line[line.index(after: equals)...]).trimmingWhitespace()
            guard let action = section else {
                throw fail("\(key) = must be inside a section naming an action, such as [switchEraser]")
            }
            guard key == "key" || key == "command" else {
                throw fail("unknown setting '\(key)' in [\(action.rawValue)] (expected key or command)")
            }
            if result.bindings[action] != nil {
                throw fail("[\(action.rawValue)] already has a binding: one key or one command per action")
            }
            guard !value.isEmpty else { throw fail("\(key) = needs a value") }
            switch key {
            case "key":
                switch KeyChord.parse(value) {
                case .success(let chord): result.bindings[action] = .key(chord)
                case .failure(let error): throw fail("key = \(value): \(error)")
                }
            default:
                switch CommandWords.split(value) {
                case .success(let words): result.bindings[action] = .command(words)
                case .failure(let error): throw fail("command = \(value): \(error)")
                }
            }
            result.lines[action] = sectionLine
        }
        try closeSection()
        return result
    }
}

/// A command line split into words the way a shell splits it, and nothing more: spaces
/// separate words, quotes ('...' literally, "..." with \" and \\) and a backslash keep spaces
/// in a word. No variables, globs or pipes: for those, write `sh -c '...'`.
public enum CommandWords {
    public enum SplitError: Error, Equatable, Sendable, CustomStringConvertible {
        case unterminatedQuote(Character)
        case trailingBackslash

        public var description: String {
            switch self {
            case .unterminatedQuote(let quote): return "a \(quote) quote is not closed"
            case .trailingBackslash: return "it ends with a lone backslash"
            }
        }
    }

    public static func split(_ text: String) -> Result<[String], SplitError> {
        var words: [String] = []
        var word = ""
        var inWord = false
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "'" { closed = true; break }
                    word.append(next)
                }
                if !closed { return .failure(.unterminatedQuote("'")) }
            case "\"":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "\"" { closed = true; break }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { return .failure(.unterminatedQuote("\"")) }
                        if escaped != "\"" && escaped != "\\" { word.append("\\") }
                        word.append(escaped)
                    } else {
                        word.append(next)
                    }
                }
                if !closed { return .failure(.unterminatedQuote("\"")) }
            case "\\":
                guard let escaped = iterator.next() else { return .failure(.trailingBackslash) }
                inWord = true
                word.append(escaped)
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        return .success(words)
    }

    /// The words written back so that `split` gives them again (for display).
    public static func quoted(_ words: [String]) -> String {
        words.map { word in
            let plain = !word.isEmpty && word.allSatisfy { !" \t'\"\\".contains($0) }
            return plain ? word : "'" + word.replacingAll("'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
