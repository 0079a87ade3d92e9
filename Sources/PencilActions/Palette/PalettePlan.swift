import JSON
import PencilClient
import PencilDevices
import PencilProtocol

/// What performing one item of the system palette means.
public enum PaletteChoice: Equatable, Sendable {
    /// The tool the tip is reported as, through the pen's mirror: "pen" or "eraser".
    case tool(String)
    case chord(KeyChord)
}

/// One item of the system palette, as `pencil-palette` shows it.
public struct PaletteItem: Equatable, Sendable {
    /// Stable within one opening: "tool.pen", "undo", "app.0"...
    public var id: String
    public var label: String
    public var group: PaletteGroup
    /// For the tools: whether it is the one in use.
    public var checked: Bool?
    public var choice: PaletteChoice
}

/// The system palette for one gesture, free of I/O (docs/gestures.md, "Which app acts: the
/// system palette"): whether it opens, what it holds, where and at which item, and the request
/// `pencil-palette` reads.
public struct PalettePlan: Equatable, Sendable {
    public var items: [PaletteItem]
    /// The group whose first item has the keyboard at the start (nil: the first item).
    public var openAt: PaletteGroup?
    /// The pen's place, 0 to 1 of the screen the tablet is mapped to (nil: unknown).
    public var pen: (x: Double, y: Double)?
    public var hovering: Bool
    /// The app in front, by its id (nil: unknown).
    public var app: String?

    public static func == (lhs: PalettePlan, rhs: PalettePlan) -> Bool {
        lhs.items == rhs.items && lhs.openAt == rhs.openAt && lhs.pen?.x == rhs.pen?.x && lhs.pen?.y == rhs.pen?.y
            && lhs.hovering == rhs.hovering && lhs.app == rhs.app
    }

    /// The chords of Undo and Redo where the bindings give none: GTK's, Qt's and most apps'.
    public static let defaultUndo = Self.chord("ctrl+z")
    public static let defaultRedo = Self.chord("ctrl+shift+z")

    private static func chord(_ text: String) -> KeyChord {
        switch KeyChord.parse(text) {
        case .success(let chord): return chord
        case .failure(let error): preconditionFailure("the palette's own chord \(text): \(error)")
        }
    }

    /// The three preferred actions that are palettes.
    public static let paletteActions: Set<PreferredAction> = [.showContextualPalette, .showColorPalette, .showInkAttributes]

    /// Whether `request` opens the system palette: a palette action (case 1) that the bindings
    /// do not bind for `app`. `request` already passed `ActionDecision.request`: focus `none`,
    /// a double-tap or an ended squeeze.
    public static func opens(_ request: GestureRequest, bindings: ActionBindings, app: String?) -> Bool {
        paletteActions.contains(request.action) && bindings.resolve(request.action, app: app).binding == nil
    }

    /// The palette for `request` while `app` has the focus. `tipReportedAs` is the pen's
    /// `Device.tipReportedAs`: nil where it has no mirror, and then the palette has no tools.
    public init(for request: GestureRequest, bindings: ActionBindings, app: String?, tipReportedAs: String?) {
        var items: [PaletteItem] = []
        if let tip = tipReportedAs {
            let eraser = tip == "eraser"
            items.append(PaletteItem(id: "tool.pen", label: "Pen", group: .tools, checked: !eraser, choice: .tool("pen")))
            items.append(PaletteItem(id: "tool.eraser", label: "Eraser", group: .tools, checked: eraser, choice: .tool("eraser")))
        }
        let section = bindings.palette(for: app)
        items.append(PaletteItem(id: "undo", label: "Undo", group: .edit, checked: nil, choice: .chord(section?.undo ?? Self.defaultUndo)))
        items.append(PaletteItem(id: "redo", label: "Redo", group: .edit, checked: nil, choice: .chord(section?.redo ?? Self.defaultRedo)))
        for (index, entry) in (section?.entries ?? []).enumerated() {
            items.append(PaletteItem(id: "app.\(index)", label: entry.label, group: entry.group, checked: nil, choice: .chord(entry.chord)))
        }
        let wanted: PaletteGroup? = switch request.action {
        case .showColorPalette: .color
        case .showInkAttributes: .ink
        default: nil
        }
        self.items = items
        openAt = wanted.flatMap { group in items.contains { $0.group == group } ? group : nil }
        if let pose = request.event?.pose {
            pen = (min(max(pose.x, 0), 1), min(max(pose.y, 0), 1))
            hovering = pose.pressure == 0
        } else {
            pen = nil
            hovering = true
        }
        self.app = app
    }

    /// The item chosen by its id (nil: not one of this palette's).
    public func item(id: String) -> PaletteItem? { items.first { $0.id == id } }

    /// The request line `pencil-palette` reads (docs/pencil-actions.md, "The system palette").
    public var request: JSONValue {
        let itemValues: [JSONValue] = items.map { item in
            var members: [(String, JSONValue)] = [("id", .string(item.id)), ("label", .string(item.label)), ("group", .string(item.group.rawValue))]
            if let checked = item.checked { members.append(("checked", .bool(checked))) }
            return .object(members)
        }
        return .object([
            ("version", .int(1)),
            ("app", app.map(JSONValue.string) ?? .null),
            ("pen", pen.map { JSONValue.object([("x", .double($0.x)), ("y", .double($0.y))]) } ?? .null),
            ("hovering", .bool(hovering)),
            ("open_at", openAt.map { JSONValue.string($0.rawValue) } ?? .null),
            ("items", .array(itemValues)),
        ])
    }
}
