// Generated from interfaces/org.pencild.Pen.varlink by scripts/generate-from-interface: do not edit.
/// The names the interface declares.
public enum PenInterface {
    public static let name = "org.pencild.Pen"

    public enum Method: String, Sendable, CaseIterable {
        case listDevices = "ListDevices"
        case monitor = "Monitor"
        case getPreferences = "GetPreferences"
        case setPreferences = "SetPreferences"
        case setFocus = "SetFocus"
        case pressChord = "PressChord"
        case playGesture = "PlayGesture"
        case setTipTool = "SetTipTool"

        /// interface.Method, as a call names it.
        public var qualifiedName: String { PenInterface.name + "." + rawValue }
    }

    public enum ErrorName: String, Sendable, CaseIterable {
        case noSuchDevice = "NoSuchDevice"
        case permissionDenied = "PermissionDenied"
        case invalidPreferences = "InvalidPreferences"
        case tooManyClients = "TooManyClients"
        case preferencesNotSaved = "PreferencesNotSaved"
        case keyboardUnavailable = "KeyboardUnavailable"
        case keyNotAllowed = "KeyNotAllowed"
        case gestureNotPlayable = "GestureNotPlayable"
        case toolNotSwitchable = "ToolNotSwitchable"

        /// interface.Error, as a reply names it.
        public var qualifiedName: String { PenInterface.name + "." + rawValue }
    }
}
