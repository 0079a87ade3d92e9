import JSON

/// A line `pencil-palette` writes (docs/pencil-actions.md, "The system palette"). Read from a
/// program of ours, yet distrusted all the same: a line that is not one of these is a mistake
/// said in the log, never acted on.
public enum PaletteReply: Equatable, Sendable {
    /// On screen, at this rectangle in screen pixels, by this route.
    case shown(x: Int64, y: Int64, width: Int64, height: Int64, route: String)
    /// The person took this item.
    case chosen(String)
    /// Closed without an item: "escape", "outside", "again", "away", "ended".
    case closed(String)
    /// It could not open, and why.
    case error(String)

    /// The longest reply line read: a shown rectangle is well under a hundred bytes.
    public static let maximumLineBytes = 4096

    public static func parse(_ line: [UInt8]) -> PaletteReply? {
        guard line.count <= maximumLineBytes, let json = try? JSONReader.parse(line) else { return nil }
        if let shown = json["shown"] {
            guard let x = shown["x"]?.intValue, let y = shown["y"]?.intValue,
                  let width = shown["width"]?.intValue, let height = shown["height"]?.intValue else { return nil }
            return .shown(x: x, y: y, width: width, height: height, route: shown["route"]?.stringValue ?? "unknown")
        }
        if let id = json["chosen"]?.stringValue { return .chosen(id) }
        if let reason = json["closed"]?.stringValue { return .closed(reason) }
        if let reason = json["error"]?.stringValue { return .error(reason) }
        return nil
    }
}
