import PencilProtocol
import PencilSystem
import Varlink
#if canImport(Glibc)
import Glibc // signal numbers
#endif

/// The daemon: one thread, one epoll loop over the listening socket, the clients, the devices,
/// one timerfd for every deadline and a signalfd. Nothing wakes it while nothing happens: the
/// timer is armed only while some deadline is pending, at the earliest one.
public final class Daemon {
    public static let version = "0.1.0"

    let configuration: Configuration
    let logger: Logger
    let access: any AccessPolicy
    let preferences: PreferencesStore
    let penDescription: String
    let epoll: Epoll
    let timer: TimerFD
    let signals: SignalFD
    let listener: FileDescriptor
    /// The socket file this daemon created (and removes at exit); nil when systemd passed the socket.
    let ownedSocketPath: String?
    let devices: DeviceHub

    var connections: [Int: Connection] = [:]
    private var nextConnectionID = 1
    /// Accepting stopped (out of descriptors) until this time or until a client closes.
    private var acceptPausedUntil: Int64?
    private var connectionsWithOutput: [Connection] = []
    private var writer = JSONWriter(capacity: 4096)
    private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var running = true
    private var monitorCalls = 0
    private var watchdogInterval: Int64?
    private var nextWatchdog: Int64?

    private enum Token {
        static let listener: UInt64 = 1
        static let timer: UInt64 = 2
        static let signals: UInt64 = 3
        static let access: UInt64 = 4
        static let clientBase: UInt64 = 1 << 32
        static let deviceBase: UInt64 = 2 << 32
    }

    /// Sets up everything that can fail before the loop runs: the socket, the loop's descriptors,
    /// the devices. Errors say what failed and where.
    public init(configuration: Configuration, logger: Logger, access: (any AccessPolicy)? = nil) throws(DaemonError) {
        self.configuration = configuration
        self.logger = logger
        penDescription = InterfaceDescriptions.pen
        preferences = PreferencesStore(directory: configuration.stateDirectory, logger: logger)
        SignalFD.ignoreBrokenPipe()
        do {
            epoll = try Epoll()
            timer = try TimerFD()
            signals = try SignalFD(signals: [SIGTERM, SIGINT, SIGHUP])
        } catch {
            throw DaemonError("cannot set up the event loop: \(error)")
        }
        let (listener, ownedPath) = try Self.openListener(configuration: configuration, logger: logger)
        self.listener = listener
        ownedSocketPath = ownedPath
        let socketGroup = configuration.accessGroup ?? (try? FileSystem.status(of: UnixSocket.boundPath(of: listener) ?? configuration.socketPath))??.group
        self.access = access ?? SystemAccessPolicy(accessGroup: socketGroup)
        devices = DeviceHub(configuration: configuration, logger: logger)
        do {
            try epoll.add(listener, events: .readable, token: Token.listener)
            try epoll.add(timer.descriptor, events: .readable, token: Token.timer)
            try epoll.add(signals.descriptor, events: .readable, token: Token.signals)
            if let notifier = self.access.changeNotifier {
                try epoll.add(notifier, events: .readable, token: Token.access)
            } else {
                logger.info("no session monitor (logind is not running): access is decided when a client connects")
            }
        } catch {
            throw DaemonError("cannot set up the event loop: \(error)")
        }
        devices.delegate = self
        try devices.start(now: MonotonicClock.now())
    }

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
        let path = configuration.socketPath
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
        // Who may connect is decided per client (protocol.md), whatever the file mode.
        try? FileSystem.setPermissions(path, 0o666)
        logger.info("listening on \(path)")
        return (fd, path)
    }

    // MARK: The loop

    /// Runs until SIGTERM/SIGINT, or until replays end with --exit-after-replay. Returns the exit code.
    public func run() -> Int32 {
        watchdogInterval = ServiceManager.watchdogInterval()
        let now = MonotonicClock.now()
        if let interval = watchdogInterval { nextWatchdog = now + interval / 2 }
        ServiceManager.notify("READY=1\nSTATUS=\(statusText())")
        logger.notice("pencild \(Self.version) ready (\(devices.count) device\(devices.count == 1 ? "" : "s"))")
        while running {
            let now = MonotonicClock.now()
            handleDueDeadlines(now: now)
            flushConnections()
            if configuration.exitAfterReplay, devices.replaysFinished, connections.values.allSatisfy({ $0.output.isEmpty }) {
                logger.notice("every replay has ended and every client has its events: exiting")
                break
            }
            if !running { break }
            let deadline = earliestDeadline()
            var timeout: Int32 = -1
            if let deadline, deadline <= MonotonicClock.now() {
                timeout = 0
            } else {
                do { try timer.arm(at: deadline) } catch { logger.error("cannot arm the timer: \(error)") }
            }
            do {
                try epoll.wait(timeoutMilliseconds: timeout) { token, events in
                    self.handle(token: token, events: events)
                }
            } catch {
                logger.error("epoll_wait failed: \(error)")
                return 1
            }
            flushConnections()
        }
        shutDown()
        return 0
    }

    private func statusText() -> String {
        let clients = connections.count
        return "\(devices.count) device\(devices.count == 1 ? "" : "s"), \(clients) client\(clients == 1 ? "" : "s")"
    }

    private func handle(token: UInt64, events: Epoll.Events) {
        switch token {
        case Token.listener: acceptClients()
        case Token.timer: timer.acknowledge()
        case Token.signals: handleSignals()
        case Token.access:
            access.acknowledgeChanges()
            recheckStreams()
        case Token.deviceBase...:
            devices.handleReadable(token: token - Token.deviceBase, now: MonotonicClock.now())
        case Token.clientBase...:
            guard let connection = connections[Int(token - Token.clientBase)] else { return }
            if events.contains(.writable) { flush(connection) }
            if events.contains(.readable) || events.contains(.hangUp) || events.contains(.error) { readFrom(connection) }
        default: break
        }
    }

    private func handleSignals() {
        while let signal = signals.nextSignal() {
            switch signal {
            case SIGHUP:
                logger.notice("SIGHUP: preferences will be read again from \(configuration.stateDirectory)")
                preferences.forgetCached()
            default:
                logger.notice("signal \(signal): shutting down")
                running = false
            }
        }
    }

    private func earliestDeadline() -> Int64? {
        var earliest: Int64? = nil
        func consider(_ time: Int64?) {
            guard let time else { return }
            if earliest == nil || time < earliest! { earliest = time }
        }
        consider(acceptPausedUntil)
        consider(nextWatchdog)
        consider(devices.nextDeadline())
        for connection in connections.values {
            if let since = connection.partialSince { consider(since + configuration.limits.requestTimeout) }
            if let since = connection.laggingSince { consider(since + configuration.limits.lagTimeout) }
        }
        return earliest
    }

    private func handleDueDeadlines(now: Int64) {
        if let until = acceptPausedUntil, until <= now { resumeAccepting() }
        if let next = nextWatchdog, next <= now, let interval = watchdogInterval {
            ServiceManager.notify("WATCHDOG=1")
            nextWatchdog = now + interval / 2
        }
        devices.fireDue(now: now)
        for connection in Array(connections.values) {
            if let since = connection.partialSince, since + configuration.limits.requestTimeout <= now {
                logger.warning("\(connection.label) started a message \((now - since) / 1000) ms ago and did not finish it: disconnecting")
                close(connection)
            } else if let since = connection.laggingSince, since + configuration.limits.lagTimeout <= now {
                logger.warning("\(connection.label) has not read its events: \(connection.output.pendingByteCount) bytes waiting for \((now - since) / 1000) ms, more than half its bound of \(configuration.limits.outputBufferSize): disconnecting")
                close(connection)
            }
        }
    }

    // MARK: Clients

    private func acceptClients() {
        while acceptPausedUntil == nil {
            let fd: FileDescriptor?
            do {
                fd = try UnixSocket.accept(from: listener)
            } catch {
                if error == .tooManyOpenFiles || error == .tooManyOpenFilesInSystem {
                    logger.warning("out of file descriptors (\(error)): not accepting for \(configuration.limits.acceptBackoff / 1000) ms or until a client leaves")
                    pauseAccepting(until: MonotonicClock.now() + configuration.limits.acceptBackoff)
                } else {
                    logger.warning("accept failed: \(error)")
                }
                return
            }
            guard let fd else { return }
            let peer: PeerCredentials
            do {
                peer = try UnixSocket.peerCredentials(of: fd)
            } catch {
                logger.warning("cannot read a new client's credentials (\(error)): closing it")
                fd.close()
                continue
            }
            if connections.count >= configuration.limits.maximumClients {
                logger.warning("refusing a client (uid \(peer.uid), pid \(peer.pid)): already \(connections.count) clients, the limit")
                writer.reset()
                ReplyEncoder.error(into: &writer, VarlinkError(name: "org.pencild.Pen.TooManyClients", parameters: .object([("limit", .int(Int64(configuration.limits.maximumClients)))])))
                _ = writer.bytes.withUnsafeBytes { try? UnixSocket.send(fd, $0) }
                fd.close()
                continue
            }
            let refusal = access.refusal(for: peer)
            let connection = Connection(id: nextConnectionID, descriptor: fd, peer: peer, refusal: refusal,
                                        maximumRequestSize: configuration.limits.maximumRequestSize)
            nextConnectionID += 1
            do {
                try epoll.add(fd, events: .readable, token: Token.clientBase + UInt64(connection.id))
            } catch {
                logger.warning("cannot watch a new client (\(error)): closing it")
                fd.close()
                continue
            }
            connections[connection.id] = connection
            if let refusal {
                logger.notice("\(connection.label) may not use pencild: \(refusal); it gets PermissionDenied")
            } else {
                logger.debug("\(connection.label) connected")
            }
        }
    }

    /// Sessions changed: a client that streams and may no longer use pencild gets
    /// PermissionDenied as its stream's last reply, and its connection closes.
    private func recheckStreams() {
        for connection in Array(connections.values) where connection.monitor != nil && !connection.closed && !connection.closeAfterFlush {
            guard let refusal = access.refusal(for: connection.peer) else { continue }
            logger.notice("\(connection.label) may no longer use pencild: \(refusal); its stream ends")
            endMonitor(of: connection)
            replyError(connection, nil, VarlinkError(name: "org.pencild.Pen.PermissionDenied"))
            connection.closeAfterFlush = true
        }
    }

    /// The connection stops streaming; the user's gesture stages go with their last stream.
    private func endMonitor(of connection: Connection) {
        guard connection.monitor != nil else { return }
        connection.monitor = nil
        if !connections.values.contains(where: { $0.monitor != nil && $0.peer.uid == connection.peer.uid }) {
            devices.unsubscribe(uid: connection.peer.uid)
        }
    }

    private func pauseAccepting(until time: Int64) {
        acceptPausedUntil = time
        epoll.remove(listener)
    }

    private func resumeAccepting() {
        guard acceptPausedUntil != nil else { return }
        acceptPausedUntil = nil
        do { try epoll.add(listener, events: .readable, token: Token.listener) } catch { logger.error("cannot watch the listening socket again: \(error)") }
    }

    private func readFrom(_ connection: Connection) {
        guard !connection.closed else { return }
        let count: Int
        do {
            count = try readBuffer.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) -> Int in try UnixSocket.receive(connection.descriptor, into: raw) }
            }.get()
        } catch {
            if error == .wouldBlock { return }
            logger.debug("\(connection.label): read failed (\(error)): closing")
            close(connection)
            return
        }
        if count == 0 {
            logger.debug("\(connection.label) disconnected")
            close(connection)
            return
        }
        if connection.closeAfterFlush { return }
        readBuffer.withUnsafeBytes { connection.framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        processMessages(of: connection, now: MonotonicClock.now())
    }

    /// Handles the client's complete messages, as many as its queue of unsent replies allows.
    private func processMessages(of connection: Connection, now: Int64) {
        while !connection.closed, !connection.closeAfterFlush {
            if connection.output.queuedReplyCount >= configuration.limits.maximumQueuedRequests {
                // The client does not read its replies: read nothing more from it until it does.
                setInterest(connection, reading: false)
                break
            }
            let message: ArraySlice<UInt8>?
            do {
                message = try connection.framer.nextMessage()
            } catch {
                logger.warning("\(connection.label) sent a \(error): disconnecting")
                close(connection)
                return
            }
            guard let message else { break }
            handleMessage(message, from: connection)
        }
        guard !connection.closed else { return }
        if connection.framer.hasPartialMessage, connection.interest.contains(.readable) {
            if connection.partialSince == nil { connection.partialSince = now }
        } else {
            connection.partialSince = nil
        }
    }

    private func setInterest(_ connection: Connection, reading: Bool? = nil, writing: Bool? = nil) {
        var interest = connection.interest
        if let reading { if reading { interest.insert(.readable) } else { interest.remove(.readable) } }
        if let writing { if writing { interest.insert(.writable) } else { interest.remove(.writable) } }
        guard interest != connection.interest, !connection.closed else { return }
        connection.interest = interest
        do {
            try epoll.modify(connection.descriptor, events: interest, token: Token.clientBase + UInt64(connection.id))
        } catch {
            logger.warning("\(connection.label): cannot change what is watched (\(error)): closing")
            close(connection)
        }
    }

    func close(_ connection: Connection) {
        guard !connection.closed else { return }
        connection.closed = true
        connection.descriptor.close()
        connections[connection.id] = nil
        endMonitor(of: connection)
        // A descriptor is free again: accept again if we had stopped for want of one.
        if acceptPausedUntil != nil { resumeAccepting() }
    }

    // MARK: Output

    private func markForFlush(_ connection: Connection) {
        guard !connection.needsFlush else { return }
        connection.needsFlush = true
        connectionsWithOutput.append(connection)
    }

    private func flushConnections() {
        while let connection = connectionsWithOutput.popLast() {
            connection.needsFlush = false
            flush(connection)
        }
    }

    /// Sends what the socket takes now; watches for room (EPOLLOUT) only while output remains.
    private func flush(_ connection: Connection) {
        guard !connection.closed else { return }
        let hadQueuedReplies = connection.output.queuedReplyCount >= configuration.limits.maximumQueuedRequests
        while !connection.output.isEmpty {
            let result = connection.output.withPendingBytes { raw in
                Result { () throws(Errno) -> Int in try UnixSocket.send(connection.descriptor, raw) }
            }
            do {
                connection.output.didSend(try result.get())
            } catch {
                if error == .wouldBlock { break }
                logger.debug("\(connection.label): write failed (\(error)): closing")
                close(connection)
                return
            }
        }
        if connection.output.pendingByteCount <= behindThreshold { connection.laggingSince = nil }
        if connection.output.isEmpty && connection.closeAfterFlush {
            close(connection)
            return
        }
        setInterest(connection, writing: !connection.output.isEmpty)
        if hadQueuedReplies, connection.output.queuedReplyCount < configuration.limits.maximumQueuedRequests {
            setInterest(connection, reading: true)
            processMessages(of: connection, now: MonotonicClock.now())
        }
    }

    private func queueReply(_ connection: Connection) {
        connection.output.appendReply(writer.bytes[...])
        markForFlush(connection)
    }

    func reply(_ connection: Connection, _ call: VarlinkCall, _ parameters: (inout JSONWriter) -> Void) {
        guard !call.oneway else { return }
        writer.reset()
        ReplyEncoder.reply(into: &writer, parameters)
        queueReply(connection)
    }

    func replyError(_ connection: Connection, _ call: VarlinkCall?, _ error: VarlinkError) {
        if let call, call.oneway { return }
        writer.reset()
        ReplyEncoder.error(into: &writer, error)
        queueReply(connection)
    }

    /// Checks a client's output against its bound after adding to it.
    private func checkOutputBound(_ connection: Connection, now: Int64) {
        let pending = connection.output.pendingByteCount
        let limit = configuration.limits.outputBufferSize
        if pending > 4 * limit {
            logger.warning("\(connection.label) has not read its events: \(pending) bytes waiting, four times the limit of \(limit): disconnecting")
            close(connection)
        } else if pending > behindThreshold, connection.laggingSince == nil {
            connection.laggingSince = now
            logger.info("\(connection.label) is behind: \(pending) bytes waiting")
        }
    }

    /// More than this waiting, a client is behind (see `Limits.outputBufferSize`).
    private var behindThreshold: Int { configuration.limits.outputBufferSize / 2 }

    /// Motion replaces motion only for a client past its whole bound: one that keeps up gets
    /// every event, whatever the pace of the replay.
    private func coalescing(_ key: CoalescingKey?, for connection: Connection) -> CoalescingKey? {
        guard let key, connection.output.pendingByteCount > configuration.limits.outputBufferSize else { return nil }
        return key
    }

    // MARK: Requests

    private func handleMessage(_ message: ArraySlice<UInt8>, from connection: Connection) {
        let call: VarlinkCall
        do {
            call = try VarlinkCall.parse(message)
        } catch {
            switch error {
            case .invalidField(let field):
                logger.info("\(connection.label): \(error)")
                replyError(connection, nil, .invalidParameter(field))
            case .invalidJSON, .notAnObject:
                logger.warning("\(connection.label) sent \(error): disconnecting")
                close(connection)
            }
            return
        }
        if connection.refusal != nil {
            replyError(connection, nil, VarlinkError(name: "org.pencild.Pen.PermissionDenied"))
            connection.closeAfterFlush = true
            return
        }
        if connection.monitor != nil, !call.oneway {
            // Replies to a second call would interleave with the stream: varlink has no way to tell them apart.
            logger.warning("\(connection.label) called \(call.method) on a connection that streams Monitor: disconnecting")
            close(connection)
            return
        }
        if call.upgrade {
            replyError(connection, call, .invalidParameter("upgrade"))
            return
        }
        switch call.interface {
        case InterfaceDescriptions.serviceInterface: handleServiceCall(call, from: connection)
        case InterfaceDescriptions.penInterface: handlePenCall(call, from: connection)
        default: replyError(connection, call, .interfaceNotFound(call.interface))
        }
    }

    private func handleServiceCall(_ call: VarlinkCall, from connection: Connection) {
        switch call.methodName {
        case "GetInfo":
            reply(connection, call) { writer in
                writer.key("vendor"); writer.string("pencild")
                writer.key("product"); writer.string("pencild")
                writer.key("version"); writer.string(Self.version)
                writer.key("url"); writer.string("")
                writer.key("interfaces"); writer.beginArray()
                writer.string(InterfaceDescriptions.serviceInterface)
                writer.string(InterfaceDescriptions.penInterface)
                writer.endArray()
            }
        case "GetInterfaceDescription":
            guard let name = call.parameters["interface"]?.stringValue else {
                replyError(connection, call, .invalidParameter("interface"))
                return
            }
            let text: String
            switch name {
            case InterfaceDescriptions.serviceInterface: text = InterfaceDescriptions.service
            case InterfaceDescriptions.penInterface: text = penDescription
            default:
                replyError(connection, call, .interfaceNotFound(name))
                return
            }
            reply(connection, call) { writer in writer.key("description"); writer.string(text) }
        default:
            replyError(connection, call, .methodNotFound(call.method))
        }
    }

    private func handlePenCall(_ call: VarlinkCall, from connection: Connection) {
        switch call.methodName {
        case "ListDevices":
            let infos = devices.deviceInfos
            reply(connection, call) { writer in
                writer.key("devices"); writer.beginArray()
                for info in infos { writer.write(info) }
                writer.endArray()
            }
        case "Monitor": startMonitor(call, for: connection)
        case "GetPreferences":
            let current = preferences.preferences(for: connection.peer.uid)
            reply(connection, call) { writer in writer.key("preferences"); writer.write(current) }
        case "SetPreferences": setPreferences(call, for: connection)
        default:
            replyError(connection, call, .methodNotFound(call.method))
        }
    }

    private func startMonitor(_ call: VarlinkCall, for connection: Connection) {
        guard call.more else {
            replyError(connection, call, .expectedMore)
            return
        }
        guard !call.oneway else { return }
        var subscription = MonitorSubscription()
        if let given = call.parameters["devices"], !given.isNull {
            guard let list = given.arrayValue else { replyError(connection, call, .invalidParameter("devices")); return }
            var ids = Set<String>()
            for element in list {
                guard let id = element.stringValue else { replyError(connection, call, .invalidParameter("devices")); return }
                guard devices.contains(id) else {
                    replyError(connection, call, VarlinkError(name: "org.pencild.Pen.NoSuchDevice", parameters: .object([("device", .string(id))])))
                    return
                }
                ids.insert(id)
            }
            subscription.devices = ids
        }
        if let given = call.parameters["events"], !given.isNull {
            guard let list = given.arrayValue else { replyError(connection, call, .invalidParameter("events")); return }
            var types = Set<EventType>()
            for element in list {
                guard let name = element.stringValue, let type = EventType(rawValue: name) else {
                    replyError(connection, call, .invalidParameter("events"))
                    return
                }
                types.insert(type)
            }
            subscription.eventTypes = types
        }
        let uid = connection.peer.uid
        connection.monitor = subscription
        devices.subscribe(uid: uid, preferences: preferences.preferences(for: uid))
        let now = MonotonicClock.now()
        for event in devices.catchUpEvents(uid: uid, now: now) where subscription.wants(event) {
            append(event, to: connection, now: now)
        }
        monitorCalls += 1
        logger.debug("\(connection.label) monitors \(subscription.devices.map { $0.sorted().joined(separator: ",") } ?? "every device")")
        devices.monitorsSubscribed(count: monitorCalls, now: now)
    }

    private func setPreferences(_ call: VarlinkCall, for connection: Connection) {
        guard let given = call.parameters["preferences"], !given.isNull else {
            replyError(connection, call, .invalidParameter("preferences"))
            return
        }
        let uid = connection.peer.uid
        let current: Preferences
        do {
            current = try preferences.preferencesToUpdate(for: uid)
        } catch {
            replyError(connection, call, VarlinkError(name: "org.pencild.Pen.PreferencesNotSaved", parameters: .object([("reason", .string("cannot read the stored preferences: \(error)"))])))
            return
        }
        let updated: Preferences
        do {
            updated = try current.merging(given)
        } catch {
            replyError(connection, call, VarlinkError(name: "org.pencild.Pen.InvalidPreferences", parameters: .object([("field", .string(error.field)), ("reason", .string(error.reason))])))
            return
        }
        do {
            try preferences.store(updated, for: uid)
        } catch {
            logger.error("cannot store the preferences of uid \(uid) in \(configuration.stateDirectory): \(error)")
            replyError(connection, call, VarlinkError(name: "org.pencild.Pen.PreferencesNotSaved", parameters: .object([("reason", .string("cannot write \(configuration.stateDirectory): \(error)"))])))
            return
        }
        logger.info("uid \(uid) changed their preferences")
        reply(connection, call) { writer in writer.key("preferences"); writer.write(updated) }
        devices.updatePreferences(uid: uid, updated)
        let event = Event(type: .preferencesChanged, time: MonotonicClock.now(), preferences: updated)
        deliver([event], toUser: uid)
    }

    // MARK: Events to monitors

    private var eventWriter = JSONWriter(capacity: 1024)

    private func append(_ event: Event, to connection: Connection, now: Int64) {
        eventWriter.reset()
        encode(event)
        connection.output.appendEvent(eventWriter.bytes[...], coalescing: coalescing(coalescingKey(for: event), for: connection))
        markForFlush(connection)
        checkOutputBound(connection, now: now)
    }

    private func encode(_ event: Event) {
        ReplyEncoder.reply(into: &eventWriter, continues: true) { writer in
            writer.key("event"); writer.write(event)
        }
    }

    private func coalescingKey(for event: Event) -> CoalescingKey? {
        guard let device = event.device else { return nil }
        switch event.type {
        case .motion: return CoalescingKey(device: device, isMotion: true)
        case .hover where event.phase == .changed: return CoalescingKey(device: device, isMotion: false)
        default: return nil
        }
    }

    /// Sends `events` to the monitors of `uid` (every monitor when nil) that want them.
    func deliver(_ events: [Event], toUser uid: UInt32?) {
        guard !connections.isEmpty else { return }
        let now = MonotonicClock.now()
        for event in events {
            var encoded = false
            let key = coalescingKey(for: event)
            for connection in connections.values {
                guard let monitor = connection.monitor, !connection.closed else { continue }
                if let uid, connection.peer.uid != uid { continue }
                guard monitor.wants(event) else { continue }
                if !encoded {
                    eventWriter.reset()
                    encode(event)
                    encoded = true
                }
                connection.output.appendEvent(eventWriter.bytes[...], coalescing: coalescing(key, for: connection))
                markForFlush(connection)
                checkOutputBound(connection, now: now)
            }
        }
    }

    // MARK: Shutdown

    private func shutDown() {
        ServiceManager.notify("STOPPING=1\nSTATUS=shutting down")
        // Close what is open on every device so that every client sees its closing events.
        devices.removeAll()
        flushConnections()
        // Give clients a short while to take their last events, without blocking on any one.
        let deadline = MonotonicClock.now() + 1_000_000
        while connections.values.contains(where: { !$0.output.isEmpty }) {
            let now = MonotonicClock.now()
            guard now < deadline else { break }
            try? epoll.wait(timeoutMilliseconds: Int32(max(1, (deadline - now) / 1000))) { token, events in
                if token >= Token.clientBase, token < Token.deviceBase, let connection = self.connections[Int(token - Token.clientBase)] {
                    if events.contains(.writable) { self.flush(connection) }
                    if events.contains(.hangUp) || events.contains(.error) { self.close(connection) }
                }
            }
        }
        for connection in Array(connections.values) { close(connection) }
        if let path = ownedSocketPath { try? FileSystem.remove(path) }
        logger.notice("stopped")
    }
}

extension Daemon: DeviceHubDelegate {
    func deviceHub(_ hub: DeviceHub, emit events: [Event], toUser uid: UInt32?) {
        deliver(events, toUser: uid)
    }

    func deviceHub(_ hub: DeviceHub, watch descriptor: FileDescriptor, token: UInt64) throws(Errno) {
        try epoll.add(descriptor, events: .readable, token: Token.deviceBase + token)
    }

    func deviceHub(_ hub: DeviceHub, stopWatching descriptor: FileDescriptor) {
        epoll.remove(descriptor)
    }

    func deviceHubMayPlayAtFullSpeed(_ hub: DeviceHub) -> Bool {
        !connections.values.contains { $0.monitor != nil && $0.output.pendingByteCount > behindThreshold }
    }
}

/// Why the daemon could not start.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
