import PencilSystem

/// Where clients find pencild (docs/protocol.md "Where"): the one rule that this library and
/// pencilctl share.
public enum DaemonSocket {
    /// The system service's socket.
    public static let systemPath = "/run/pencild/pencild.sock"
    /// The user service's socket, in `$XDG_RUNTIME_DIR`.
    public static let userSocketName = "pencild.sock"

    /// `$PENCILD_SOCKET`; else the user service's `$XDG_RUNTIME_DIR/pencild.sock` when that
    /// exists; else the system service's socket.
    public static func path(environment: (String) -> String? = ProcessIdentity.environment,
                            exists: (String) -> Bool = isSocket) -> String {
        if let explicit = environment("PENCILD_SOCKET"), !explicit.isEmpty { return explicit }
        if let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty {
            let user = runtime.hasSuffix("/") ? runtime + userSocketName : runtime + "/" + userSocketName
            if exists(user) { return user }
        }
        return systemPath
    }

    /// True when `path` names a socket.
    public static func isSocket(_ path: String) -> Bool {
        (try? FileSystem.status(of: path))?.isSocket ?? false
    }
}
