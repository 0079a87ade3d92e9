import PencilSystem

/// pencil-actions turns its GNOME Shell extension on once per person, not at every start: a
/// package cannot turn on an extension for its users (the Shell keeps the list in each
/// person's settings), and a person who turns it off must find it off. The record is a file in
/// the person's state directory, written the first time the Shell says the extension runs,
/// whether it ran already or pencil-actions just turned it on.
public struct GnomeExtensionRecord: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// `$XDG_STATE_HOME/pencil-actions/gnome-extension-turned-on`, else the same under
    /// `~/.local/state`.
    public static func defaultPath(environment: (String) -> String? = ProcessIdentity.environment,
                                   uid: UInt32 = ProcessIdentity.userID) -> String {
        let name = "/pencil-actions/gnome-extension-turned-on"
        if let state = environment("XDG_STATE_HOME"), state.hasPrefix("/") { return state + name }
        let home = environment("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? ProcessIdentity.homeDirectory(of: uid) ?? "/"
        return home + "/.local/state" + name
    }

    /// Whether the extension was on once already (a record that cannot be read counts as one:
    /// better to leave the Shell alone than to turn on what a person turned off).
    public var exists: Bool {
        do {
            return try FileSystem.status(of: path) != nil
        } catch {
            return true
        }
    }

    /// Writes the record (atomically, its directory made as needed).
    public func write(uuid: String) throws(Errno) {
        try FileSystem.createDirectories(FileSystem.directoryName(of: path), permissions: 0o700)
        let text = "The GNOME Shell extension \(uuid) was on once; pencil-actions does not turn it on again.\n"
        try FileSystem.writeAtomically(path, Array(text.utf8), permissions: 0o600)
    }
}
