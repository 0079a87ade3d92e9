import PencilSystem

/// What pencil-actions knows of the focused app.
public enum FocusState: Equatable, Sendable {
    /// The desktop tells us the focus: `app` is the focused window's app id (nil while no
    /// window, or one without an app id, has the focus).
    case following(app: String?)
    /// Nothing tells us: the fallback sections apply, for this reason.
    case unavailable(String)

    /// The app whose sections apply (nil: the fallback's).
    public var app: String? {
        if case .following(let app) = self { return app }
        return nil
    }
}

/// A desktop's own focus notifications, read in pencil-actions' one event loop: its
/// descriptor is waited on with the rest, and read only when the desktop wrote to it.
public protocol FocusProvider: AnyObject {
    /// "x11", "wlroots", "kde", "gnome" or "none".
    var name: String { get }
    /// What to wait on (nil: nothing, the provider is finished or never started).
    var descriptor: FileDescriptor? { get }
    var state: FocusState { get }
    /// What to wait for on `descriptor`.
    var awaitedEvents: Epoll.Events { get }
    /// When `handleEvents` is due although the descriptor says nothing (CLOCK_MONOTONIC µs; at
    /// once when past), nil: only when it does.
    var deadline: Int64? { get }
    /// Handles what the desktop sent, bounded per call: the loop calls it when the descriptor
    /// is ready and at the deadline. A provider whose connection failed or closed says so in
    /// `state` (`unavailable`) and gives up its descriptor.
    func handleEvents()
    /// Writes what is queued for the desktop before the loop sleeps, without waiting (Wayland).
    func flush()
    func close()
}

extension FocusProvider {
    public var awaitedEvents: Epoll.Events { .readable }
    public var deadline: Int64? { nil }
    public func flush() {}
}

/// No provider: the fallback sections, and why.
public final class NoFocusProvider: FocusProvider {
    public let name = "none"
    public let state: FocusState
    public init(reason: String) { state = .unavailable(reason) }
    public var descriptor: FileDescriptor? { nil }
    public func handleEvents() {}
    public func close() {}
}

/// The app ids desktops hand us, made safe to compare, log and show: another client names
/// its own window class, so the text is anyone's.
public enum AppID {
    /// Longer ids are cut off here: a real one is a short name.
    public static let maximumBytes = 255

    /// `bytes` as an app id: at most `maximumBytes`, valid UTF-8, without control characters,
    /// or nil (no usable id: the fallback).
    public static func sanitized<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String? {
        guard !bytes.isEmpty, bytes.count <= maximumBytes else { return nil }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return text
    }

    public static func sanitized(_ text: String) -> String? { sanitized(Array(text.utf8)) }
}

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
