import Dispatch
import PencilProtocol
import PencilSystem
import Synchronization
import Varlink

/// A client of pencild, the tablet pen daemon: its events as an `AsyncSequence`, its devices,
/// the user's gesture preferences, and the app's claim to the user's focus.
///
///     let client = PencilClient()
///     try await client.setFocused(true)
///     for try await event in client.events(types: [.doubleTap, .squeeze]) {
///         if event.focus != .other { print(event.type, event.action ?? .ignore) }
///     }
///
/// Every method is `async` and safe from any task or actor: the calls' blocking socket I/O
/// runs on the client's own dispatch queue, one call at a time, never on the caller's thread
/// or the cooperative thread pool. A call waits at most `callTimeoutMilliseconds` for its
/// reply.
///
/// Connections: each event sequence has its own. Other calls open a short-lived connection,
/// except while this process claims the focus: then the client keeps one control connection
/// open and makes every call on it. A focus claim belongs to the process and lasts until
/// `setFocused(false)` or until the process's last connection to the daemon closes; keeping
/// the control connection makes the claim independent of whether an event sequence happens
/// to be running. An event sequence's connection also carries the claim while it holds
/// (a oneway `SetFocus` before its `Monitor`), so that the stream's first gesture already
/// says `this`, whichever daemon the connection reaches: after a restart, the new daemon
/// learns the claim from the sequence that subscribes again, or from the next call.
public final class PencilClient: Sendable {
    private let explicitSocketPath: String?
    /// How long a call waits for its reply, in milliseconds.
    public let callTimeoutMilliseconds: Int
    private let control: ControlChannel

    /// A client of the daemon at `socketPath`; nil finds it as pencilctl does
    /// (`$PENCILD_SOCKET`, then `$XDG_RUNTIME_DIR/pencild.sock` when it exists, then
    /// `/run/pencild/pencild.sock`), anew at each connection.
    public init(socketPath: String? = nil, callTimeoutMilliseconds: Int = 10_000) {
        explicitSocketPath = socketPath
        self.callTimeoutMilliseconds = callTimeoutMilliseconds
        control = ControlChannel(socketPath: socketPath, timeoutMilliseconds: callTimeoutMilliseconds)
    }

    /// The socket this client connects to now.
    public var socketPath: String { explicitSocketPath ?? DaemonSocket.path() }

    /// The daemon's events: of the devices with these ids (nil: all) and of these types
    /// (nil: all). The sequence starts with a `deviceAdded` for every device already attached
    /// and the events that bring the subscriber to the current state of a tool already in
    /// range. When the connection ends, it first yields the closing events of what was open
    /// (tipUp, buttonUp, squeeze cancelled, hover ended, proximityOut, deviceRemoved: those of
    /// the requested types), then follows `onDisconnect`. `bufferLimit` bounds the events
    /// waiting for the consumer.
    public func events(devices: [String]? = nil, types: Set<PencilEventType>? = nil,
                       onDisconnect: DisconnectPolicy = .reconnect, bufferLimit: Int = 4096,
                       backoff: ReconnectBackoff = ReconnectBackoff()) -> PencilEvents {
        let control = self.control
        return PencilEvents(configuration: .init(
            socketPath: explicitSocketPath, devices: devices, types: types, policy: onDisconnect,
            bufferLimit: max(2, bufferLimit), backoff: backoff, focus: control))
    }

    /// The pen devices attached now.
    public func devices() async throws(PencilClientError) -> [PencilDevice] {
        let reply = try await control.call(PenInterface.Method.listDevices.qualifiedName)
        var devices: [PencilDevice] = []
        for json in reply["devices"]?.arrayValue ?? [] {
            do { devices.append(try PencilDevice(json: json)) } catch { throw .protocolViolation(error.reason) }
        }
        return devices
    }

    /// The calling user's gesture preferences.
    public func preferences() async throws(PencilClientError) -> PencilPreferences {
        try await callForPreferences(.getPreferences)
    }

    /// Changes the fields of `change` that are set, keeps the others, and returns the result.
    /// Throws `.invalidPreferences(field:reason:)` (nothing changes) for a value out of range
    /// or a name the daemon does not know, `.preferencesNotSaved` when it cannot store them.
    @discardableResult
    public func setPreferences(_ change: PencilPreferences.Change) async throws(PencilClientError) -> PencilPreferences {
        try await callForPreferences(.setPreferences, .object([("preferences", change.jsonValue)]))
    }

    /// Calls `method`, whose reply is the user's preferences (GetPreferences, SetPreferences).
    private func callForPreferences(_ method: PenInterface.Method, _ parameters: JSONValue = .object([])) async throws(PencilClientError) -> PencilPreferences {
        let reply = try await control.call(method.qualifiedName, parameters)
        guard let json = reply["preferences"] else { throw .protocolViolation("\(method.rawValue) without preferences") }
        return try PencilPreferences(json: json)
    }

    /// Replaces every preference with `preferences`.
    @discardableResult
    public func setPreferences(_ preferences: PencilPreferences) async throws(PencilClientError) -> PencilPreferences {
        try await setPreferences(preferences.asChange)
    }

    /// Claims (true) or gives up (false) the user's focus for this process: call it when the
    /// app's window gains or loses focus. While claimed, double-taps and squeezes carry
    /// `focus == .this` for this process and `.other` for the user's other apps.
    /// `.notSupported` from a daemon without `SetFocus`.
    public func setFocused(_ focused: Bool) async throws(PencilClientError) {
        try await control.setFocused(focused)
    }

    /// True between a successful `setFocused(true)` and `setFocused(false)`.
    public var isFocusClaimed: Bool { control.focusClaimed }
}

/// The client's calls, one at a time on its own queue; owns the control connection kept while
/// the focus is claimed.
final class ControlChannel: @unchecked Sendable {
    private let socketPath: String?
    private let timeoutMilliseconds: Int
    private let queue = DispatchQueue(label: "pencild.client.control")
    // Touched only on `queue`.
    private var connection: VarlinkClient?
    private var claimed = false {
        didSet { claimedMirror.store(claimed, ordering: .relaxed) }
    }
    private var claimLost = false
    /// `claimed`, readable from any thread without waiting for a call in progress.
    private let claimedMirror = Atomic<Bool>(false)

    init(socketPath: String?, timeoutMilliseconds: Int) {
        self.socketPath = socketPath
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    deinit { connection?.close() }

    var focusClaimed: Bool { claimedMirror.load(ordering: .relaxed) }

    private func run<T: Sendable>(_ body: @escaping @Sendable () throws(PencilClientError) -> T) async throws(PencilClientError) -> T {
        let result: Result<T, PencilClientError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Result { () throws(PencilClientError) -> T in try body() }) }
        }
        return try result.get()
    }

    func call(_ method: String, _ parameters: JSONValue = .object([])) async throws(PencilClientError) -> JSONValue {
        try await run { () throws(PencilClientError) -> JSONValue in
            if self.claimLost { try? self.claim() }
            do throws(PencilClientError) {
                return try self.callNow(method, parameters)
            } catch .disconnected where self.claimLost {
                // The kept connection broke under the call: the daemon went away, and the
                // claim with it. Claim again on the daemon that answers now, and call again.
                try? self.claim()
                return try self.callNow(method, parameters)
            }
        }
    }

    func setFocused(_ focused: Bool) async throws(PencilClientError) {
        try await run { () throws(PencilClientError) in
            if focused {
                try self.claim()
            } else {
                let wasClaimed = self.claimed
                self.claimed = false
                self.claimLost = false
                defer { self.closeConnection() }
                guard wasClaimed || self.connection != nil else { return }
                try self.release()
            }
        }
    }

    /// Gives up the claim wherever it may be held: an event sequence's connection may have
    /// made it on a daemon this channel's kept connection never reached, so a broken or
    /// missing kept connection says nothing. No daemon listening: no claim is held.
    private func release() throws(PencilClientError) {
        let parameters = JSONValue.object([("focused", .bool(false))])
        for attempt in 1...2 {
            do throws(PencilClientError) {
                _ = try callNow(PenInterface.Method.setFocus.qualifiedName, parameters)
                return
            } catch .disconnected where attempt == 1 {
                // The kept connection was broken: the daemon that answers now is asked.
            } catch .cannotConnect(_, let errno, _) where Self.nobodyListens(errno) {
                return
            }
        }
    }

    private static func nobodyListens(_ errno: Int32) -> Bool {
        errno == Errno.noSuchFile.rawValue || errno == Errno.connectionRefused.rawValue
    }

    /// Opens an event stream's connection with `open`, telling it whether to carry the claim,
    /// in turn with `setFocused`: a stream opened after the claim was given up never carries
    /// it. `resubscribing`: the stream was lost (the daemon may be a new one), and this
    /// channel's kept connection is made again too, so that the claim outlives the stream.
    /// Runs on the caller's queue (a sequence's own), waiting for a call in progress.
    func openStream<T>(resubscribing: Bool,
                       _ open: (_ claimingFocus: Bool) throws(VarlinkClientError) -> T) throws(VarlinkClientError) -> T {
        let result = queue.sync { () -> Result<T, VarlinkClientError> in
            if resubscribing, claimed {
                // On the kept connection if it still works (the same daemon: nothing lapses);
                // else, that connection found broken, on a new one.
                if (try? claim()) == nil, claimLost { try? claim() }
            }
            return Result { () throws(VarlinkClientError) -> T in try open(claimed) }
        }
        return try result.get()
    }

    private func claim() throws(PencilClientError) {
        _ = try callNow(PenInterface.Method.setFocus.qualifiedName, .object([("focused", .bool(true))]), keepConnection: true)
        claimed = true
        claimLost = false
    }

    private func closeConnection() {
        connection?.close()
        connection = nil
    }

    /// One call: on the control connection when there is one, else on a connection of its
    /// own, kept when `keepConnection` or while the focus is claimed.
    private func callNow(_ method: String, _ parameters: JSONValue, keepConnection: Bool = false) throws(PencilClientError) -> JSONValue {
        let reused = connection != nil
        let client: VarlinkClient
        if let connection {
            client = connection
        } else {
            do {
                client = try VarlinkClient(path: socketPath ?? DaemonSocket.path(), timeoutMilliseconds: timeoutMilliseconds,
                                           maximumMessageSize: MonitorSubscription.defaultMaximumMessageSize)
            } catch {
                throw PencilClientError(error, method: method)
            }
        }
        do {
            let reply = try client.call(method, parameters)
            if keepConnection || claimed { connection = client } else { client.close() }
            return reply
        } catch {
            let typed = PencilClientError(error, method: method)
            if case .remote = error {
                // The daemon answered: the connection is fine.
                if !reused { client.close() }
            } else {
                client.close()
                if reused {
                    connection = nil
                    if claimed { claimLost = true }
                }
            }
            throw typed
        }
    }
}
