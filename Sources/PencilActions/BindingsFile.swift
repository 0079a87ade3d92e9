import PencilProtocol
import PencilSystem

/// actions.conf on disk: where it is, reading it, and hearing (inotify) when it changes.
public final class BindingsFile {
    public let path: String
    private let directory: String
    private let name: String
    private var inotify: Inotify?

    public init(path: String) {
        self.path = path
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

    /// Reads and parses the file. A missing file is no bindings (nil, not an error).
    public func load() -> Result<ActionBindings?, ActionsConfigError> {
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
