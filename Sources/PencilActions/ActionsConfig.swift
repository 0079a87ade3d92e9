import PencilDevices
import PencilProtocol

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
