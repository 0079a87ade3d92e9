import CFocusBus
import PencilSystem

/// The KDE Plasma and GNOME focus: the desktop pushes the focused window's app id to
/// pencil-actions over the session bus (`org.pencild.Actions1.SetFocusedApp` at
/// `/org/pencild/Actions`, name `org.pencild.Actions`), from a KWin script that
/// pencil-actions loads into KWin over D-Bus, or from the GNOME Shell extension the package
/// installs. Only the desktop's own process (the owner of `org.kde.KWin` or
/// `org.gnome.Shell` as the bus itself says), of this user, is believed.
public final class DesktopBusFocusProvider: FocusProvider {
    public enum Desktop: Sendable {
        case kde(script: String)
        case gnome

        var busName: String {
            switch self {
            case .kde: return "org.kde.KWin"
            case .gnome: return "org.gnome.Shell"
            }
        }
    }

    /// The GNOME Shell extension's uuid (integrations/gnome-shell).
    public static let gnomeExtension = "pencil-actions-focus@pencild.org"
    /// The name KWin knows pencil-actions' script by.
    public static let kwinPluginName = "pencil-actions-focus"

    public let name: String
    public private(set) var state: FocusState
    public private(set) var descriptor: FileDescriptor?
    private let desktop: Desktop
    private let log: ActionsLog
    private var connection: OpaquePointer?
    private var refusedSoFar: UInt = 0
    private var forgedSoFar: UInt = 0

    /// `address` nil: the user's session bus.
    public init(_ desktop: Desktop, address: String? = nil, log: ActionsLog) {
        self.desktop = desktop
        self.log = log
        switch desktop {
        case .kde: name = "kde"
        case .gnome: name = "gnome"
        }
        var error = [CChar](repeating: 0, count: 512)
        guard let connection = pencil_focus_bus_open(address, desktop.busName, &error, error.count) else {
            state = .unavailable(Self.text(error))
            return
        }
        self.connection = connection
        descriptor = FileDescriptor(rawValue: pencil_focus_bus_fd(connection))
        state = .unavailable("starting")
        if pencil_focus_bus_desktop_present(connection) != 0 { desktopArrived() }
        update()
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func desktopArrived() {
        guard case .kde(let script) = desktop, let connection else { return }
        var error = [CChar](repeating: 0, count: 512)
        if pencil_focus_bus_load_kwin_script(connection, script, Self.kwinPluginName, &error, error.count) < 0 {
            log.error("\(Self.text(error)): the focused app stays unknown")
        } else {
            log.info("KWin runs \(script), which reports each activated window")
        }
    }

    private func update() {
        guard let connection else { return }
        let refused = UInt(pencil_focus_bus_refused(connection))
        if refused != refusedSoFar {
            log.warning("refused \(refused - refusedSoFar) focus report(s) from a process that is not \(desktop.busName) of this user")
            refusedSoFar = refused
        }
        let forged = UInt(pencil_focus_bus_forged_signals(connection))
        if forged != forgedSoFar {
            log.warning("ignored \(forged) NameOwnerChanged signal(s) so far for \(desktop.busName) that did not come from the bus itself")
            forgedSoFar = forged
        }
        if pencil_focus_bus_known(connection) != 0 {
            state = .following(app: pencil_focus_bus_app(connection).flatMap { AppID.sanitized(String(cString: $0)) })
        } else if pencil_focus_bus_desktop_present(connection) == 0 {
            state = .unavailable("\(desktop.busName) is not on the session bus")
        } else {
            switch desktop {
            case .kde: state = .unavailable("KWin's script has not reported the focus yet")
            case .gnome: state = .unavailable("the GNOME Shell extension \(Self.gnomeExtension) has not reported the focus: is it enabled (gnome-extensions enable \(Self.gnomeExtension))?")
            }
        }
    }

    public func handleReadable() {
        guard let connection else { return }
        var error = [CChar](repeating: 0, count: 512)
        if pencil_focus_bus_process(connection, &error, error.count) < 0 {
            stop(because: Self.text(error))
            return
        }
        if pencil_focus_bus_take_desktop_arrival(connection) != 0 {
            desktopArrived()
            // Answers to the calls made meanwhile may wait in the queue.
            _ = pencil_focus_bus_process(connection, &error, error.count)
        }
        update()
    }

    public func flush() {
        guard let connection else { return }
        if pencil_focus_bus_flush(connection) < 0 { stop(because: "the session bus connection ended") }
    }

    private func stop(because reason: String) {
        state = .unavailable(reason)
        close()
    }

    public func close() {
        descriptor = nil
        if let connection { pencil_focus_bus_close(connection) }
        connection = nil
    }

    deinit { close() }
}
