import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// The provider for a choice of `FocusChoice`.
public enum FocusProviders {
    public static func make(_ choice: FocusChoice, kwinScript: String? = nil, log: ActionsLog) -> FocusProvider {
        switch choice {
        case .x11(let display): return X11FocusProvider(display: display)
        case .wlroots(let display): return WlrootsFocusProvider(display: display)
        case .kde: return DesktopBusFocusProvider(.kde(script: kwinScript ?? defaultKWinScript()), log: log)
        case .gnome: return DesktopBusFocusProvider(.gnome, log: log)
        case .none(let reason): return NoFocusProvider(reason: reason)
        }
    }

    /// The KWin script installed beside pencil-actions: PREFIX/share/pencil-actions/ for
    /// PREFIX/bin/pencil-actions, else Debian's /usr/share/pencil-actions/.
    public static func defaultKWinScript() -> String {
        let relative = "share/pencil-actions/kwin-focus.js"
        if let executable = executablePath() {
            let prefix = FileSystem.directoryName(of: FileSystem.directoryName(of: executable))
            let candidate = (prefix == "/" ? "" : prefix) + "/" + relative
            if (try? FileSystem.status(of: candidate)) != nil { return candidate }
        }
        return "/usr/" + relative
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
