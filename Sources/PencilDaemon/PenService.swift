import PencilProtocol
import PencilSystem
import Varlink

/// The service: turns clients' calls into replies and effects, and devices' events into
/// streams. It reads no clock and does no socket I/O: host time comes in with every call
/// (`now`, CLOCK_MONOTONIC µs), and bytes come and go through the transport. That is what
/// lets tests drive a whole daemon in virtual time.
///
/// Access is decided at every call, from the peer's credentials and the sessions as they are
/// then. Each connection's flow control (framing, calls per turn, oneway calls included, the
/// output bound, the timeouts) is Varlink's `ServerConnection`; the service acts on what it
/// decides.
final class PenService {
    let configuration: Configuration
    let logger: Logger
    let access: any AccessPolicy
    let preferences: PreferencesStore
    let devices: DeviceHub
    /// Chords for the seat's active user (PressChord).
    let keyboard: SeatKeyboard
    weak var transport: (any ClientTransport)?
    /// Runs slow work that touches nothing shared (a file's writing and fsyncs) with the
    /// daemon's lock let go, so that the pen's path does not wait for it; set by the daemon.
    var withoutTheLock: (() -> Void) -> Void = { $0() }

    // Read for every event and every client on the stream's hot path; the loop is one thread and
    // no access to them overlaps another, so release builds leave out the runtime's exclusivity
    // check (docs/benchmarks.md, instructions per frame). Debug builds, which the tests and the
    // sanitizers run, keep it.
    #if DEBUG
    var clients = ClientTable()
    /// Who reads which seat's pens (system mode).
    var seatReaders: SeatReaders
    #else
    @exclusivity(unchecked) var clients = ClientTable()
    @exclusivity(unchecked) var seatReaders: SeatReaders
    #endif
    /// Who is at which seat (logind's sessions; a test's own).
    let seatSessions: any SeatSessions
    /// The seat of the device whose events were delivered last (`seat(of:)`).
    var seatCache: (device: String, seat: String)?
    var focus = FocusClaims()
    var clientLog: ClientLog
    var writes = PreferencesWrites()
    /// Connections whose messages wait in their framer (they used their share of a turn).
    private var backlog = Backlog<Connection>()
    private var writer = JSONWriter(capacity: 4096)
    private var monitorCalls = 0

    /// At most this many preference writes per user per second.
    static let preferencesWriteInterval: Int64 = 250_000

    init(configuration: Configuration, logger: Logger, access: any AccessPolicy, preferences: PreferencesStore,
         seatSessions: any SeatSessions = LogindSeatSessions()) {
        self.configuration = configuration
        self.seatSessions = seatSessions
        seatReaders = SeatReaders(sessions: seatSessions)
        self.logger = logger
        self.access = access
        self.preferences = preferences
        clientLog = ClientLog(logger: logger)
        devices = DeviceHub(configuration: configuration, logger: logger)
        keyboard = SeatKeyboard(keyInterval: configuration.chordKeyInterval, logger: logger)
        devices.delegate = self
    }

    func start(now: HostTime) throws(DaemonError) {
        seatReaders.refresh(mode: configuration.mode)
        try devices.start(now: now)
        // Made before any chord: see SeatKeyboard.
        if configuration.mode == .system && configuration.liveDevices { keyboard.prepare() }
    }

    var clientCount: Int { clients.count }

    /// Every replay has ended and every client has its events (`--exit-after-replay`).
    var replaysDone: Bool {
        configuration.exitAfterReplay && devices.replaysFinished && clients.connections.allSatisfy { $0.output.isEmpty }
    }

    // MARK: Clients come and go

    enum Admission {
        case accepted(Connection)
        /// Not served: write `reply` (a varlink error) and close, without counting it anywhere.
        case refused(reply: [UInt8])
    }

    /// A client connected. One that may not use pencild is told so at once and never counts
    /// against any limit.
    func admit(peer: PeerCredentials, now: HostTime) -> Admission {
        if let refusal = access.refusal(for: peer) {
            clientLog.log(.notice, uid: peer.uid, now: now, "a client (uid \(peer.uid), pid \(peer.pid)) may not use pencild: \(refusal); it gets PermissionDenied")
            return .refused(reply: encodedError(PenError.permissionDenied))
        }
        if case .full(let limit, let perUser) = clients.admission(for: peer, limits: configuration.limits, isAtASeat: { access.isAtASeat(peer) }) {
            let whose = perUser ? "uid \(peer.uid) already has \(limit) clients" : "already \(clients.count) clients"
            clientLog.log(.warning, uid: peer.uid, now: now, "refusing a client (uid \(peer.uid), pid \(peer.pid)): \(whose), the limit")
            return .refused(reply: encodedError(PenError.tooManyClients(limit: limit, perUser: perUser)))
        }
        let connection = clients.insert(peer: peer, seesEverySeat: access.seesEverySeat(peer), limits: configuration.limits.connection, now: now)
        clientLog.log(.debug, uid: peer.uid, now: now, "\(connection.label) connected")
        return .accepted(connection)
    }

    /// The client hung up, or its transport failed.
    func disconnected(_ connection: Connection, now: HostTime) {
        clientLog.log(.debug, uid: connection.peer.uid, now: now, "\(connection.label) disconnected")
        close(connection)
    }

    func close(_ connection: Connection) {
        guard connection.markClosed() else { return }
        let lastOfProcess = clients.remove(connection)
        endMonitor(of: connection)
        writes.forget(connection)
        if lastOfProcess {
            focus.release(uid: connection.peer.uid, pid: connection.peer.pid)
            devices.setAppHoldsFocus(focus.holder(of: connection.peer.uid) != nil, uid: connection.peer.uid)
        }
        transport?.closed(connection)
    }

    /// Sessions changed: every connection whose peer may no longer use pencild gets
    /// PermissionDenied (a stream's last reply) and is closed, streaming or not.
    func sessionsChanged(now: HostTime) {
        // The seat's active user may be another: their preferences decide the mirrors now.
        devices.refreshSeatAccess(now: now)
        devices.refreshMirrors()
        refreshSeatReaders(now: now)
        keyboard.sessionsChanged(stillHolds: mayPressKeys(uid:))
        for connection in Array(clients.connections) where !connection.closeAfterFlush {
            guard let refusal = access.refusal(for: connection.peer) else { continue }
            clientLog.log(.notice, uid: connection.peer.uid, now: now, "\(connection.label) may no longer use pencild: \(refusal); it is closed")
            deny(connection)
        }
    }

    /// PermissionDenied as the connection's last reply; nothing more is read from it.
    private func deny(_ connection: Connection) {
        endMonitor(of: connection)
        queueError(connection, PenError.permissionDenied)
        finish(connection)
    }

    /// Close once what is queued is sent.
    private func finish(_ connection: Connection) {
        connection.closeWhenFlushed()
        updateReading(connection)
        if connection.output.isEmpty { close(connection) }
    }

    // MARK: Input

    /// Bytes from the client.
    func received(_ bytes: UnsafeRawBufferPointer, on connection: Connection, now: HostTime) {
        guard connection.received(bytes) else { return }
        processMessages(of: connection, now: now)
    }

    /// Whether some client has calls waiting for its next turn.
    var hasBacklog: Bool { !backlog.isEmpty }

    /// The next turn of every client whose calls wait.
    func continueBacklogs(now: HostTime) {
        for connection in backlog.takeAll() { processMessages(of: connection, now: now) }
    }

    /// Handles the client's complete messages, as many as the connection lets this turn take.
    private func processMessages(of connection: Connection, now: HostTime) {
        switch connection.takeCalls(now: now, { message in handleMessage(message, from: connection, now: now) }) {
        case .malformed(let error):
            clientLog.log(.warning, uid: connection.peer.uid, now: now, "\(connection.label) sent a \(error): disconnecting")
            close(connection)
            return
        case .backlogged: backlog.add(connection)
        case .waiting: break
        }
        updateReading(connection)
    }

    /// Tells the transport when the connection's reading changes.
    private func updateReading(_ connection: Connection) {
        if connection.updateReading() { transport?.readingChanged(connection) }
    }

    private func handleMessage(_ message: ArraySlice<UInt8>, from connection: Connection, now: HostTime) {
        let call: VarlinkCall
        do {
            call = try VarlinkCall.parse(message)
        } catch {
            switch error {
            case .invalidField(let field):
                clientLog.log(.info, uid: connection.peer.uid, now: now, "\(connection.label): \(error)")
                replyError(connection, nil, .invalidParameter(field))
            case .invalidJSON, .notAnObject:
                clientLog.log(.warning, uid: connection.peer.uid, now: now, "\(connection.label) sent \(error): disconnecting")
                close(connection)
            }
            return
        }
        // Access at every call: a session that ended since the connection was made ends its rights.
        if let refusal = access.refusal(for: connection.peer) {
            clientLog.log(.notice, uid: connection.peer.uid, now: now, "\(connection.label) may not use pencild: \(refusal); it gets PermissionDenied")
            deny(connection)
            return
        }
        if connection.monitor != nil, !call.oneway {
            // Replies to a second call would interleave with the stream: varlink has no way to tell them apart.
            clientLog.log(.warning, uid: connection.peer.uid, now: now, "\(connection.label) called \(call.method) on a connection that streams Monitor: disconnecting")
            close(connection)
            return
        }
        if call.upgrade {
            replyError(connection, call, .invalidParameter("upgrade"))
            return
        }
        switch call.interface {
        case VarlinkService.interfaceName: handleServiceCall(call, from: connection)
        case PenInterface.name: handlePenCall(call, from: connection, now: now)
        default: replyError(connection, call, .interfaceNotFound(call.interface))
        }
    }

    /// What org.varlink.service says of pencild.
    private static let service = VarlinkService(vendor: "pencild", product: "pencild", version: Daemon.version, url: "",
                                                interfaces: [(PenInterface.name, InterfaceDescriptions.pen)])

    private func handleServiceCall(_ call: VarlinkCall, from connection: Connection) {
        switch Self.service.answer(call) {
        case .reply(let parameters): reply(connection, call, parameters)
        case .error(let error): replyError(connection, call, error)
        }
    }

    private func handlePenCall(_ call: VarlinkCall, from connection: Connection, now: HostTime) {
        guard let method = PenInterface.Method(rawValue: call.methodName) else {
            replyError(connection, call, .methodNotFound(call.method))
            return
        }
        // Monitor streams or is refused before its parameters are read.
        if method == .monitor, !call.more {
            replyError(connection, call, .expectedMore)
            return
        }
        // Each handler is handed its method's parameters, read and typed as the interface
        // declares them (PenParameters); one of another kind is InvalidParameter here.
        let parameters = ParameterReader(call.parameters)
        do throws(InvalidParameter) {
            switch method {
            case .listDevices: listDevices(call, for: connection)
            case .monitor: startMonitor(try .init(parameters), call, for: connection, now: now)
            case .getPreferences: getPreferences(call, for: connection)
            case .setPreferences: setPreferences(try .init(parameters), call, for: connection, now: now)
            case .setFocus: setFocus(try .init(parameters), call, for: connection, now: now)
            case .pressChord: pressChord(try .init(parameters), call, for: connection, now: now)
            case .playGesture: playGesture(try .init(parameters), call, for: connection, now: now)
            case .setTipTool: setTipTool(try .init(parameters), call, for: connection, now: now)
            }
        } catch {
            replyError(connection, call, .invalidParameter(error.name))
        }
    }

    private func listDevices(_ call: VarlinkCall, for connection: Connection) {
        let infos = devices.devices.filter { reads($0, connection) }.map(\.listedInfo)
        reply(connection, call) { writer in
            writer.key("devices"); writer.beginArray()
            for info in infos { writer.write(info) }
            writer.endArray()
        }
    }

    private func getPreferences(_ call: VarlinkCall, for connection: Connection) {
        let current = writes.pending(of: connection.peer.uid) ?? preferences.preferences(for: connection.peer.uid)
        reply(connection, call) { writer in writer.key("preferences"); writer.write(current) }
    }

    private func startMonitor(_ parameters: PenParameters.Monitor, _ call: VarlinkCall, for connection: Connection, now: HostTime) {
        guard !call.oneway else { return }
        var subscription = MonitorFilter()
        if let ids = parameters.devices {
            for id in ids {
                guard let device = devices.device(id), reads(device, connection) else {
                    replyError(connection, call, PenError.noSuchDevice(id))
                    return
                }
            }
            subscription.devices = Set(ids)
        }
        if let names = parameters.events {
            var types = Set<EventType>()
            for name in names {
                guard let type = EventType(rawValue: name) else {
                    replyError(connection, call, .invalidParameter("events"))
                    return
                }
                types.insert(type)
            }
            subscription.eventTypes = types
        }
        let uid = connection.peer.uid
        connection.monitor = subscription
        devices.subscribe(uid: uid, preferences: writes.pending(of: uid) ?? preferences.preferences(for: uid))
        for device in devices.devices where reads(device, connection) {
            for event in devices.catchUpEvents(of: device, uid: uid, now: now) where subscription.wants(event) {
                send(event, to: connection, holder: focus.holder(for: event, of: uid), now: now)
            }
        }
        monitorCalls += 1
        clientLog.log(.debug, uid: uid, now: now, "\(connection.label) monitors \(subscription.devices.map { $0.sorted().joined(separator: ",") } ?? "every device")")
        devices.monitorsSubscribed(count: monitorCalls, now: now)
    }

    /// The connection stops streaming; the user's gesture stages go with their last stream.
    private func endMonitor(of connection: Connection) {
        guard connection.monitor != nil else { return }
        connection.monitor = nil
        let uid = connection.peer.uid
        if !clients.connections.contains(where: { $0.monitor != nil && $0.peer.uid == uid }) {
            devices.unsubscribe(uid: uid)
            focus.forgetPhasedGestures(of: uid)
        }
    }

    private func setFocus(_ parameters: PenParameters.SetFocus, _ call: VarlinkCall, for connection: Connection, now: HostTime) {
        let focused = parameters.focused
        let (uid, pid) = (connection.peer.uid, connection.peer.pid)
        if focused {
            focus.claim(uid: uid, pid: pid)
            // The claim is the process's: it ends when that process exits, even where a child
            // it left behind keeps this connection open.
            transport?.watchExit(of: connection)
        } else {
            focus.release(uid: uid, pid: pid)
        }
        devices.setAppHoldsFocus(focus.holder(of: uid) != nil, uid: uid)
        clientLog.log(.debug, uid: uid, now: now, "\(connection.label) \(focused ? "claims" : "gives up") the focus")
        reply(connection, call) { _ in }
    }

    /// The process that opened `connection` has exited (the transport watched it because it
    /// claimed the focus): its claim, if it still holds one, ends now.
    func processExited(_ connection: Connection, now: HostTime) {
        let (uid, pid) = (connection.peer.uid, connection.peer.pid)
        guard focus.holder(of: uid) == pid else { return }
        focus.release(uid: uid, pid: pid)
        devices.setAppHoldsFocus(focus.holder(of: uid) != nil, uid: uid)
        clientLog.log(.info, uid: uid, now: now, "\(connection.label): pid \(pid) exited while holding the focus; its claim ends with it")
    }

    /// Why the process behind `connection` does not act for the person at `seat` (the seat's
    /// active session, or `uid`'s pencil-actions.service); nil when it does. The process that
    /// connected is asked whether it still runs on both sides of the lookup by pid, so that a
    /// pid taken over by another process since the connect is never judged in its place.
    func callerRefusal(_ connection: Connection, uid: UInt32, seat: String) -> String? {
        let pid = connection.peer.pid
        guard connection.processStillRuns else { return "pid \(pid) has exited since it connected" }
        guard seatSessions.processActsForSeat(pid: pid, uid: uid, seat: seat) else {
            return "pid \(pid) is neither in \(seat)'s active session nor uid \(uid)'s \(SeatCaller.userUnit)"
        }
        guard connection.processStillRuns else { return "pid \(pid) has exited since it connected" }
        return nil
    }

    // MARK: Preferences

    private func setPreferences(_ parameters: PenParameters.SetPreferences, _ call: VarlinkCall, for connection: Connection, now: HostTime) {
        let given = parameters.preferences
        let uid = connection.peer.uid
        let current: Preferences
        if let pending = writes.pending(of: uid) {
            current = pending
        } else {
            do {
                current = try preferences.preferencesToUpdate(for: uid)
            } catch {
                replyError(connection, call, PenError.preferencesNotSaved("cannot read the stored preferences: \(error)"))
                return
            }
        }
        let updated: Preferences
        do {
            updated = try current.merging(given)
        } catch {
            replyError(connection, call, PenError.invalidPreferences(field: error.field, reason: error.reason))
            return
        }
        let waiter = call.oneway ? nil : connection
        if writes.pending(of: uid) == nil, updated == current {
            // Nothing changes: nothing is written.
            if let waiter { replyPreferences(waiter, updated) }
            return
        }
        if writes.pending(of: uid) != nil || !writes.mayWrite(uid: uid, now: now, interval: Self.preferencesWriteInterval) {
            // Coalesced: the last value wins, written once the user's interval has passed;
            // the reply waits for that write, and the client's later calls wait behind it.
            writes.defer(updated, uid: uid, waiter: waiter, due: writes.nextWrite(uid: uid, interval: Self.preferencesWriteInterval))
            if let waiter {
                waiter.awaitDeferredReply()
                updateReading(waiter)
            }
            return
        }
        write(updated, uid: uid, waiters: waiter.map { [$0] } ?? [], now: now)
    }

    /// Writes `value` for `uid` now, and answers the calls that wait for it.
    private func write(_ value: Preferences, uid: UInt32, waiters: [Connection], now: HostTime) {
        writes.wrote(uid: uid, at: now)
        do {
            try preferences.store(value, for: uid, writing: withoutTheLock)
        } catch {
            logger.error("cannot store the preferences of uid \(uid) in \(configuration.stateDirectory): \(error)")
            for waiter in waiters {
                resume(waiter, now: now) {
                    self.queueError(waiter, PenError.preferencesNotSaved("cannot write \(self.configuration.stateDirectory): \(error)"))
                }
            }
            return
        }
        clientLog.log(.info, uid: uid, now: now, "uid \(uid) changed their preferences")
        for waiter in waiters {
            resume(waiter, now: now) { self.replyPreferences(waiter, value) }
        }
        devices.updatePreferences(uid: uid, value, now: now)
        devices.refreshMirrors()
        deliver([Event(type: .preferencesChanged, time: now.microseconds, preferences: value)], toUser: uid, now: now)
    }

    /// A waiting call is answered: the client's later calls may be handled again.
    private func resume(_ connection: Connection, now: HostTime, _ answer: () -> Void) {
        guard !connection.closed else { return }
        answer()
        connection.deferredReplyAnswered()
        processMessages(of: connection, now: now)
    }

    private func replyPreferences(_ connection: Connection, _ value: Preferences) {
        writer.reset()
        ReplyEncoder.reply(into: &writer) { writer in writer.key("preferences"); writer.write(value) }
        queueReply(connection)
    }

    // MARK: Replies

    private func encodedError(_ error: VarlinkError) -> [UInt8] {
        writer.reset()
        ReplyEncoder.error(into: &writer, error)
        return writer.bytes
    }

    private func queueReply(_ connection: Connection) {
        connection.appendReply(writer.bytes[...])
        transport?.outputPending(connection)
        updateReading(connection)
    }

    func reply(_ connection: Connection, _ call: VarlinkCall, _ parameters: (inout JSONWriter) -> Void) {
        guard !call.oneway else { return }
        writer.reset()
        ReplyEncoder.reply(into: &writer, parameters)
        queueReply(connection)
    }

    func replyError(_ connection: Connection, _ call: VarlinkCall?, _ error: VarlinkError) {
        if let call, call.oneway { return }
        queueError(connection, error)
    }

    private func queueError(_ connection: Connection, _ error: VarlinkError) {
        writer.reset()
        ReplyEncoder.error(into: &writer, error)
        queueReply(connection)
    }

    /// The transport sent some of the connection's output.
    func didSend(_ connection: Connection, now: HostTime) {
        switch connection.didSend(now: now) {
        case .close: close(connection)
        case .takeCalls: processMessages(of: connection, now: now)
        case .nothing: break
        }
    }

    // MARK: Time

    /// The earliest time at which something of the service is due: a chord's next step, a
    /// client's time-out, a coalesced write, a log summary. The devices' deadlines are
    /// DeviceHub's, which the loop asks for itself.
    func nextDeadline() -> HostTime? {
        var earliest: HostTime?
        func consider(_ time: HostTime?) {
            if let time, earliest.map({ time < $0 }) ?? true { earliest = time }
        }
        consider(keyboard.nextDeadline)
        consider(writes.nextDue)
        consider(clientLog.nextDeadline)
        for connection in clients.connections { consider(connection.nextDeadline(mayIdle: mayIdle(connection))) }
        return earliest
    }

    /// A connection that streams may not be closed for idling; nor may one whose process holds
    /// its user's focus (the claim would go).
    private func mayIdle(_ connection: Connection) -> Bool {
        connection.monitor == nil && focus.holder(of: connection.peer.uid) != connection.peer.pid
    }

    func fireDeadlines(now: HostTime) {
        playChords(now: now)
        for (uid, pending) in writes.takeDue(now: now) {
            write(pending.value, uid: uid, waiters: pending.waiters.filter { !$0.closed }, now: now)
        }
        clientLog.fireDue(now: now)
        for connection in Array(clients.connections) {
            guard let expiry = connection.expiry(now: now, mayIdle: mayIdle(connection)) else { continue }
            let uid = connection.peer.uid
            switch expiry {
            case .requestTimedOut(let since):
                clientLog.log(.warning, uid: uid, now: now, "\(connection.label) started a message \((now - since) / 1000) ms ago and did not finish it: disconnecting")
            case .lagged(let since):
                clientLog.log(.warning, uid: uid, now: now, "\(connection.label) has not read its events: \(connection.output.pendingByteCount) bytes waiting for \((now - since) / 1000) ms, more than half its bound of \(connection.limits.outputBufferSize): disconnecting")
            case .idle(let since):
                clientLog.log(.info, uid: uid, now: now, "\(connection.label) has been idle for \((now - since) / 1_000_000) s: closing it")
            }
            close(connection)
        }
    }

    /// SIGHUP: read preferences again on next use.
    func reloadPreferences() {
        preferences.forgetCached()
        devices.refreshMirrors()
    }

    /// Shutdown: every device closes what is open, so that every client sees its closing events.
    func closeDevices() {
        devices.removeAll()
        keyboard.close()
    }

    func closeAll() {
        for connection in Array(clients.connections) { close(connection) }
    }

    // MARK: Events to monitors

    // Written for every event: as `clients`, no exclusivity check in release builds.
    #if DEBUG
    private var eventWriter = JSONWriter(capacity: 1024)
    #else
    @exclusivity(unchecked) private var eventWriter = JSONWriter(capacity: 1024)
    #endif

    /// Whether some monitor is behind (replays at full speed wait for it).
    var someMonitorIsBehind: Bool {
        clients.connections.contains { $0.monitor != nil && $0.isBehind }
    }

    func send(_ event: Event, to connection: Connection, holder: Int32?, now: HostTime) {
        var event = event
        // A gesture the pen's mirror performed is nobody's to act on, whoever holds the focus.
        if let focus = event.focus, focus != .pen { event.focus = FocusClaims.focus(holder: holder, receiver: connection.peer.pid) }
        withUnsafePointer(to: &event) { encode($0) }
        append(to: connection, coalescing: coalescingKey(for: event), now: now)
    }

    private func encode(_ event: UnsafePointer<Event>) {
        eventWriter.reset()
        ReplyEncoder.continuingReply(into: &eventWriter, event: event)
    }

    private func append(to connection: Connection, coalescing key: CoalescingKey?, now: HostTime) {
        let state = connection.appendStreamReply(eventWriter.bytes[...], coalescing: key, now: now)
        transport?.outputPending(connection)
        switch state {
        case .within: break
        case .fellBehind(let pending):
            clientLog.log(.info, uid: connection.peer.uid, now: now, "\(connection.label) is behind: \(pending) bytes waiting")
        case .overflowed(let pending):
            clientLog.log(.warning, uid: connection.peer.uid, now: now, "\(connection.label) has not read its events: \(pending) bytes waiting, four times the limit of \(connection.limits.outputBufferSize): disconnecting")
            close(connection)
        }
    }

    private func coalescingKey(for event: Event) -> CoalescingKey? {
        coalescingKey(type: event.type, phase: event.phase, device: event.device)
    }

    private func coalescingKey(type: EventType, phase: Phase?, device: String?) -> CoalescingKey? {
        guard let device else { return nil }
        switch type {
        case .motion: return CoalescingKey(subject: device, kind: 0)
        case .hover where phase == .changed: return CoalescingKey(subject: device, kind: 1)
        default: return nil
        }
    }

    /// Sends `events` to the monitors of `uid` (every monitor when nil) that want them. An
    /// event is encoded once for all its readers, except a gesture's, whose focus differs by
    /// reader.
    func deliver(_ events: [Event], toUser uid: UInt32?, now: HostTime) {
        guard !clients.isEmpty else { return }
        // Each event is encoded where it lies in the list, not from a copy.
        events.withUnsafeBufferPointer { events in
            for index in events.indices { deliver(events.baseAddress! + index, toUser: uid, now: now) }
        }
    }

    private func deliver(_ eventAddress: UnsafePointer<Event>, toUser uid: UInt32?, now: HostTime) {
        // Whose seat the event's pen is on, when that decides who reads it.
        let eventSeat = seatReaders.restricted ? seat(of: eventAddress.pointee) : nil
        // The fields the readers are chosen by, read through the address: the event itself is
        // copied only for a gesture, whose focus is rewritten for each reader.
        if eventAddress.pointee.focus != nil, let uid {
            let event = eventAddress.pointee
            let holder = focus.holder(for: event, of: uid)
            for connection in clients.connections where connection.peer.uid == uid && !connection.closed {
                guard let monitor = connection.monitor, monitor.wants(event) else { continue }
                if let eventSeat, !seatReaders.reads(seat: eventSeat, uid: connection.peer.uid, seesEverySeat: connection.seesEverySeat) { continue }
                send(event, to: connection, holder: holder, now: now)
            }
            return
        }
        let type = eventAddress.pointee.type
        let device = eventAddress.pointee.device
        var encoded = false
        let key = coalescingKey(type: type, phase: eventAddress.pointee.phase, device: device)
        for connection in clients.connections {
            guard let monitor = connection.monitor, !connection.closed else { continue }
            if let uid, connection.peer.uid != uid { continue }
            guard monitor.wants(type: type, device: device) else { continue }
            if let eventSeat, !seatReaders.reads(seat: eventSeat, uid: connection.peer.uid, seesEverySeat: connection.seesEverySeat) { continue }
            if !encoded {
                encode(eventAddress)
                encoded = true
            }
            append(to: connection, coalescing: key, now: now)
        }
    }
}

extension PenService: DeviceHubDelegate {
    func deviceHub(_ hub: DeviceHub, emit events: [Event], toUser uid: UInt32?) {
        deliver(events, toUser: uid, now: hub.now)
    }

    func deviceHubMayPlayAtFullSpeed(_ hub: DeviceHub) -> Bool {
        !someMonitorIsBehind
    }

    /// Whose preferences decide a pen's mirror: in user mode the daemon's user's, in system
    /// mode those of the user of the active session on the pen's seat (docs/gestures.md, "The
    /// mirror"); nobody's where the administrator forbade grabbing.
    func deviceHub(_ hub: DeviceHub, decidingUserForSeat seat: String) -> UInt32? {
        guard configuration.allowsGrab else { return nil }
        switch configuration.mode {
        case .user: return ProcessIdentity.userID
        case .system: return seatSessions.activeUser(onSeat: seat)
        }
    }

    func deviceHub(_ hub: DeviceHub, mirrorWishForSeat seat: String) -> MirrorWish? {
        guard let uid = deviceHub(hub, decidingUserForSeat: seat) else { return nil }
        let current = writes.pending(of: uid) ?? preferences.preferences(for: uid)
        return current.withholdGestureClicks ? MirrorWish(uid: uid, preferences: current) : nil
    }

    /// The system service reads every seat's pens; a user's daemon only those of a seat its
    /// user holds, so that nobody reads the next user's handwriting.
    func deviceHub(_ hub: DeviceHub, mayReadSeat seat: String) -> Bool {
        configuration.mode == .system || seatSessions.userHolds(seat: seat, uid: ProcessIdentity.userID)
    }
}
