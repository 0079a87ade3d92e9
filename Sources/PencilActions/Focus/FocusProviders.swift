/// The provider for a choice of `FocusChoice`.
public enum FocusProviders {
    public static func make(_ choice: FocusChoice, kwinScript: String? = nil, log: ActionsLog) -> FocusProvider {
        switch choice {
        case .x11(let display): return X11FocusProvider(display: display)
        case .wlroots(let display): return WlrootsFocusProvider(display: display)
        case .kde: return DesktopBusFocusProvider(.kde(script: kwinScript ?? defaultKWinScript()), log: log)
        case .gnome: return DesktopBusFocusProvider(.gnome, log: log, extensionRecord: GnomeExtensionRecord(path: GnomeExtensionRecord.defaultPath()))
        case .none(let reason): return NoFocusProvider(reason: reason)
        }
    }

    /// The KWin script installed beside pencil-actions.
    public static func defaultKWinScript() -> String { InstalledData.path(of: "kwin-focus.js") }
}
