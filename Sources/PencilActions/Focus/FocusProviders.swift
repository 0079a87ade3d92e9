/// The provider for a choice of `FocusChoice`.
public enum FocusProviders {
    public static func make(_ choice: FocusChoice, log: ActionsLog) -> FocusProvider {
        switch choice {
        case .x11(let display): return X11FocusProvider(display: display)
        case .wlroots(let display): return WlrootsFocusProvider(display: display)
        case .kde: return NoFocusProvider(reason: "KDE: not built in")
        case .gnome: return NoFocusProvider(reason: "GNOME: not built in")
        case .none(let reason): return NoFocusProvider(reason: reason)
        }
    }
}
