import JSON

/// A line `pencil-palette` writes (docs/pencil-actions.md, "The system palette"). Read from a
/// program of ours, yet distrusted all the same: a line that is not one of these is a mistake
/// said in the log, never acted on.
public enum PaletteReply: Equatable, Sendable {
    /// On screen, at this rectangle in screen pixels, by this route, with where each item is.
    case shown(x: Int64, y: Int64, width: Int64, height: Int64, route: String, items: [PaletteItemPlace])
    /// The person took this item.
    case chosen(String)
    /// Closed without an item: "escape", "outside", "again", "away", "ended".
    case closed(String)
    /// It could not open, and why.
    case error(String)

    /// The longest reply line read: a shown reply with its 32 items' places is under 5 KiB.
    public static let maximumLineBytes = 16 * 1024
    /// The most item places read from one shown reply: the palette is given at most 32 items.
    public static let maximumItemPlaces = 32

    public static func parse(_ line: [UInt8]) -> PaletteReply? {
        guard line.count <= maximumLineBytes, let json = try? JSONReader.parse(line) else { return nil }
        if let shown = json["shown"] {
            guard let x = shown["x"]?.intValue, let y = shown["y"]?.intValue,
                  let width = shown["width"]?.intValue, let height = shown["height"]?.intValue else { return nil }
            // Places that are not rectangles are left out: they only say where items are.
            let places = (shown["items"]?.objectValue ?? []).prefix(maximumItemPlaces).compactMap { id, place in
                PaletteItemPlace(id: id, place)
            }
            return .shown(x: x, y: y, width: width, height: height, route: shown["route"]?.stringValue ?? "unknown", items: places)
        }
        if let id = json["chosen"]?.stringValue { return .chosen(id) }
        if let reason = json["closed"]?.stringValue { return .closed(reason) }
        if let reason = json["error"]?.stringValue { return .error(reason) }
        return nil
    }
}

/// Where one item of a shown palette is, in screen pixels: what a tap on it meets.
public struct PaletteItemPlace: Equatable, Sendable {
    public var id: String
    public var x: Int64
    public var y: Int64
    public var width: Int64
    public var height: Int64

    public init(id: String, x: Int64, y: Int64, width: Int64, height: Int64) {
        self.id = id
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    init?(id: String, _ json: JSONValue) {
        guard let x = json["x"]?.intValue, let y = json["y"]?.intValue,
              let width = json["width"]?.intValue, let height = json["height"]?.intValue else { return nil }
        self.init(id: id, x: x, y: y, width: width, height: height)
    }
}
