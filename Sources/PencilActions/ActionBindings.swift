import PencilDevices
import PencilProtocol

/// The bindings of one actions.conf: at most one per preferred action for every app (the
/// sections without an app), and the sections written for some apps; `ignore` has none.
public struct ActionBindings: Equatable, Sendable {
    /// The fallback: what an action does when no app section of it matches the focused app.
    public var bindings: [PreferredAction: Binding]
    /// The line each fallback binding was written on, for messages.
    public var lines: [PreferredAction: Int]
    /// The per-app sections, in the file's order: the first that matches wins.
    public var perApp: [AppBinding]
    /// The `[palette]` sections, in the file's order: the first whose app matches wins, and the
    /// one without an app is the fallback.
    public var palettes: [PaletteSection]

    public init(bindings: [PreferredAction: Binding] = [:], lines: [PreferredAction: Int] = [:], perApp: [AppBinding] = [],
                palettes: [PaletteSection] = []) {
        self.bindings = bindings
        self.lines = lines
        self.perApp = perApp
        self.palettes = palettes
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

    /// The palette section for `app` (nil: no app is known): the first `[palette @APP]` that
    /// matches it, else `[palette]`, else none.
    public func palette(for app: String?) -> PaletteSection? {
        if let app, let section = palettes.first(where: { $0.pattern?.matches(app) == true }) { return section }
        return palettes.first { $0.pattern == nil }
    }

    /// Every key some chord presses, for any app: what the virtual keyboard must be able to
    /// send. Never a key `ChordPolicy` refuses (bindings made in code could hold one): the
    /// keyboard cannot send it even when asked.
    public var keys: Set<UInt16> {
        var keys: Set<UInt16> = []
        for case .key(let chord) in bindings.values { keys.formUnion(chord.keys) }
        for case .key(let chord) in perApp.map(\.binding) { keys.formUnion(chord.keys) }
        for section in palettes {
            for chord in [section.undo, section.redo].compactMap({ $0 }) + section.entries.map(\.chord) { keys.formUnion(chord.keys) }
        }
        for chord in [PalettePlan.defaultUndo, PalettePlan.defaultRedo] where !palettes.isEmpty { keys.formUnion(chord.keys) }
        return keys.intersection(ChordPolicy.allowedKeys)
    }

    /// The app patterns written in the file, each once, in the file's order.
    public var appPatterns: [AppPattern] {
        var seen: Set<String> = []
        return (perApp.map(\.pattern) + palettes.compactMap(\.pattern)).filter { seen.insert($0.text).inserted }
    }
}
