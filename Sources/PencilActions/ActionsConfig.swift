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

/// The bindings of one actions.conf: at most one per preferred action for every app (the
/// sections without an app), and the sections written for some apps; `ignore` has none.
public struct ActionBindings: Equatable, Sendable {
    /// The fallback: what an action does when no app section of it matches the focused app.
    public var bindings: [PreferredAction: Binding]
    /// The line each fallback binding was written on, for messages.
    public var lines: [PreferredAction: Int]
    /// The per-app sections, in the file's order: the first that matches wins.
    public var perApp: [AppBinding]

    public init(bindings: [PreferredAction: Binding] = [:], lines: [PreferredAction: Int] = [:], perApp: [AppBinding] = []) {
        self.bindings = bindings
        self.lines = lines
        self.perApp = perApp
    }

    public static let empty = ActionBindings()

    /// The fallback binding of `action`.
    public subscript(action: PreferredAction) -> Binding? { bindings[action] }

    /// The binding `action` uses while `app` has the focus (nil: no app is known), and
    /// which section it comes from.
    public func resolve(_ action: PreferredAction, app: String?) -> ResolvedBinding {
        if let app {
            for entry in perApp where entry.action == action && entry.pattern.matches(app) {
                return ResolvedBinding(binding: entry.binding, pattern: entry.pattern, line: entry.line)
            }
        }
        return ResolvedBinding(binding: bindings[action], pattern: nil, line: lines[action])
    }

    /// Every key some chord presses, for any app: what the virtual keyboard must be able to
    /// send. Never a key `ChordPolicy` refuses (bindings made in code could hold one): the
    /// keyboard cannot send it even when asked.
    public var keys: Set<UInt16> {
        var keys: Set<UInt16> = []
        for case .key(let chord) in bindings.values { keys.formUnion(chord.keys) }
        for case .key(let chord) in perApp.map(\.binding) { keys.formUnion(chord.keys) }
        return keys.intersection(ChordPolicy.allowedKeys)
    }

    /// The app patterns written in the file, each once, in the file's order.
    public var appPatterns: [AppPattern] {
        var seen: Set<String> = []
        return perApp.map(\.pattern).filter { seen.insert($0.text).inserted }
    }
}

/// One `[ACTION @PATTERN]` section: its action's binding while a matching app has the focus.
public struct AppBinding: Equatable, Sendable {
    public var action: PreferredAction
    public var pattern: AppPattern
    public var binding: Binding
    public var line: Int

    public init(action: PreferredAction, pattern: AppPattern, binding: Binding, line: Int) {
        self.action = action
        self.pattern = pattern
        self.binding = binding
        self.line = line
    }
}

/// What an action does for one app: the binding (nil: nothing) and the section it was
/// written in (pattern nil: the fallback section).
public struct ResolvedBinding: Equatable, Sendable {
    public var binding: Binding?
    public var pattern: AppPattern?
    public var line: Int?

    public init(binding: Binding?, pattern: AppPattern?, line: Int?) {
        self.binding = binding
        self.pattern = pattern
        self.line = line
    }

    /// "[switchEraser @krita], line 12" or "[switchEraser], line 3".
    public func section(of action: PreferredAction) -> String {
        let header = "[\(action.rawValue)\(pattern.map { " @\($0.text)" } ?? "")]"
        return line.map { "\(header), line \($0)" } ?? header
    }
}

/// An app id pattern: `*` any run of characters, `?` one character, everything else itself;
/// compared without regard to ASCII case (X11 classes are `Krita`, Wayland app ids `krita` or
/// `org.kde.krita`).
public struct AppPattern: Equatable, Hashable, Sendable, CustomStringConvertible {
    public let text: String
    private let folded: [UInt8]

    /// Longer patterns are refused: an app id is a short name.
    public static let maximumLength = 255

    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maximumLength,
              bytes.allSatisfy({ $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "]") && $0 != UInt8(ascii: "[") }) else { return nil }
        self.text = text
        folded = bytes.map(Self.fold)
    }

    public var description: String { text }

    public func matches(_ app: String) -> Bool {
        let name = app.utf8.map(Self.fold)
        // Iterative glob with one backtracking point: linear in practice, never exponential.
        var p = 0, n = 0
        var star: Int?
        var starName = 0
        while n < name.count {
            if p < folded.count, folded[p] == UInt8(ascii: "?") || folded[p] == name[n] {
                p += 1
                n += 1
            } else if p < folded.count, folded[p] == UInt8(ascii: "*") {
                star = p
                starName = n
                p += 1
            } else if let star {
                p = star + 1
                starName += 1
                n = starName
            } else {
                return false
            }
        }
        while p < folded.count, folded[p] == UInt8(ascii: "*") { p += 1 }
        return p == folded.count
    }

    private static func fold(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
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
/// `#` and `;` start comments. `[ACTION @PATTERN]` binds the action for the apps whose id
/// matches PATTERN; `[ACTION]` is the fallback for every other app. A chord `ChordPolicy`
/// refuses (Power, Alt+F2, Ctrl+Alt+Delete...) is a mistake of the file.
///
///     [switchEraser]
///     key = shift+e
///
///     [switchEraser @*xournalpp*]
///     key = ctrl+shift+e
///
///     [runSystemShortcut]
///     command = notify-send "pen" "squeezed"
public enum ActionsConfig {
    /// Larger files are refused: a bindings file is a few hundred bytes.
    public static let maximumBytes = 64 * 1024

    public static func parse(_ text: String, file: String) throws(ActionsConfigError) -> ActionBindings {
        var result = ActionBindings()
        var section: (action: PreferredAction, pattern: AppPattern?)?
        var sectionLine = 0
        var sectionBound = false
        var firstLines: [String: Int] = [:]
        var lineNumber = 0
        func fail(_ message: String) -> ActionsConfigError { ActionsConfigError(file: file, line: lineNumber, message: message) }
        func header(_ action: PreferredAction, _ pattern: AppPattern?) -> String {
            "[\(action.rawValue)\(pattern.map { " @\($0.text)" } ?? "")]"
        }
        func closeSection() throws(ActionsConfigError) {
            if let section, !sectionBound {
                throw ActionsConfigError(file: file, line: sectionLine,
                                         message: "\(header(section.action, section.pattern)) binds nothing: give it key = CHORD or command = PROGRAM")
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
                let inside = String(line.dropFirst().dropLast()).trimmingWhitespace()
                let words = inside.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                let name = words.first ?? ""
                guard let action = PreferredAction(rawValue: name) else {
                    throw fail("unknown action [\(name)] (expected one of \(actionNames))")
                }
                guard action != .ignore else { throw fail("[ignore] means do nothing: it cannot be bound") }
                var pattern: AppPattern?
                if words.count > 1 {
                    guard words.count == 2, words[1].hasPrefix("@"), words[1].count > 1 else {
                        throw fail("expected [\(name)] or [\(name) @APP], where APP is an app id or a glob such as *xournalpp*, not [\(inside)]")
                    }
                    guard let parsed = AppPattern(String(words[1].dropFirst())) else {
                        throw fail("the app pattern \(words[1]) is longer than \(AppPattern.maximumLength) bytes or holds a control character or a bracket")
                    }
                    pattern = parsed
                }
                let key = header(action, pattern.map { AppPattern($0.text.lowercased()) ?? $0 })
                if let first = firstLines[key] {
                    throw fail("\(header(action, pattern)) appears twice (first on line \(first))")
                }
                firstLines[key] = lineNumber
                section = (action, pattern)
                sectionLine = lineNumber
                sectionBound = false
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { throw fail("expected key = CHORD or command = PROGRAM, not '\(line)'") }
            let key = String(line[..<equals]).trimmingWhitespace()
            let value = String(line[line.index(after: equals)...]).trimmingWhitespace()
            guard let current = section else {
                throw fail("\(key) = must be inside a section naming an action, such as [switchEraser]")
            }
            let name = header(current.action, current.pattern)
            guard key == "key" || key == "command" else {
                throw fail("unknown setting '\(key)' in \(name) (expected key or command)")
            }
            if sectionBound {
                throw fail("\(name) already has a binding: one key or one command per action")
            }
            guard !value.isEmpty else { throw fail("\(key) = needs a value") }
            let binding: Binding
            switch key {
            case "key":
                switch KeyChord.parse(value) {
                case .success(let chord):
                    // The seat keyboard's rule (pencild's), for pencil-actions' own keyboard too:
                    // said here, with the line, rather than at the first gesture.
                    if let refusal = ChordPolicy.refusal(of: chord) {
                        throw fail("key = \(value): no keyboard presses this chord, neither pencild's nor pencil-actions' own: \(refusal)")
                    }
                    binding = .key(chord)
                case .failure(let error): throw fail("key = \(value): \(error)")
                }
            default:
                switch CommandWords.split(value) {
                case .success(let words): binding = .command(words)
                case .failure(let error): throw fail("command = \(value): \(error)")
                }
            }
            sectionBound = true
            if let pattern = current.pattern {
                result.perApp.append(AppBinding(action: current.action, pattern: pattern, binding: binding, line: sectionLine))
            } else {
                result.bindings[current.action] = binding
                result.lines[current.action] = sectionLine
            }
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
