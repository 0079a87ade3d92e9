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
///
/// `[palette @PATTERN]` and `[palette]` say what the system palette holds for those apps
/// (`PaletteSection`): `undo = CHORD`, `redo = CHORD`, and items `color`, `ink` or
/// `action = LABEL: CHORD`.
public enum ActionsConfig {
    /// Larger files are refused: a bindings file is a few hundred bytes.
    public static let maximumBytes = 64 * 1024

    public static func parse(_ text: String, file: String) throws(ActionsConfigError) -> ActionBindings {
        var result = ActionBindings()
        var section: Section?
        var sectionLine = 0
        var sectionBound = false
        var palette: PaletteSection?
        var firstLines: [String: Int] = [:]
        var lineNumber = 0
        func fail(_ message: String) -> ActionsConfigError { ActionsConfigError(file: file, line: lineNumber, message: message) }
        func closeSection() throws(ActionsConfigError) {
            if let section, !sectionBound {
                let hint = section.action == nil ? "give it undo, redo, color, ink or action lines" : "give it key = CHORD or command = PROGRAM"
                throw ActionsConfigError(file: file, line: sectionLine, message: "\(section.header) binds nothing: \(hint)")
            }
            if let finished = palette { result.palettes.append(finished) }
            palette = nil
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
                let action = PreferredAction(rawValue: name)
                guard action != nil || name == Section.paletteName else {
                    throw fail("unknown section [\(name)] (expected palette or one of \(actionNames))")
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
                let opened = Section(action: action, pattern: pattern)
                let key = Section(action: action, pattern: pattern.map { AppPattern($0.text.lowercased()) ?? $0 }).header
                if let first = firstLines[key] {
                    throw fail("\(opened.header) appears twice (first on line \(first))")
                }
                firstLines[key] = lineNumber
                section = opened
                sectionLine = lineNumber
                sectionBound = false
                if action == nil { palette = PaletteSection(pattern: pattern, line: lineNumber) }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw fail("expected SETTING = VALUE, such as key = CHORD or command = PROGRAM, not '\(line)'")
            }
            let key = String(line[..<equals]).trimmingWhitespace()
            let value = String(line[line.index(after: equals)...]).trimmingWhitespace()
            guard let current = section else {
                throw fail("\(key) = must be inside a section naming an action, such as [switchEraser], or [palette]")
            }
            guard let action = current.action else {
                try paletteLine(key, value, into: &palette, header: current.header, line: lineNumber, fail: fail)
                sectionBound = true
                continue
            }
            let name = current.header
            guard key == "key" || key == "command" else {
                throw fail("unknown setting '\(key)' in \(name) (expected key or command)")
            }
            if sectionBound {
                throw fail("\(name) already has a binding: one key or one command per action")
            }
            guard !value.isEmpty else { throw fail("\(key) = needs a value") }
            let binding: Binding
            switch key {
            case "key": binding = .key(try allowedChord(value, setting: "key", fail: fail))
            default:
                switch CommandWords.split(value) {
                case .success(let words): binding = .command(words)
                case .failure(let error): throw fail("command = \(value): \(error)")
                }
            }
            sectionBound = true
            if let pattern = current.pattern {
                result.perApp.append(AppBinding(action: action, pattern: pattern, binding: binding, line: sectionLine))
            } else {
                result.bindings[action] = binding
                result.lines[action] = sectionLine
            }
        }
        try closeSection()
        return result
    }

    /// A section being read: an action's (`action` set) or a palette's.
    private struct Section {
        static let paletteName = "palette"
        var action: PreferredAction?
        var pattern: AppPattern?
        var header: String { "[\(action?.rawValue ?? Self.paletteName)\(pattern.map { " @\($0.text)" } ?? "")]" }
    }

    /// A chord the keyboards press. The seat keyboard's rule (pencild's), for pencil-actions'
    /// own keyboard too: said here, with the line, rather than at the first gesture.
    private static func allowedChord(_ text: String, setting: String,
                                     fail: (String) -> ActionsConfigError) throws(ActionsConfigError) -> KeyChord {
        switch KeyChord.parse(text) {
        case .success(let chord):
            if let refusal = ChordPolicy.refusal(of: chord) {
                throw fail("\(setting) = \(text): no keyboard presses this chord, neither pencild's nor pencil-actions' own: \(refusal)")
            }
            return chord
        case .failure(let error): throw fail("\(setting) = \(text): \(error)")
        }
    }

    /// One line of a `[palette]` section.
    private static func paletteLine(_ key: String, _ value: String, into palette: inout PaletteSection?, header: String, line: Int,
                                    fail: (String) -> ActionsConfigError) throws(ActionsConfigError) {
        guard var current = palette else { return }
        guard !value.isEmpty else { throw fail("\(key) = needs a value") }
        switch key {
        case "undo", "redo":
            if (key == "undo" ? current.undo : current.redo) != nil { throw fail("\(header) already has \(key) =") }
            let chord = try allowedChord(value, setting: key, fail: fail)
            if key == "undo" { current.undo = chord } else { current.redo = chord }
        default:
            guard let group = PaletteGroup(rawValue: key), PaletteGroup.appGroups.contains(group) else {
                throw fail("unknown setting '\(key)' in \(header) (expected undo, redo, color, ink or action)")
            }
            guard current.entries.count < PaletteSection.maximumEntries else {
                throw fail("\(header) already holds \(PaletteSection.maximumEntries) items, the most a palette shows")
            }
            switch PaletteSection.parseEntry(value) {
            case .success(let entry):
                if let refusal = ChordPolicy.refusal(of: entry.chord) {
                    throw fail("\(key) = \(value): no keyboard presses this chord: \(refusal)")
                }
                current.entries.append(PaletteEntry(group: group, label: entry.label, chord: entry.chord, line: line))
            case .failure(let why): throw fail("\(key) = \(value): \(why)")
            }
        }
        palette = current
    }
}
