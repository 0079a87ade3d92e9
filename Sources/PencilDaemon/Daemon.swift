import PencilProtocol
import PencilSystem
import Varlink
#if canImport(Glibc)
import Glibc // signal numbers
#endif

/// The daemon's operating-system side: the main loop, one epoll over the listening socket, the
/// clients' sockets, a timerfd for the service's deadlines and a signalfd, and the pen's path
/// on a thread of its own (`PenPath`: the devices and their deadlines). Each reads the clock
/// once per wake-up and hands the time to the service (`PenService`), which decides
/// everything else, under one lock. Nothing wakes either while nothing happens: a timer is
/// armed only while some deadline is pending, at the earliest one.
public final class Daemon {
    public static let version = "0.1.0"

    let configuration: Configuration
    let logger: Logger
    let service: PenService
    let epoll: Epoll
    let timer: TimerFD
    let signals: SignalFD
    let listener: FileDescriptor
    /// Held by whichever thread works on the service; let go while it sleeps.
    let lock = PriorityInheritanceLock()
    let penPath: PenPath
    /// Signalled by the pen's path when clients have output, or the service a deadline.
    private let penPathWorked: EventFD
    /// The socket file this daemon created (and removes at exit); nil when systemd passed the socket.
    let ownedSocketPath: String?
    /// Readable when sessions change (sd-login), when the access policy has such a thing.
    private let sessionNotifier: FileDescriptor?

    /// Accepting stopped (out of descriptors) until this time or until a client closes.
    private var acceptPausedUntil: HostTime?
    /// Whether the kernel keeps the process that connected a socket (SO_PEERPIDFD), learnt at
    /// the first accept.
    private var peerOfSocketIsKnown: Bool?
    private var connectionsWithOutput: [Connection] = []
    /// What one wake-up found ready, served one at a time with the lock let go between them.
    private var ready: [(token: UInt64, events: Epoll.Events)] = []
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var running = true
    private var watchdogInterval: Int64?
    private var nextWatchdog: HostTime?

    /// epoll tokens: fixed ones, then clients (slot and generation) and devices in ranges of their own.
    private enum Token {
        static let listener: UInt64 = 1
        static let timer: UInt64 = 2
        static let signals: UInt64 = 3
        static let access: UInt64 = 4
        static let penPath: UInt64 = 5
        static let clientBase: UInt64 = 1 << 32
        static let processBase: UInt64 = 3 << 32

        static func client(_ connection: Connection) -> UInt64 {
            clientBase | UInt64(connection.generation) << 16 | UInt64(connection.slot)
        }

        static func process(_ connection: Connection) -> UInt64 {
            processBase | UInt64(connection.generation) << 16 | UInt64(connection.slot)
        }
    }

    /// Sets up everything that can fail before the loop runs: the socket, the loop's descriptors,
    /// the devices. Errors say what failed and where.
    public init(configuration: Configuration, logger: Logger, access: (any AccessPolicy)? = nil) throws(DaemonError) {
        self.configuration = configuration
        self.logger = logger
        SignalFD.ignoreBrokenPipe()
        do {
            epoll = try Epoll()
            timer = try TimerFD()
            penPathWorked = try EventFD()
            // Before the pen's thread starts: it inherits the blocked signals.
            signals = try SignalFD(signals: [SIGTERM, SIGINT, SIGHUP])
        } catch {
            throw DaemonError("cannot set up the event loop: \(error)")
        }
        let (listener, ownedPath) = try Self.openListener(configuration: configuration, logger: logger)
        self.listener = listener
        ownedSocketPath = ownedPath
        let socketFile = UnixSocket.boundPath(of: listener) ?? configuration.socketPath
        let socketGroup = configuration.accessGroup ?? socketFile.flatMap { try? FileSystem.status(of: $0) }?.group
        let policy = access ?? SystemAccessPolicy(accessGroup: socketGroup)
        sessionNotifier = policy.changeNotifier
        service = PenService(configuration: configuration, logger: logger, access: policy,
                             preferences: PreferencesStore(directory: configuration.stateDirectory, logger: logger))
        service.withoutTheLock = { [lock] body in
            lock.unlock()
            body()
            lock.lock()
        }
        do {
            penPath = try PenPath(hub: service.devices, lock: lock, logger: logger, raisesPriority: configuration.replays.isEmpty)
        } catch {
            throw DaemonError("cannot set up the pen's thread: \(error)")
        }
        do {
            try epoll.add(penPathWorked.descriptor, events: .readable, token: Token.penPath)
            try epoll.add(listener, events: .readable, token: Token.listener)
            try epoll.add(timer.descriptor, events: .readable, token: Token.timer)
            try epoll.add(signals.descriptor, events: .readable, token: Token.signals)
            if let notifier = sessionNotifier {
                try epoll.add(notifier, events: .readable, token: Token.access)
            } else {
                logger.info("no session monitor (logind is not running): sessions are read at every call")
            }
        } catch {
            throw DaemonError("cannot set up the event loop: \(error)")
        }
        service.transport = self
        service.devices.watcher = self
        penPath.didWork = { [unowned self] in penPathDidWork() }
        try service.start(now: HostTime.now())
    }

    /// Why a user's pencild without `XDG_RUNTIME_DIR` does not start: its socket would be in a
    /// directory every local user can write, where another could be listening first.
    static let noSocketPath = DaemonError("""
        no socket path: XDG_RUNTIME_DIR is not set (a login session sets it), and a user's pencild \
        does not listen in a directory other users can write, such as /tmp; \
        set XDG_RUNTIME_DIR, or pass --socket PATH (or set PENCILD_SOCKET) in a directory only you can write
        """)

    /// Systemd's socket if it passed one, else a socket of our own at `configuration.socketPath`.
    static func openListener(configuration: Configuration, logger: Logger) throws(DaemonError) -> (FileDescriptor, String?) {
        let passed = ServiceManager.passedDescriptors()
        if let first = passed.first {
            guard UnixSocket.isListeningStreamSocket(first) else {
                throw DaemonError("the descriptor systemd passed is not a listening Unix stream socket")
            }
            for extra in passed.dropFirst() { extra.close() }
            do { try first.setNonBlocking() } catch { throw DaemonError("cannot make the passed socket non-blocking: \(error)") }
            logger.info("listening on the socket systemd passed (\(UnixSocket.boundPath(of: first) ?? "unnamed"))")
            return (first, nil)
        }
        guard let path = configuration.socketPath else { throw Self.noSocketPath }
        let directory = FileSystem.directoryName(of: path)
        do {
            try FileSystem.createDirectories(directory, permissions: 0o755)
        } catch {
            throw DaemonError("cannot create \(directory): \(error)")
        }
        // A socket file left by a daemon that died is removed; one a live daemon answers on is not.
        if let status = try? FileSystem.status(of: path) {
            guard status.isSocket else { throw DaemonError("\(path) exists and is not a socket; not removing it") }
            if let probe = try? UnixSocket.connect(to: path) {
                probe.close()
                throw DaemonError("another daemon is listening on \(path)")
            }
            try? FileSystem.remove(path)
        }
        let fd: FileDescriptor
        do {
            fd = try UnixSocket.listen(at: path)
        } catch {
            throw DaemonError("cannot listen on \(path): \(error)")
        }
        // Who may connect is decided per client (docs/protocol.md), whatever the file mode.
        try? FileSystem.setPermissions(path, 0o666)
        logger.info("listening on \(path)")
        return (fd, path)
    }

    // MARK: The loop

    /// Runs until SIGTERM/SIGINT, or until replays end with --exit-after-replay. Returns the exit code.
    public func run() -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        watchdogInterval = ServiceManager.watchdogInterval()
        let now = HostTime.now()
        if let interval = watchdogInterval { nextWatchdog = now + interval / 2 }
        do {
            try penPath.start()
        } catch {
            logger.error("cannot start the pen's thread: \(error)")
            return 1
        }
        ServiceManager.notify("READY=1\nSTATUS=\(statusText())")
        logger.notice("pencild \(Self.version) ready (\(service.devices.count) device\(service.devices.count == 1 ? "" : "s"))")
        var status: Int32 = 0
        while running {
            let now = HostTime.now()
            handleDueDeadlines(now: now)
            if service.hasBacklog { service.continueBacklogs(now: now) }
            flushConnections(now: now)
            if service.replaysDone {
                logger.notice("every replay has ended and every client has its events: exiting")
                break
            }
            if penPath.failed {
                status = 1
                break
            }
            if !running { break }
            penPath.deadlinesMayHaveChanged()
            let deadline = earliestDeadline()
            var timeout: Int32 = -1
            if service.hasBacklog || (deadline.map { $0 <= HostTime.now() } ?? false) {
                timeout = 0
            } else if Self.timerNeedsArming(armed: timer.armedDeadline, earliest: deadline?.microseconds) {
                do { try timer.arm(at: deadline) } catch { logger.error("cannot arm the timer: \(error)") }
            }
            lock.unlock()
            do {
                try epoll.wait(timeoutMilliseconds: timeout) { token, events in ready.append((token, events)) }
            } catch {
                lock.lock()
                logger.error("epoll_wait failed: \(error)")
                status = 1
                break
            }
            lock.lock()
            handleReady()
            flushConnections(now: HostTime.now())
        }
        lock.unlock()
        penPath.stop()
        lock.lock()
        shutDown()
        return status
    }

    /// Whether the timer must be set again for the earliest deadline. Only when that comes
    /// sooner than the timer: a deadline that moved later (a pen's forced proximity-out, pushed
    /// on by every frame) is found when the timer fires early, which then re-arms it, so a frame
    /// costs no timerfd_settime. A timer left armed after the last deadline went fires once and
    /// is not armed again.
    static func timerNeedsArming(armed: Int64?, earliest: Int64?) -> Bool {
        guard let earliest else { return false }
        guard let armed else { return true }
        return earliest < armed
    }

    private func statusText() -> String {
        let devices = service.devices.count, clients = service.clientCount
        return "\(devices) device\(devices == 1 ? "" : "s"), \(clients) client\(clients == 1 ? "" : "s")"
    }

    /// Serves what one wake-up found ready, letting go of the lock between any two pieces: a
    /// pen's frame that came meanwhile waits for one piece, not for all of them.
    private func handleReady() {
        for (index, item) in ready.enumerated() {
            if index > 0 { letPenPathIn() }
            handle(token: item.token, events: item.events)
        }
        ready.removeAll(keepingCapacity: true)
    }

    /// Lets go of the lock and takes it again: a pen's frame waiting for it goes first (the
    /// kernel hands a priority-inheriting lock to its waiter), else this costs two atomics.
    @inline(__always)
    private func letPenPathIn() {
        lock.unlock()
        lock.lock()
    }

    /// After the pen's path worked: wake the main loop when what it did left the loop work
    /// (output to send, a deadline sooner than its timer, the replays' end).
    private func penPathDidWork() {
        if !connectionsWithOutput.isEmpty || service.hasBacklog || service.replaysDone || penPath.failed
            || Self.timerNeedsArming(armed: timer.armedDeadline, earliest: earliestDeadline()?.microseconds) {
            penPathWorked.signal()
        }
    }

    private func handle(token: UInt64, events: Epoll.Events) {
        let now = HostTime.now()
        service.devices.advanceClock(to: now)
        switch token {
        case Token.listener: acceptClients(now: now)
        case Token.timer: timer.acknowledge()
        case Token.penPath: penPathWorked.acknowledge()
        case Token.signals: handleSignals()
        case Token.access:
            service.access.acknowledgeChanges()
            service.sessionsChanged(now: now)
        case Token.processBase...:
            let slot = Int(token & 0xffff), generation = UInt16(truncatingIfNeeded: token >> 16)
            guard let connection = service.clients.connection(slot: slot, generation: generation),
                  connection.processExitWatched, let descriptor = connection.process?.descriptor else { return }
            // Readable once, for good: the process has exited.
            epoll.remove(descriptor)
            connection.processExitWatched = false
            service.processExited(connection, now: now)
        case Token.clientBase...:
            let slot = Int(token & 0xffff), generation = UInt16(truncatingIfNeeded: token >> 16)
            guard let connection = service.clients.connection(slot: slot, generation: generation) else { return }
            if events.contains(.writable) { flush(connection, now: now) }
            if events.contains(.readable) || events.contains(.hangUp) || events.contains(.error) { readFrom(connection, now: now) }
        default: break
        }
    }

    private func handleSignals() {
        while let signal = signals.nextSignal() {
            switch signal {
            case SIGHUP:
                logger.notice("SIGHUP: preferences will be read again from \(configuration.stateDirectory)")
                service.reloadPreferences()
            default:
                logger.notice("signal \(signal): shutting down")
                running = false
            }
        }
    }

    private func earliestDeadline() -> HostTime? {
        [acceptPausedUntil, nextWatchdog, service.nextDeadline()].compactMap { $0 }.min()
    }

    private func handleDueDeadlines(now: HostTime) {
        service.devices.advanceClock(to: now)
        if let until = acceptPausedUntil, until <= now { resumeAccepting() }
        if let next = nextWatchdog, next <= now, let interval = watchdogInterval {
            ServiceManager.notify("WATCHDOG=1")
            nextWatchdog = now + interval / 2
        }
        service.fireDeadlines(now: now)
    }

    // MARK: Clients

    /// At most `acceptsPerTurn` new clients a wake-up: the listener stays readable, so the rest
    /// come at the next turn, after the pens and the clients already connected. The socket
    /// calls (accept, the peer's credentials, a refusal's send and close) run with the lock let
    /// go, on a descriptor only this thread knows: under a connect flood the pen's path waits
    /// at most for one admission's bookkeeping, never for the kernel's work on the flood.
    private func acceptClients(now: HostTime) {
        var accepted = 0
        while acceptPausedUntil == nil, accepted < configuration.limits.acceptsPerTurn {
            accepted += 1
            lock.unlock()
            let arrival = Self.acceptOne(from: listener)
            lock.lock()
            let fd: FileDescriptor, peer: PeerCredentials
            switch arrival {
            case .none: return
            case .failed(let error):
                if error == .tooManyOpenFiles || error == .tooManyOpenFilesInSystem {
                    logger.warning("out of file descriptors (\(error)): not accepting for \(configuration.limits.acceptBackoff / 1000) ms or until a client leaves")
                    pauseAccepting(until: now + configuration.limits.acceptBackoff)
                } else {
                    logger.warning("accept failed: \(error)")
                }
                return
            case .credentialsUnreadable(let error):
                logger.warning("cannot read a new client's credentials (\(error)): it was closed")
                continue
            case .client(let descriptor, let credentials):
                fd = descriptor
                peer = credentials
            }
            switch service.admit(peer: peer, now: now) {
            case .refused(let reply):
                lock.unlock()
                // A small reply into an empty socket buffer: it fits, or the peer loses it.
                _ = reply.withUnsafeBytes { try? UnixSocket.send(fd, $0) }
                fd.close()
                lock.lock()
            case .accepted(let connection):
                connection.descriptor = fd
                if peerOfSocketIsKnown == nil { peerOfSocketIsKnown = PinnedProcess.peerOfSocketIsKnown(fd) }
                // Before Linux 6.5 the kernel forgets who connected: pin the process now.
                if peerOfSocketIsKnown == false { connection.process = PinnedProcess.process(peer.pid) }
                do {
                    try epoll.add(fd, events: .readable, token: Token.client(connection))
                } catch {
                    logger.warning("cannot watch a new client (\(error)): closing it")
                    service.close(connection)
                }
            }
        }
    }

    /// What one accept found; nothing here touches the service, so it runs without the lock.
    private enum Arrival {
        case none
        case failed(Errno)
        case credentialsUnreadable(Errno)
        case client(FileDescriptor, PeerCredentials)
    }

    private static func acceptOne(from listener: FileDescriptor) -> Arrival {
        let fd: FileDescriptor?
        do { fd = try UnixSocket.accept(from: listener) } catch { return .failed(error) }
        guard let fd else { return .none }
        do {
            return .client(fd, try UnixSocket.peerCredentials(of: fd))
        } catch {
            fd.close()
            return .credentialsUnreadable(error)
        }
    }

    private func pauseAccepting(until time: HostTime) {
        acceptPausedUntil = time
        epoll.remove(listener)
    }

    private func resumeAccepting() {
        guard acceptPausedUntil != nil else { return }
        acceptPausedUntil = nil
        do { try epoll.add(listener, events: .readable, token: Token.listener) } catch { logger.error("cannot watch the listening socket again: \(error)") }
    }

    private func readFrom(_ connection: Connection, now: HostTime) {
        guard !connection.closed, let descriptor = connection.descriptor else { return }
        let count: Int
        do {
            count = try readBuffer.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) -> Int in try UnixSocket.receive(descriptor, into: raw) }
            }.get()
        } catch {
            if error == .wouldBlock { return }
            service.disconnected(connection, now: now)
            return
        }
        if count == 0 {
            service.disconnected(connection, now: now)
            return
        }
        readBuffer.withUnsafeBytes { service.received(UnsafeRawBufferPointer(rebasing: $0[0..<count]), on: connection, now: now) }
    }

    private func watch(_ connection: Connection) {
        guard !connection.closed, let descriptor = connection.descriptor else { return }
        var interest: Epoll.Events = []
        if connection.reading { interest.insert(.readable) }
        if !connection.output.isEmpty { interest.insert(.writable) }
        guard interest != connection.watchedEvents else { return }
        connection.watchedEvents = interest
        do {
            try epoll.modify(descriptor, events: interest, token: Token.client(connection))
        } catch {
            logger.warning("\(connection.label): cannot change what is watched (\(error)): closing")
            service.close(connection)
        }
    }

    // MARK: Output

    /// Flushes the connections that had output when it began; what the pen's path adds while
    /// it lets it in waits for the next turn (its eventfd is signalled), so that a pen that
    /// keeps drawing cannot keep the loop here.
    private func flushConnections(now: HostTime) {
        guard !connectionsWithOutput.isEmpty else { return }
        let batch = connectionsWithOutput
        connectionsWithOutput.removeAll(keepingCapacity: true)
        for (index, connection) in batch.enumerated() {
            if index > 0 { letPenPathIn() }
            connection.needsFlush = false
            flush(connection, now: now)
        }
    }

    /// Sends what the socket takes now; watches for room (EPOLLOUT) only while output remains.
    private func flush(_ connection: Connection, now: HostTime) {
        guard !connection.closed, let descriptor = connection.descriptor else { return }
        while !connection.output.isEmpty {
            let result = connection.output.withPendingBytes { raw in
                Result { () throws(Errno) -> Int in try UnixSocket.send(descriptor, raw) }
            }
            do {
                connection.output.didSend(try result.get())
            } catch {
                if error == .wouldBlock { break }
                service.disconnected(connection, now: now)
                return
            }
        }
        service.didSend(connection, now: now)
        watch(connection)
    }

    // MARK: Shutdown

    private func shutDown() {
        ServiceManager.notify("STOPPING=1\nSTATUS=shutting down")
        // Close what is open on every device so that every client sees its closing events.
        service.closeDevices()
        flushConnections(now: HostTime.now())
        // Give clients a short while to take their last events, without blocking on any one.
        let deadline = HostTime.now() + 1_000_000
        while service.clients.connections.contains(where: { !$0.output.isEmpty }) {
            let now = HostTime.now()
            guard now < deadline else { break }
            try? epoll.wait(timeoutMilliseconds: Int32(max(1, (deadline - now) / 1000))) { token, events in
                guard token >= Token.clientBase, token < Token.processBase else { return }
                let slot = Int(token & 0xffff), generation = UInt16(truncatingIfNeeded: token >> 16)
                guard let connection = self.service.clients.connection(slot: slot, generation: generation) else { return }
                if events.contains(.writable) { self.flush(connection, now: HostTime.now()) }
                if events.contains(.hangUp) || events.contains(.error) { self.service.close(connection) }
            }
        }
        service.closeAll()
        if let path = ownedSocketPath { try? FileSystem.remove(path) }
        logger.notice("stopped")
    }
}

extension Daemon: ClientTransport {
    func outputPending(_ connection: Connection) {
        guard !connection.needsFlush else { return }
        connection.needsFlush = true
        connectionsWithOutput.append(connection)
    }

    func readingChanged(_ connection: Connection) {
        watch(connection)
    }

    func watchExit(of connection: Connection) {
        guard !connection.processExitWatched, let descriptor = connection.pinnedProcess()?.descriptor else { return }
        do {
            try epoll.add(descriptor, events: .readable, token: Token.process(connection))
            connection.processExitWatched = true
        } catch {
            logger.warning("\(connection.label): cannot watch for its process's exit (\(error)); its focus claim ends with its last connection")
        }
    }

    func closed(_ connection: Connection) {
        connection.descriptor?.close()
        connection.descriptor = nil
        // Closing the pidfd also takes it out of epoll.
        connection.process?.close()
        connection.process = nil
        connection.processExitWatched = false
        // A descriptor is free again: accept again if we had stopped for want of one.
        if acceptPausedUntil != nil { resumeAccepting() }
    }
}

extension Daemon: DeviceWatcher {
    func watch(_ descriptor: FileDescriptor, deviceToken: UInt64) throws(Errno) {
        try penPath.watch(descriptor, deviceToken: deviceToken)
    }

    func stopWatching(_ descriptor: FileDescriptor) {
        penPath.stopWatching(descriptor)
    }
}

/// Why the daemon could not start.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
