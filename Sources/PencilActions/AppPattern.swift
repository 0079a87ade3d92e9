import PencilDevices
import PencilProtocol

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
