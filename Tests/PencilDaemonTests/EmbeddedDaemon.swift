import Foundation
@testable import PencilDaemon
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Varlink

/// Who may use the interface, as a test says: a set of users with access, changed at will
/// (what logind's sessions decide on a real machine).
final class TestAccess: AccessPolicy, @unchecked Sendable {
    var allowed: Set<UInt32>
    /// Who reads every seat's pens; nil: everyone allowed.
    var everySeat: Set<UInt32>?

    init(allowed: Set<UInt32>, everySeat: Set<UInt32>? = nil) {
        self.allowed = allowed
        self.everySeat = everySeat
    }

    func seesEverySeat(_ peer: PeerCredentials) -> Bool { everySeat?.contains(peer.uid) ?? true }

    func refusal(for peer: PeerCredentials) -> String? {
        allowed.contains(peer.uid) ? nil : "uid \(peer.uid) has no access (test)"
    }
}

/// Who is at which seat, as a test says (logind's active sessions on a real machine).
final class TestSeatSessions: SeatSessions, @unchecked Sendable {
    var holders: [String: UInt32]
    var areTracked = true

    init(holders: [String: UInt32]) { self.holders = holders }

    func activeUser(onSeat seat: String) -> UInt32? { areTracked ? holders[seat] : nil }

    /// No test process runs in the seat's session: an embedded test presses no real keys (the
    /// root tests and the boot tier press them from a session).
    func processActsForSeat(pid: Int32, uid: UInt32, seat: String) -> Bool { false }
}

/// The whole daemon service in this thread, on a virtual clock and in-memory connections,
/// the way swift-nio's EmbeddedEventLoop drives a channel: nothing sleeps, nothing races, and
/// time passes only when the test says so (`advance(by:)`). Replays play on that clock.
final class EmbeddedDaemon: ClientTransport, DeviceWatcher {
    let service: PenService
    let directory: String
    private(set) var now: HostTime
    private var pending: [Connection] = []
    private var clients: [ObjectIdentifier: EmbeddedClient] = [:]
    private let logLines = LogLines()
    /// What the daemon logged, one line each, level prefix included (`<4>...`).
    var log: [String] { logLines.lines }

    init(replays: [Configuration.Replay] = [], speed: Double? = 1, waitForMonitors: Int = 1, demo: Bool = false, mirrorsReplays: Bool = false,
         access: any AccessPolicy = TestAccess(allowed: [0, 1000, 1001]), limits: Limits = Limits(), now: HostTime = HostTime(microseconds: 1_000_000_000),
         mode: Configuration.Mode = .user, seatSessions: any SeatSessions = LogindSeatSessions()) throws {
        directory = RunningDaemon.makeTemporaryDirectory()
        var configuration = Configuration(mode: mode, socketPath: directory + "/unused.sock", stateDirectory: directory + "/state")
        configuration.liveDevices = false
        configuration.replays = replays
        configuration.replaySpeed = speed
        configuration.replayWaitsForMonitors = waitForMonitors
        configuration.demo = demo
        configuration.mirrorsReplays = mirrorsReplays
        configuration.limits = limits
        configuration.logLevel = .info
        self.now = now
        let logger = Logger(level: .info, sink: { [logLines] in logLines.append($0) })
        service = PenService(configuration: configuration, logger: logger, access: access,
                             preferences: PreferencesStore(directory: configuration.stateDirectory, logger: logger), seatSessions: seatSessions)
        service.transport = self
        service.devices.watcher = self
        try service.start(now: now)
        pump()
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A process of `uid` connects: a client, or the reply it was refused with.
    func connect(uid: UInt32, pid: Int32 = 4242, groups: [UInt32] = []) -> Result<EmbeddedClient, RefusedClient> {
        switch service.admit(peer: PeerCredentials(pid: pid, uid: uid, gid: uid, groups: groups), now: now) {
        case .refused(let reply):
            return .failure(RefusedClient(reply: EmbeddedClient.messages(in: reply).first ?? .null))
        case .accepted(let connection):
            let client = EmbeddedClient(connection: connection, daemon: self)
            clients[ObjectIdentifier(connection)] = client
            return .success(client)
        }
    }

    /// A client that must be admitted.
    func client(uid: UInt32 = 1000, pid: Int32 = 4242) throws -> EmbeddedClient {
        try connect(uid: uid, pid: pid).mapError { HarnessError("uid \(uid) was refused: \($0.reply)") }.get()
    }

    /// The earliest deadline the loop would arm its timer for: the devices' and the service's.
    func nextDeadline() -> HostTime? {
        [service.devices.nextDeadline(), service.nextDeadline()].compactMap { $0 }.min()
    }

    /// Lets virtual time pass, firing every deadline on the way at its time, as the loop does.
    func advance(by microseconds: Int64) {
        let end = now + microseconds
        while let deadline = nextDeadline(), deadline <= end {
            now = max(now, deadline)
            service.devices.fireDue(now: now)
            service.fireDeadlines(now: now)
            pump()
        }
        now = end
        pump()
    }

    /// What the daemon's loop does after every wake-up: output goes to the clients that read,
    /// and clients whose calls wait get one more turn (as many turns as the test asks for
    /// with `turnsUntilIdle`).
    func pump() {
        flush()
        if service.hasBacklog {
            service.continueBacklogs(now: now)
            flush()
        }
    }

    private func flush() {
        while let connection = pending.popLast() {
            connection.needsFlush = false
            clients[ObjectIdentifier(connection)]?.take()
        }
    }

    /// Turns of the loop until no client has calls waiting; returns how many it took.
    func turnsUntilIdle() -> Int {
        var turns = 0
        while service.hasBacklog {
            service.continueBacklogs(now: now)
            flush()
            turns += 1
        }
        return turns
    }

    // MARK: ClientTransport

    func outputPending(_ connection: Connection) {
        guard !connection.needsFlush else { return }
        connection.needsFlush = true
        pending.append(connection)
    }

    func readingChanged(_ connection: Connection) {}

    func closed(_ connection: Connection) {
        clients[ObjectIdentifier(connection)]?.wasClosed()
        clients[ObjectIdentifier(connection)] = nil
    }

    /// An in-memory connection has no process to outlive it: its claim ends with it.
    func watchExit(of connection: Connection) {}

    // MARK: DeviceWatcher: the embedded daemon reads its devices itself.

    func watch(_ descriptor: FileDescriptor, deviceToken: UInt64) throws(Errno) {}
    func stopWatching(_ descriptor: FileDescriptor) {}
}

/// The daemon's log lines, kept in memory.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.withLock { stored } }
    func append(_ line: [UInt8]) {
        let text = String(decoding: line.last == UInt8(ascii: "\n") ? line.dropLast() : line[...], as: UTF8.self)
        lock.withLock { stored.append(text) }
    }
}

struct RefusedClient: Error {
    var reply: JSONValue
}

/// One in-memory connection: what the client sent, and every message it has received.
final class EmbeddedClient {
    let connection: Connection
    unowned let daemon: EmbeddedDaemon
    /// Everything received, as bytes, and split into messages.
    private(set) var received: [UInt8] = []
    private(set) var messages: [JSONValue] = []
    /// A stalled client reads nothing: its output piles up in the daemon.
    var reads = true
    private(set) var closed = false

    init(connection: Connection, daemon: EmbeddedDaemon) {
        self.connection = connection
        self.daemon = daemon
    }

    /// Sends one call (NUL-terminated JSON).
    func call(_ method: String, _ parameters: JSONValue = .object([]), more: Bool = false, oneway: Bool = false) {
        send(VarlinkCall(method: method, parameters: parameters, more: more, oneway: oneway).encoded)
    }

    func send(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { daemon.service.received($0, on: connection, now: daemon.now) }
        daemon.pump()
    }

    /// The client hangs up.
    func hangUp() {
        daemon.service.disconnected(connection, now: daemon.now)
        daemon.pump()
    }

    /// Starts reading again after a stall.
    func resume() {
        reads = true
        take()
        daemon.pump()
    }

    fileprivate func take() {
        guard reads, !connection.output.isEmpty else { return }
        connection.output.withPendingBytes { received.append(contentsOf: $0) }
        connection.output.didSend(connection.output.pendingByteCount)
        // Whole messages only; a message is never split by this transport, but stay general.
        if let end = received.lastIndex(of: 0), end + 1 > parsed {
            messages += Self.messages(in: Array(received[parsed...end]))
            parsed = end + 1
        }
        daemon.service.didSend(connection, now: daemon.now)
    }

    private var parsed = 0

    fileprivate func wasClosed() {
        take()
        closed = true
    }

    /// The stream's events so far (replies that carry `event`).
    var events: [Event] {
        eventValues.compactMap { try? Event(json: $0) }
    }

    /// The same events as the wire had them.
    var eventValues: [JSONValue] { messages.compactMap { $0["parameters"]?["event"] } }

    /// Error names of the replies so far.
    var errors: [String] { messages.compactMap { $0["error"]?.stringValue } }

    static func messages(in bytes: [UInt8]) -> [JSONValue] {
        bytes.split(separator: 0).compactMap { try? JSONReader.parse(Array($0)) }
    }
}
