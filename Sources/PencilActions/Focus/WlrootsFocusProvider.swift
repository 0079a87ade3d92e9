import CWlrForeignToplevel
import PencilSystem

/// The wlroots focus (sway, Hyprland, river...): the app id of the toplevel whose state
/// holds `activated`, from zwlr_foreign_toplevel_manager_v1, pushed by the compositor.
public final class WlrootsFocusProvider: FocusProvider {
    public let name = "wlroots"
    public private(set) var state: FocusState
    public private(set) var descriptor: FileDescriptor?
    private var connection: OpaquePointer?

    public init(display: String) {
        var error = [CChar](repeating: 0, count: 256)
        guard let connection = pencil_wlr_focus_connect(display, &error, error.count) else {
            state = .unavailable(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            return
        }
        self.connection = connection
        descriptor = FileDescriptor(rawValue: pencil_wlr_focus_fd(connection))
        state = .following(app: nil)
        update()
    }

    private func update() {
        guard let connection else { return }
        let app = pencil_wlr_focus_app(connection).flatMap { AppID.sanitized(String(cString: $0)) }
        state = .following(app: app)
    }

    public func handleEvents() {
        guard let connection else { return }
        var error = [CChar](repeating: 0, count: 256)
        if pencil_wlr_focus_dispatch(connection, &error, error.count) < 0 {
            stop(because: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            return
        }
        update()
    }

    public func flush() {
        guard let connection else { return }
        if pencil_wlr_focus_flush(connection) < 0 { stop(because: "the Wayland compositor closed the connection") }
    }

    private func stop(because reason: String) {
        state = .unavailable(reason)
        close()
    }

    public func close() {
        descriptor = nil
        if let connection { pencil_wlr_focus_destroy(connection) }
        connection = nil
    }

    deinit { close() }
}
