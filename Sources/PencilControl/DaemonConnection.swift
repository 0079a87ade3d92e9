import PencilClient
import PencilProtocol
import PencilSystem
import Varlink

/// What pencilctl tells the user when pencild is not there (where it looks: `DaemonSocket.path`).
extension DaemonSocket {
    /// A message for a client that could not reach or use the daemon: pencilctl's words with
    /// their line breaks; the path (from the environment) and the daemon's text escaped.
    public static func explain(_ error: VarlinkClientError, path: String) -> TerminalMessage {
        switch error {
        case .connect(_, let errno) where errno == .noSuchFile || errno == .connectionRefused:
            return """
                cannot connect to \(path): \(errno): pencild is not running there.
                Start it: sudo systemctl start pencild.socket (system service),
                systemctl --user start pencild.socket (user service), or run pencild;
                or set PENCILD_SOCKET to the socket it listens on.
                """
        case .connect(_, let errno) where errno == .permissionDenied:
            return "cannot connect to \(path): \(errno): this user may not open the socket (see docs/troubleshooting.md)"
        case .remote(let remote) where remote.name == PenInterface.ErrorName.permissionDenied.qualifiedName:
            return """
                pencild at \(path) refused: only root, its own user, members of the socket's group and \
                users with an active local session may use it (see docs/troubleshooting.md)
                """
        case .closed:
            return "pencild at \(path) closed the connection"
        default:
            return "pencild at \(path): \(error)"
        }
    }
}

/// A blocking call to the daemon, for commands that ask once (devices, prefs).
enum DaemonCall {
    static func call(_ method: String, _ parameters: JSONValue = .object([]), path: String) throws(VarlinkClientError) -> JSONValue {
        try VarlinkClient.call(path: path, timeoutMilliseconds: 10_000, method, parameters)
    }
}
