import PencilDevices
import PencilProtocol

/// The groups of the system palette, in the order it shows them. An app's own items are in
/// `color`, `ink` or `action`; `tools` and `edit` are the palette's own (Pen and Eraser,
/// Undo and Redo).
public enum PaletteGroup: String, Sendable, CaseIterable {
    case tools, edit, color, ink, action

    /// The groups a `[palette]` section may list items in, by their setting's name.
    public static let appGroups: [PaletteGroup] = [.color, .ink, .action]
}

/// One item of an app's own: its label, as the app names the action, and the chord that
/// performs it there.
public struct PaletteEntry: Equatable, Sendable {
    public var group: PaletteGroup
    public var label: String
    public var chord: KeyChord
    public var line: Int

    public init(group: PaletteGroup, label: String, chord: KeyChord, line: Int) {
        self.group = group
        self.label = label
        self.chord = chord
        self.line = line
    }
}

/// A `[palette]` or `[palette @APP]` section of actions.conf: what the system palette holds
/// for the apps it matches (docs/gestures.md, "Which app acts: the system palette").
///
///     [palette @*gimp*]
///     undo = ctrl+z
///     redo = ctrl+y
///     color = Swap Colors: x
///     ink = Brushes: ctrl+shift+b
public struct PaletteSection: Equatable, Sendable {
    /// nil: the fallback for every app no other section matches.
    public var pattern: AppPattern?
    /// nil: the palette's own default (Ctrl+Z, Ctrl+Shift+Z).
    public var undo: KeyChord?
    public var redo: KeyChord?
    /// In the file's order.
    public var entries: [PaletteEntry]
    public var line: Int

    public init(pattern: AppPattern?, undo: KeyChord? = nil, redo: KeyChord? = nil, entries: [PaletteEntry] = [], line: Int) {
        self.pattern = pattern
        self.undo = undo
        self.redo = redo
        self.entries = entries
        self.line = line
    }

    /// Items of an app's own in one section: the palette stays small enough to take in at a
    /// glance under the pen.
    public static let maximumEntries = 16
    /// Characters of a label: a menu item's name, not a sentence.
    public static let maximumLabelLength = 48

    /// What is wrong with an item's line.
    struct EntryMistake: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Reads `LABEL: CHORD`, the value of a `color`, `ink` or `action` line. The chord is after
    /// the last colon, since a chord never holds one and a label may.
    static func parseEntry(_ value: String) -> Result<(label: String, chord: KeyChord), EntryMistake> {
        guard let colon = value.lastIndex(of: ":") else {
            return .failure(EntryMistake("expected LABEL: CHORD, such as 'Swap Colors: x', not '\(value)'"))
        }
        let label = String(value[..<colon]).trimmingWhitespace()
        let chordText = String(value[value.index(after: colon)...]).trimmingWhitespace()
        guard !label.isEmpty else { return .failure(EntryMistake("the item has no label before the colon")) }
        guard label.count <= maximumLabelLength else {
            return .failure(EntryMistake("the label '\(label)' is longer than \(maximumLabelLength) characters"))
        }
        guard label.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }) else {
            return .failure(EntryMistake("the label holds a control character"))
        }
        switch KeyChord.parse(chordText) {
        case .success(let chord): return .success((label, chord))
        case .failure(let error): return .failure(EntryMistake("'\(chordText)': \(error)"))
        }
    }
}
