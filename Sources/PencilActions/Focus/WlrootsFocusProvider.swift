import CWlrForeignToplevel
import PencilSystem

/// The wlroots focus (sway, Hyprland, river...): the app id of the toplevel whose state
/// holds `activated`, from zwlr_foreign_toplevel_manager_v1, pushed by the compositor.
public final class WlrootsFocusProvider: FocusProvider {
    public let name = "wlroots"
    public private(set) var state: FocusState
    public var descriptor: FileDescriptor? { connection?.descriptor }
    private var connection: DesktopConnection?

    public init(display: String) {
        var error = [CChar](repeating: 0, count: 256)
        guard let connection = pencil_wlr_focus_connect(display, &error, error.count) else {
            state = .unavailable(DesktopConnection.message(error))
            return
        }
        self.connection = DesktopConnection(connection, descriptor: pencil_wlr_focus_fd(connection), end: pencil_wlr_focus_destroy)
        state = .following(app: nil)
        update()
    }

    private func update() {
        guard let connection = connection?.handle else { return }
        let app = pencil_wlr_focus_app(connection).flatMap { AppID.sanitized(String(cString: $0)) }
        state = .following(app: app)
    }

    public func handleEvents() {
        guard let connection = connection?.handle else { return }
        var error = [CChar](repeating: 0, count: 256)
        if pencil_wlr_focus_dispatch(connection, &error, error.count) < 0 {
            stop(because: DesktopConnection.message(error))
            return
        }
        update()
    }

    public func flush() {
        guard let connection = connection?.handle else { return }
        if pencil_wlr_focus_flush(connection) < 0 { stop(because: "the Wayland compositor closed the connection") }
    }

    private func stop(because reason: String) {
        state = .unavailable(reason)
        connection = nil
    }

    public func close() { connection = nil }
}
