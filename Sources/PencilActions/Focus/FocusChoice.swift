import PencilSystem

/// Which provider this session gets, from its environment (`--focus` can name one).
public enum FocusChoice: Equatable, Sendable {
    case x11(display: String)
    case wlroots(display: String)
    case kde
    case gnome
    case none(String)

    public static let names = ["auto", "x11", "wlroots", "kde", "gnome", "none"]

    /// `requested` is `--focus`'s value ("auto" chooses from the environment).
    public static func choose(requested: String = "auto", environment: (String) -> String?) -> FocusChoice {
        let desktop = (environment("XDG_CURRENT_DESKTOP") ?? "").uppercased().split(separator: ":").map(String.init)
        let wayland = environment("WAYLAND_DISPLAY").flatMap { $0.isEmpty ? nil : $0 }
        let x11 = environment("DISPLAY").flatMap { $0.isEmpty ? nil : $0 }
        switch requested {
        case "x11":
            return x11.map { .x11(display: $0) } ?? .none("--focus x11, but DISPLAY is not set")
        case "wlroots":
            return wayland.map { .wlroots(display: $0) } ?? .none("--focus wlroots, but WAYLAND_DISPLAY is not set")
        case "kde": return .kde
        case "gnome": return .gnome
        case "none": return .none("--focus none: every app gets the fallback sections")
        default: break
        }
        // KWin and GNOME Shell keep the focus to themselves on Wayland, and on X11 their own
        // notifications are the same on both: their providers first.
        if desktop.contains("KDE") { return .kde }
        if desktop.contains("GNOME") { return .gnome }
        if let wayland { return .wlroots(display: wayland) }
        if let x11 { return .x11(display: x11) }
        return .none("neither WAYLAND_DISPLAY nor DISPLAY is set, and the desktop (XDG_CURRENT_DESKTOP) is neither KDE nor GNOME")
    }
}
