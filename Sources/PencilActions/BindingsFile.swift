import PencilProtocol
import PencilSystem

/// actions.conf on disk: where it is, reading it, and hearing (inotify) when it changes. While
/// the person has none, the bindings pencil-actions ships apply (`shippedPath`); a person's file
/// replaces them as a whole, as a file in /etc replaces one of /usr.
public final class BindingsFile {
    public let path: String
    /// The shipped bindings (nil: none, as with `--config`).
    public let shippedPath: String?
    /// The file the last `load` read (nil: none exists).
    public private(set) var loadedPath: String?
    private let directory: String
    private let name: String
    private var inotify: Inotify?

    public init(path: String, shippedPath: String? = nil) {
        self.path = path
        self.shippedPath = shippedPath
        directory = FileSystem.directoryName(of: path)
        name = FileSystem.baseName(of: path)
    }

    /// `$XDG_CONFIG_HOME/pencild/actions.conf`, else `~/.config/pencild/actions.conf`.
    public static func defaultPath(environment: (String) -> String? = ProcessIdentity.environment,
                                   uid: UInt32 = ProcessIdentity.userID) -> String {
        if let config = environment("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            return config + "/pencild/actions.conf"
        }
        let home = environment("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? ProcessIdentity.homeDirectory(of: uid) ?? "/"
        return home + "/.config/pencild/actions.conf"
    }

    /// The shipped bindings installed beside pencil-actions.
    public static func defaultShippedPath() -> String { InstalledData.path(of: "actions.conf") }

    /// Reads and parses the person's file, else the shipped one. Neither is no bindings (nil,
    /// not an error).
    public func load() -> Result<ActionBindings?, ActionsConfigError> {
        loadedPath = nil
        switch Self.load(path) {
        case .success(nil):
            guard let shippedPath else { return .success(nil) }
            let shipped = Self.load(shippedPath)
            if case .success(_?) = shipped { loadedPath = shippedPath }
            return shipped
        case let other:
            loadedPath = path
            return other
        }
    }

    private static func load(_ path: String) -> Result<ActionBindings?, ActionsConfigError> {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, maximumBytes: ActionsConfig.maximumBytes)
        } catch {
            if error == .noSuchFile { return .success(nil) }
            if error.rawValue == 27 /* EFBIG */ {
                return .failure(ActionsConfigError(file: path, line: 0, message: "larger than \(ActionsConfig.maximumBytes / 1024) KiB: not a bindings file"))
            }
            return .failure(ActionsConfigError(file: path, line: 0, message: "cannot read: \(error)"))
        }
        do {
            return .success(try ActionsConfig.parse(String(decoding: bytes, as: UTF8.self), file: path))
        } catch {
            return .failure(error)
        }
    }

    /// Starts watching the file's directory (made when missing, so that a file written later
    /// is seen); returns the descriptor to wait on.
    public func watch() throws(Errno) -> FileDescriptor {
        if let inotify { return inotify.descriptor }
        try FileSystem.createDirectories(directory, permissions: 0o755)
        let instance = try Inotify()
        try instance.watch(directory, for: [.closeWrite, .movedTo, .movedFrom, .create, .delete, .deleteSelf, .moveSelf])
        inotify = instance
        return instance.descriptor
    }

    /// Reads what inotify queued: true when the file may have changed (written and closed,
    /// renamed into place, removed) or the watch itself went away.
    public func takeChanges() -> Bool {
        guard let inotify else { return false }
        guard let changes = try? inotify.readChanges() else { return true }
        return changes.contains { change in
            change.mask.contains(.overflow) || change.mask.contains(.deleteSelf) || change.mask.contains(.moveSelf)
                || (change.name == name && !change.mask.isDisjoint(with: [.closeWrite, .movedTo, .movedFrom, .delete]))
        }
    }
}
