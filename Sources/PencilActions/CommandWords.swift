import PencilDevices
import PencilProtocol

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
