import Foundation

/// interfaces/org.pencild.Pen.varlink as tests read it: the names every side is generated from,
/// so that a test asserts what the interface says rather than a list written again.
public enum InterfaceFile {
    public static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("interfaces/org.pencild.Pen.varlink")

    /// The entries of its line `# <kind> names: a, b (a note), c`, in order: each name with its
    /// note ("" without one).
    public static func entries(_ kind: String) -> [(name: String, note: String)] {
        guard let text = try? String(contentsOf: url, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("# \(kind) names: ") }) else { return [] }
        var entries: [(name: String, note: String)] = []
        var name = "", note = "", depth = 0
        for character in line.dropFirst("# \(kind) names: ".count) + "," {
            switch (character, depth) {
            case ("(", _): depth += 1; if depth > 1 { note.append(character) }
            case (")", _): depth -= 1; if depth > 0 { note.append(character) }
            case (",", 0):
                entries.append((name.trimmingCharacters(in: .whitespaces), note))
                name = ""
                note = ""
            case (_, 0): name.append(character)
            default: note.append(character)
            }
        }
        return entries
    }

    /// The names alone.
    public static func names(_ kind: String) -> [String] { entries(kind).map(\.name) }
}
