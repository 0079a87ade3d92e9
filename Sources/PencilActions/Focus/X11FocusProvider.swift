import CXcb
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// The X11 focus: the window manager's `_NET_ACTIVE_WINDOW` on the root window, followed by
/// its PropertyNotify events (no polling), and that window's `WM_CLASS` class, read once
/// per change of the active window.
public final class X11FocusProvider: FocusProvider {
    public let name = "x11"
    public private(set) var state: FocusState
    public var descriptor: FileDescriptor? { connection?.descriptor }
    private var connection: DesktopConnection?
    private var root: xcb_window_t = 0
    private var activeWindowAtom: xcb_atom_t = 0

    /// WM_CLASS is read up to this many 32-bit units: 256 bytes, instance and class.
    static let wmClassUnits: UInt32 = 64

    public init(display: String) {
        state = .unavailable("connecting to the X server")
        var screenNumber: Int32 = 0
        // xcb gives a connection even when connecting failed, to be disconnected all the same.
        let connection = xcb_connect(display, &screenNumber).map {
            DesktopConnection($0, descriptor: xcb_get_file_descriptor($0), end: xcb_disconnect)
        }
        guard let connection, xcb_connection_has_error(connection.handle) == 0 else {
            state = .unavailable("cannot connect to the X server at DISPLAY=\(display)")
            return
        }
        self.connection = connection
        let handle = connection.handle
        var screens = xcb_setup_roots_iterator(xcb_get_setup(handle))
        for _ in 0..<max(0, Int(screenNumber)) where screens.rem > 0 { xcb_screen_next(&screens) }
        guard screens.rem > 0, let screen = screens.data else {
            disconnect(because: "the X server at \(display) has no screen \(screenNumber)")
            return
        }
        root = screen.pointee.root
        guard let atom = internAtom("_NET_ACTIVE_WINDOW") else {
            disconnect(because: "the X server at \(display) did not answer")
            return
        }
        activeWindowAtom = atom
        var mask = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
        xcb_change_window_attributes(handle, root, XCB_CW_EVENT_MASK.rawValue, &mask)
        xcb_flush(handle)
        readActiveWindow()
    }

    private func internAtom(_ name: String) -> xcb_atom_t? {
        guard let connection = connection?.handle else { return nil }
        let cookie = name.withCString { xcb_intern_atom(connection, 0, UInt16(strlen($0)), $0) }
        guard let reply = xcb_intern_atom_reply(connection, cookie, nil) else { return nil }
        defer { free(reply) }
        return reply.pointee.atom
    }

    public func handleEvents() {
        guard let connection = connection?.handle else { return }
        var activeChanged = false
        var event = xcb_poll_for_event(connection)
        while true {
            while let current = event {
                if current.pointee.response_type & 0x7F == XCB_PROPERTY_NOTIFY {
                    let notify = UnsafeRawPointer(current).assumingMemoryBound(to: xcb_property_notify_event_t.self).pointee
                    if notify.window == root, notify.atom == activeWindowAtom { activeChanged = true }
                }
                free(current)
                event = xcb_poll_for_queued_event(connection)
            }
            guard activeChanged else { break }
            activeChanged = false
            readActiveWindow()
            // The round trips may have queued events behind them: read those too.
            event = xcb_poll_for_queued_event(connection)
        }
        if xcb_connection_has_error(connection) != 0 {
            disconnect(because: "the X server closed the connection")
        }
    }

    /// `_NET_ACTIVE_WINDOW`, then its WM_CLASS.
    private func readActiveWindow() {
        guard let connection = connection?.handle else { return }
        let cookie = xcb_get_property(connection, 0, root, activeWindowAtom, XCB_ATOM_WINDOW.rawValue, 0, 1)
        guard let reply = xcb_get_property_reply(connection, cookie, nil) else {
            if xcb_connection_has_error(connection) != 0 { disconnect(because: "the X server closed the connection") }
            return
        }
        defer { free(reply) }
        guard reply.pointee.format == 32, reply.pointee.value_len == 1, let value = xcb_get_property_value(reply) else {
            state = .unavailable("the window manager does not set _NET_ACTIVE_WINDOW (no window manager, or one without EWMH)")
            return
        }
        let window = value.load(as: xcb_window_t.self)
        state = .following(app: window == 0 ? nil : wmClass(of: window))
    }

    /// The class half of WM_CLASS ("instance\0class\0"), bounded and sanitised.
    private func wmClass(of window: xcb_window_t) -> String? {
        guard let connection = connection?.handle else { return nil }
        let cookie = xcb_get_property(connection, 0, window, XCB_ATOM_WM_CLASS.rawValue, XCB_ATOM_STRING.rawValue, 0, Self.wmClassUnits)
        guard let reply = xcb_get_property_reply(connection, cookie, nil) else { return nil }
        defer { free(reply) }
        let length = Int(xcb_get_property_value_length(reply))
        guard reply.pointee.format == 8, length > 0, let value = xcb_get_property_value(reply) else { return nil }
        let bytes = Array(UnsafeRawBufferPointer(start: value, count: length))
        return Self.className(fromWMClass: bytes, complete: reply.pointee.bytes_after == 0)
    }

    /// WM_CLASS's second string; nil when it is missing or was cut off (`complete` false and
    /// no terminating NUL): a partial class must not match some other app's pattern.
    public static func className(fromWMClass bytes: [UInt8], complete: Bool) -> String? {
        guard let firstEnd = bytes.firstIndex(of: 0) else { return nil }
        let rest = bytes[(firstEnd + 1)...]
        if let classEnd = rest.firstIndex(of: 0) {
            return AppID.sanitized(rest[..<classEnd])
        }
        return complete ? AppID.sanitized(rest) : nil
    }

    private func disconnect(because reason: String) {
        state = .unavailable(reason)
        connection = nil
    }

    public func close() { connection = nil }
}
