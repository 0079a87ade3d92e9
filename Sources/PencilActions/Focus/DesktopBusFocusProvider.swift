import CFocusBus
import PencilSystem

/// The KDE Plasma and GNOME focus: the desktop pushes the focused window's app id to
/// pencil-actions over the session bus (`org.pencild.Actions1.SetFocusedApp` at
/// `/org/pencild/Actions`, name `org.pencild.Actions`), from a KWin script that
/// pencil-actions loads into KWin over D-Bus, or from the GNOME Shell extension the package
/// installs. Only the desktop's own process (the owner of `org.kde.KWin` or
/// `org.gnome.Shell` as the bus itself says), of this user, is believed. Nothing waits for
/// the bus (CFocusBus makes every call of its own asynchronous), and one turn handles at
/// most `messagesPerTurn` messages.
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
    public var descriptor: FileDescriptor? { connection?.descriptor }
    private let desktop: Desktop
    private let log: ActionsLog
    private var connection: DesktopConnection?
    private var refusals = DoublingReport()
    private var forgeries = DoublingReport()

    /// Messages handled in one turn of pencil-actions' loop: then back to the loop, so that a
    /// peer that floods the bus never keeps signals, the chord timer or pencild's stream
    /// waiting. What is left is handled at the next turn (`deadline` is then now).
    public static let messagesPerTurn: UInt32 = 32

    /// Where the GNOME Shell extension's first turning on is recorded (GNOME only).
    private let extensionRecord: GnomeExtensionRecord?

    /// `address` nil: the user's session bus. `extensionRecord`: on GNOME, the extension is
    /// turned on unless this record says it was on once (nil: it is left alone).
    public init(_ desktop: Desktop, address: String? = nil, log: ActionsLog, extensionRecord: GnomeExtensionRecord? = nil) {
        self.desktop = desktop
        self.log = log
        if case .gnome = desktop { self.extensionRecord = extensionRecord } else { self.extensionRecord = nil }
        switch desktop {
        case .kde: name = "kde"
        case .gnome: name = "gnome"
        }
        var script: String?
        if case .kde(let path) = desktop { script = path }
        var error = [CChar](repeating: 0, count: 512)
        guard let connection = pencil_focus_bus_open(address, desktop.busName, script, Self.kwinPluginName, &error, error.count) else {
            state = .unavailable(DesktopConnection.message(error))
            return
        }
        self.connection = DesktopConnection(connection, descriptor: pencil_focus_bus_fd(connection), end: pencil_focus_bus_close)
        if let record = self.extensionRecord {
            if record.exists {
                log.info("the GNOME Shell extension \(Self.gnomeExtension) was on once (\(record.path)): it stays as the person has it")
            } else {
                pencil_focus_bus_turn_on_extension(connection, Self.gnomeExtension)
            }
        }
        state = .unavailable("starting")
        update()
    }

    private func update() {
        guard let connection = connection?.handle else { return }
        let refused = UInt(pencil_focus_bus_refused(connection))
        if refusals.isDue(refused) {
            log.warning("refused \(refused) focus report(s) so far from a process that is not \(desktop.busName) of this user (said again at \(refusals.next))")
        }
        let forged = UInt(pencil_focus_bus_forged_signals(connection))
        if forgeries.isDue(forged) {
            log.warning("ignored \(forged) NameOwnerChanged signal(s) so far for \(desktop.busName) that did not come from the bus itself (said again at \(forgeries.next))")
        }
        var error = [CChar](repeating: 0, count: 512)
        switch pencil_focus_bus_take_kwin_outcome(connection, &error, error.count) {
        case PENCIL_FOCUS_KWIN_STARTED:
            if case .kde(let script) = desktop { log.info("KWin runs \(script), which reports each activated window") }
        case PENCIL_FOCUS_KWIN_FAILED:
            log.error("\(DesktopConnection.message(error)): the focused app stays unknown")
        default:
            break
        }
        takeExtensionOutcome(connection)
        if pencil_focus_bus_known(connection) != 0 {
            state = .following(app: pencil_focus_bus_app(connection).flatMap { AppID.sanitized(String(cString: $0)) })
            return
        }
        switch pencil_focus_bus_desktop(connection) {
        case PENCIL_FOCUS_DESKTOP_ASKING:
            state = .unavailable("asking the session bus whether \(desktop.busName) is on it")
        case PENCIL_FOCUS_DESKTOP_ABSENT:
            state = .unavailable("\(desktop.busName) is not on the session bus")
        default:
            switch desktop {
            case .kde: state = .unavailable("KWin's script has not reported the focus yet")
            case .gnome: state = .unavailable("the GNOME Shell extension \(Self.gnomeExtension) has not reported the focus: is it enabled (gnome-extensions enable \(Self.gnomeExtension))? It needs GNOME Shell 45 or later")
            }
        }
    }

    private func takeExtensionOutcome(_ connection: OpaquePointer) {
        guard let record = extensionRecord else { return }
        var error = [CChar](repeating: 0, count: 512)
        let uuid = Self.gnomeExtension
        switch pencil_focus_bus_take_extension_outcome(connection, &error, error.count) {
        case PENCIL_FOCUS_EXTENSION_WAS_ON:
            recordExtension(record, "the GNOME Shell extension \(uuid) is on")
        case PENCIL_FOCUS_EXTENSION_TURNED_ON:
            recordExtension(record, "turned on the GNOME Shell extension \(uuid), once: if the person turns it off, it stays off")
        case PENCIL_FOCUS_EXTENSION_UNKNOWN:
            log.warning("GNOME Shell does not know the extension \(uuid): installed after this session began? It is turned on at the next login")
        case PENCIL_FOCUS_EXTENSION_FAILED:
            log.warning("\(DesktopConnection.message(error)): turn it on with gnome-extensions enable \(uuid)")
        default:
            break
        }
    }

    private func recordExtension(_ record: GnomeExtensionRecord, _ said: String) {
        do {
            try record.write(uuid: Self.gnomeExtension)
            log.info("\(said) (recorded in \(record.path))")
        } catch {
            log.warning("\(said), but \(record.path) could not be written (\(error)): it is asked again at the next start")
        }
    }

    public func handleEvents() {
        guard let connection = connection?.handle else { return }
        var error = [CChar](repeating: 0, count: 512)
        if pencil_focus_bus_process(connection, Self.messagesPerTurn, &error, error.count) < 0 {
            stop(because: DesktopConnection.message(error))
            return
        }
        update()
    }

    public var awaitedEvents: Epoll.Events {
        guard let connection = connection?.handle else { return .readable }
        return pencil_focus_bus_wants_to_write(connection) != 0 ? [.readable, .writable] : .readable
    }

    public var deadline: Int64? {
        guard let connection = connection?.handle else { return nil }
        let deadline = pencil_focus_bus_deadline(connection)
        return deadline == UInt64.max ? nil : Int64(clamping: deadline)
    }

    private func stop(because reason: String) {
        state = .unavailable(reason)
        connection = nil
    }

    public func close() { connection = nil }
}

/// When to log a count that an untrusted peer drives (refused calls, forged signals): at 1,
/// 2, 4, 8...: a flood of a million writes some twenty lines, and the first is said at once.
public struct DoublingReport: Sendable {
    /// The count at which the next line is due.
    public private(set) var next: UInt = 1

    public init() {}

    /// Whether `count` is to be logged now.
    public mutating func isDue(_ count: UInt) -> Bool {
        guard count >= next else { return false }
        while next <= count, next < UInt.max / 2 { next *= 2 }
        return true
    }
}
