import PencilProtocol
import PencilSystem
import Varlink

/// Where pencilctl finds pencild, and what it tells the user when pencild is not there.
public enum DaemonSocket {
    public static let systemPath = "/run/pencild/pencild.sock"
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

    public static func isSocket(_ path: String) -> Bool {
        (try? FileSystem.status(of: path))?.isSocket ?? false
    }

    /// A message for a client that could not reach or use the daemon.
    public static func explain(_ error: VarlinkClientError, path: String) -> String {
        switch error {
        case .connect(_, let errno) where errno == .noSuchFile || errno == .connectionRefused:
            return """
                cannot connect to \(path): \(errno): pencild is not running there.
                Start it: sudo systemctl start pencild.socket (system service),
                systemctl --user start pencild.socket (user service), or run pencild;
                or set PENCILD_SOCKET to the socket it listens on.
                """
        case .connect(_, let errno) where errno == .permissionDenied:
            return "cannot connect to \(path): \(errno): this user may not open the socket (see README, Troubleshooting)"
        case .remote(let remote) where remote.name == "org.pencild.Pen.PermissionDenied":
            return """
                pencild at \(path) refused: only root, its own user, members of the socket's group and \
                users with an active local session may use it (see README, Troubleshooting)
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
        let client = try VarlinkClient(path: path, timeoutMilliseconds: 10_000)
        defer { client.close() }
        return try client.call(method, parameters)
    }
}

/// A Monitor subscription read without blocking, so that a command can wait for it, a
/// terminal and signals at once (epoll).
final class EventStream {
    let path: String
    let descriptor: FileDescriptor
    private var framer = MessageFramer(maximumMessageSize: 16 * 1024 * 1024)
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var closed = false

    /// Connects and sends `Monitor` with the filters (nil: everything).
    init(path: String, devices: [String]?, events: [String]?) throws(VarlinkClientError) {
        self.path = path
        do {
            descriptor = try UnixSocket.connect(to: path)
        } catch {
            throw .connect(path: path, error)
        }
        var parameters: [(String, JSONValue)] = []
        if let devices { parameters.append(("devices", .array(devices.map(JSONValue.string)))) }
        if let events { parameters.append(("events", .array(events.map(JSONValue.string)))) }
        let call = VarlinkCall(method: "org.pencild.Pen.Monitor", parameters: .object(parameters), more: true).encoded
        do {
            // A new connection's send buffer takes a call this small whole.
            try descriptor.writeAll(call)
            try descriptor.setNonBlocking()
        } catch {
            descriptor.close()
            throw .io(error)
        }
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        descriptor.close()
    }

    /// Reads what has arrived and hands out each event. Returns false once the daemon has
    /// ended the stream (closed the connection or sent the last reply); an error reply throws.
    func readAvailable(_ handle: (Event) -> Void) throws(VarlinkClientError) -> Bool {
        while true {
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { raw in
                    Result { () throws(Errno) -> Int in try UnixSocket.receive(descriptor, into: raw) }
                }.get()
            } catch {
                if error == .wouldBlock { return true }
                if error == .connectionReset { return false }
                throw .io(error)
            }
            if count == 0 { return false }
            buffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            while true {
                let message: ArraySlice<UInt8>?
                do { message = try framer.nextMessage() } catch { throw .protocolViolation("\(error)") }
                guard let message else { break }
                let reply: VarlinkReply
                do {
                    reply = try VarlinkReply(json: try JSONReader.parse(message))
                } catch {
                    throw .protocolViolation("\(error)")
                }
                if let name = reply.error { throw .remote(VarlinkError(name: name, parameters: reply.parameters)) }
                if let json = reply.parameters["event"] {
                    do { handle(try Event(json: json)) } catch { throw .protocolViolation("event: \(error)") }
                }
                if !reply.continues { return false }
            }
        }
    }
}
