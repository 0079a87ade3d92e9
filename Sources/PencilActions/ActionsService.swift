import PencilClient
import PencilProtocol
import PencilSystem
import Varlink
#if canImport(Glibc)
import Glibc
#endif

/// pencil-actions: one epoll loop over signals, the bindings file, the chord timer and the
/// daemon's stream. It sleeps when nothing happens: the chord timer is armed only while a
/// chord plays, the reconnect timer only while the daemon is away.
public final class ActionsService {
    private enum Token: UInt64 { case signals = 1, bindings, chordTimer, daemon, reconnectTimer, focus, focusTimer, sessions, palette, paletteTimer }

    private let options: ActionsOptions
    private let socketPath: String
    private let log: ActionsLog
    private let file: BindingsFile
    private let performer: ActionPerformer
    private let tipTool: DaemonTipTool
    private var subscription: MonitorSubscription?
    /// Pauses between attempts while pencild is away: 1 s, doubling to 30 s.
    private var backoff = ReconnectBackoff(initialMilliseconds: 1_000, maximumMilliseconds: 30_000)
    private var stopping = false
    private var focus: FocusProvider
    /// The focus provider's descriptor and events as epoll has them.
    private var focusDescriptor: FileDescriptor?
    private var focusEvents: Epoll.Events = []
    private let statusPath: String?
    /// The system palette while it is open, until its process is reaped.
    private var palette: PaletteProcess?
    /// The item taken in it, performed once its process has ended (and with it its hold on
    /// the keyboard and pointer).
    private var paletteChoice: PaletteItem?
    /// Why the system palette could not open the last time (for the status file).
    private var paletteProblem: String?
    /// Armed while the pen of an open palette is away.
    private var paletteTimer: TimerFD?
    /// Palettes asked to end that are still to be reaped.
    private var endedPalettes: [Int32] = []

    public init(options: ActionsOptions, socketPath: String) {
        self.options = options
        self.socketPath = socketPath
        log = ActionsLog(verbose: options.verbose)
        file = BindingsFile(path: options.configPath, shippedPath: options.shippedConfigPath)
        let daemonKeyboard = DaemonKeyboard(socketPath: socketPath)
        tipTool = DaemonTipTool(socketPath: socketPath)
        performer = ActionPerformer(keyInterval: options.keyInterval, maximumCommands: options.maximumCommands, log: log,
                                    daemonKeyboard: { chord, device in daemonKeyboard.press(chord, device: device) })
        focus = NoFocusProvider(reason: "not started")
        statusPath = ActionsStatus.defaultPath()
    }

    private func startFocus(epoll: Epoll, timer: TimerFD) {
        let choice = FocusChoice.choose(requested: options.focus, environment: ProcessIdentity.environment)
        focus = FocusProviders.make(choice, kwinScript: options.kwinScript, log: log)
        log.notice("focused app: \(describe(focus))")
        watchFocus(epoll: epoll, timer: timer)
        writeStatus()
    }

    private func describe(_ provider: FocusProvider) -> String {
        switch provider.state {
        case .following(let app): return "\(provider.name) says \(app.map { "\"\($0)\"" } ?? "no app")"
        case .unavailable(let reason): return "unknown (\(reason)): the sections without an app apply"
        }
    }

    /// Keeps epoll's registration in step with the provider's descriptor and the events it
    /// waits for, and the focus timer with its deadline.
    private func watchFocus(epoll: Epoll, timer: TimerFD) {
        let current = focus.descriptor
        let events = focus.awaitedEvents
        do {
            try timer.arm(at: current == nil ? nil : focus.deadline)
            if current?.rawValue == focusDescriptor?.rawValue {
                if let current, events != focusEvents {
                    try epoll.modify(current, events: events, token: Token.focus.rawValue)
                    focusEvents = events
                }
                return
            }
            if let old = focusDescriptor { epoll.remove(old) }
            focusDescriptor = nil
            guard let current else { return }
            try epoll.add(current, events: events, token: Token.focus.rawValue)
            focusDescriptor = current
            focusEvents = events
        } catch {
            if let old = focusDescriptor { epoll.remove(old) }
            focusDescriptor = nil
            try? timer.arm(at: nil as Int64?)
            log.error("cannot wait on the \(focus.name) focus provider (\(error)): the sections without an app apply")
            focus.close()
            focus = NoFocusProvider(reason: "the \(focus.name) provider could not be waited on: \(error)")
        }
    }

    /// Handles what the desktop sent (`handle`: its descriptor was ready or its deadline came),
    /// or sends what is queued for it, and takes note when the focused app, or whether it is
    /// known, changed.
    private func updateFocus(epoll: Epoll, timer: TimerFD, handle: Bool) {
        let before = focus.state
        if handle { focus.handleEvents() } else { focus.flush() }
        if focus.descriptor == nil, case .following = focus.state {
            // A provider that lost its descriptor can no longer follow: never keep its last app.
            focus = NoFocusProvider(reason: "the \(focus.name) provider stopped")
        }
        watchFocus(epoll: epoll, timer: timer)
        guard focus.state != before else { return }
        if case .unavailable = focus.state { log.warning("focused app: \(describe(focus))") } else { log.debug("focused app: \(describe(focus))") }
        writeStatus()
    }

    private func writeStatus() {
        guard let statusPath else { return }
        let status = ActionsStatus(pid: getpid(), config: file.path, provider: focus.name, focus: focus.state, paletteProblem: paletteProblem)
        do { try status.write(to: statusPath) } catch {
            log.warning("cannot write \(statusPath) (\(error)): pencilctl actions cannot show the focused app")
        }
    }

    /// Reads the bindings file; on a mistake the bindings in force stay.
    func reloadBindings(initial: Bool) {
        switch file.load() {
        case .success(let loaded?):
            performer.use(loaded)
            let summary = PreferredAction.allCases.compactMap { action in loaded[action].map { "\(action.rawValue): \($0)" } }
            log.notice("bindings from \(file.loadedPath ?? file.path): \(summary.isEmpty ? "none" : summary.joined(separator: "; "))")
        case .success(nil):
            performer.use(.empty)
            log.notice("no bindings: \(file.path) does not exist\(file.shippedPath.map { ", nor \($0)" } ?? "") (see the example actions.conf)")
        case .failure(let error):
            log.error("\(error)" + (initial ? ": no bindings are in force" : ": the bindings in force stay as they were"))
        }
    }

    public func run() -> Int32 {
        SignalFD.ignoreBrokenPipe()
        let epoll: Epoll
        let signals: SignalFD
        let chordTimer: TimerFD
        let reconnectTimer: TimerFD
        let focusTimer: TimerFD
        do {
            epoll = try Epoll(capacity: 8)
            signals = try SignalFD(signals: [SIGTERM, SIGINT, SIGHUP, SIGCHLD])
            chordTimer = try TimerFD()
            reconnectTimer = try TimerFD()
            focusTimer = try TimerFD()
            let awayTimer = try TimerFD()
            paletteTimer = awayTimer
            try epoll.add(awayTimer.descriptor, events: .readable, token: Token.paletteTimer.rawValue)
            try epoll.add(signals.descriptor, events: .readable, token: Token.signals.rawValue)
            try epoll.add(chordTimer.descriptor, events: .readable, token: Token.chordTimer.rawValue)
            try epoll.add(reconnectTimer.descriptor, events: .readable, token: Token.reconnectTimer.rawValue)
            try epoll.add(focusTimer.descriptor, events: .readable, token: Token.focusTimer.rawValue)
        } catch {
            log.error("cannot set up the event loop: \(error)")
            return 1
        }
        do {
            try epoll.add(try file.watch(), events: .readable, token: Token.bindings.rawValue)
        } catch {
            log.warning("cannot watch \(FileSystem.directoryName(of: file.path)) (\(error)): changes to \(file.path) are read at the next restart or SIGHUP only")
        }
        let sessions = SessionActivity()
        if let descriptor = sessions.descriptor {
            do { try epoll.add(descriptor, events: .readable, token: Token.sessions.rawValue) } catch {
                log.warning("cannot follow logind's sessions (\(error)): a session switch is noticed at the next gesture only")
            }
        }
        performer.sessionChanged(active: SessionActivity.isActive())
        reloadBindings(initial: true)
        startFocus(epoll: epoll, timer: focusTimer)
        connect(epoll: epoll, reconnectTimer: reconnectTimer)

        while !stopping {
            do {
                try epoll.wait(timeoutMilliseconds: -1) { token, _ in
                    switch Token(rawValue: token) {
                    case .signals:
                        while let signal = signals.nextSignal() {
                            switch signal {
                            case SIGCHLD:
                                performer.commands.reap()
                                reapPalettes()
                            case SIGHUP: reloadBindings(initial: false)
                            default:
                                log.notice("signal \(signal): letting go of every key and stopping")
                                stopping = true
                            }
                        }
                    case .bindings:
                        if file.takeChanges() { reloadBindings(initial: false) }
                    case .chordTimer:
                        chordTimer.acknowledge()
                    case .daemon:
                        readDaemon(epoll: epoll, reconnectTimer: reconnectTimer)
                    case .reconnectTimer:
                        reconnectTimer.acknowledge()
                        connect(epoll: epoll, reconnectTimer: reconnectTimer)
                    case .focus:
                        updateFocus(epoll: epoll, timer: focusTimer, handle: true)
                    case .focusTimer:
                        focusTimer.acknowledge()
                        updateFocus(epoll: epoll, timer: focusTimer, handle: true)
                    case .sessions:
                        sessions.acknowledge()
                        performer.sessionChanged(active: SessionActivity.isActive())
                    case .palette:
                        readPalette(epoll: epoll)
                    case .paletteTimer:
                        paletteTimer?.acknowledge()
                        paletteDeadline()
                    case nil:
                        break
                    }
                }
                try chordTimer.arm(at: performer.playDue(now: MonotonicClock.now()))
                updateFocus(epoll: epoll, timer: focusTimer, handle: false)
            } catch {
                log.error("the event loop failed: \(error)")
                break
            }
        }
        if let open = palette, let pid = open.end() { endedPalettes.append(pid) }
        performer.close()
        subscription?.close()
        focus.close()
        if let statusPath { try? FileSystem.remove(statusPath) }
        return 0
    }

    private func connect(epoll: Epoll, reconnectTimer: TimerFD) {
        do {
            let new = try MonitorSubscription(path: socketPath, devices: nil, events: (ActionDecision.subscribedEvents + ActionDecision.paletteEvents).map(\.rawValue))
            try epoll.add(new.descriptor, events: .readable, token: Token.daemon.rawValue)
            subscription = new
            backoff.reset()
            log.notice("subscribed to doubleTap and squeeze at \(socketPath), and to the pen's proximity for the system palette")
        } catch {
            scheduleReconnect(reconnectTimer, because: "\(error)")
        }
    }

    private func readDaemon(epoll: Epoll, reconnectTimer: TimerFD) {
        guard let current = subscription else { return }
        let open: Bool
        do {
            // At most `chunksPerTurn` reads, then back to the loop: a daemon (or an impostor on
            // the socket) that floods never keeps signals and the chord timer waiting. The
            // descriptor stays readable, so the next turn reads on.
            open = try current.readAvailable(chunkLimit: Self.chunksPerTurn) { json throws(VarlinkClientError) in
                let event: PencilEvent
                do { event = try PencilEvent(json: json) } catch { throw .protocolViolation("\(error)") }
                if ActionDecision.paletteEvents.contains(event.type) {
                    notePen(event)
                    return
                }
                guard let request = ActionDecision.request(for: event) else {
                    if let focus = event.focus, focus != .nobody, event.action != nil {
                        log.debug("\(event.type.rawValue) \(event.action?.rawValue ?? ""): focus is \(focus.rawValue): that app acts, not pencil-actions")
                    }
                    return
                }
                // The session as logind has it now: its monitor may not have been read yet.
                performer.sessionChanged(active: SessionActivity.isActive())
                // The focused app once per gesture, as the desktop last reported it.
                let app = focus.state.app
                if PalettePlan.opens(request, bindings: performer.bindings, app: app) {
                    openPalette(request, app: app, epoll: epoll)
                } else {
                    performer.perform(request, app: app, now: MonotonicClock.now())
                }
            } != .ended
        } catch {
            epoll.remove(current.descriptor)
            current.close()
            subscription = nil
            scheduleReconnect(reconnectTimer, because: "\(error)")
            return
        }
        if !open {
            epoll.remove(current.descriptor)
            current.close()
            subscription = nil
            scheduleReconnect(reconnectTimer, because: "pencild closed the stream")
        }
    }

    /// Opens the system palette for `request` (docs/gestures.md, "Which app acts: the system
    /// palette"), or closes the one open: the same gesture again (cases 7 and 8).
    private func openPalette(_ request: GestureRequest, app: String?, epoll: Epoll) {
        let label = request.label
        if let open = palette {
            log.info("\(label): the system palette is open: closing it")
            open.close(because: "again")
            return
        }
        guard performer.sessionActive else {
            log.info("\(label): not performed: this session is not the seat's active one")
            return
        }
        // Pen and Eraser only where the pen has a mirror to switch (Device.tipReportedAs).
        let tip = tipTool.tipReportedAs(device: request.event?.device)
        let plan = PalettePlan(for: request, bindings: performer.bindings, app: app, tipReportedAs: tip)
        do {
            let opened = try PaletteProcess(program: options.paletteProgram, plan: plan, device: request.event?.device, label: label,
                                            environment: ActionPerformer.inheritedEnvironment(), now: MonotonicClock.now(),
                                            showMicroseconds: options.paletteWait)
            do { try epoll.add(opened.output, events: .readable, token: Token.palette.rawValue) } catch {
                if let pid = opened.end() { endedPalettes.append(pid) }
                paletteCannotOpen("cannot wait on it: \(error)", label: label)
                return
            }
            palette = opened
            paletteChoice = nil
            armPaletteTimer()
            log.debug("\(label): the system palette, pid \(opened.pid), \(plan.items.count) items (app \(app.map { "\"\($0)\"" } ?? "unknown"))")
        } catch {
            paletteCannotOpen("\(options.paletteProgram): \(error)", label: label)
        }
    }

    /// The pen of the open palette comes or goes: away for `awayMicroseconds`, it closes.
    private func notePen(_ event: PencilEvent) {
        log.debug("\(event.type.rawValue) of \(event.device ?? "a pen")")
        guard let open = palette, event.device == open.device || open.device == nil else { return }
        open.awaySince = event.type == .proximityOut ? MonotonicClock.now() : nil
        armPaletteTimer()
    }

    private func armPaletteTimer() {
        try? paletteTimer?.arm(at: palette?.deadline)
    }

    /// The open palette's deadline came: it never showed, or its pen has been away.
    private func paletteDeadline() {
        defer { armPaletteTimer() }
        guard let open = palette, let due = open.deadline, MonotonicClock.now() >= due else { return }
        if !open.shown, MonotonicClock.now() >= open.requestedAt + open.showMicroseconds {
            paletteCannotOpen("it was not on screen \(open.showMicroseconds / 1_000_000) s after the gesture: it was ended", label: open.label)
            if let pid = open.end() { endedPalettes.append(pid) }
            palette = nil
            paletteChoice = nil
            return
        }
        open.awaySince = nil
        log.info("\(open.label): the pen has been away for \(PaletteProcess.awayMicroseconds / 1_000_000) s: closing the system palette")
        open.close(because: "away")
    }

    /// Says why the palette did not open, in the log and in the status (`pencilctl actions`).
    private func paletteCannotOpen(_ why: String, label: String) {
        log.error("\(label): the system palette cannot open: \(why)")
        paletteProblem = why
        writeStatus()
    }

    /// What the palette wrote: where it is, or what the person took.
    private func readPalette(epoll: Epoll) {
        guard let open = palette else { return }
        let (replies, stillOpen) = open.readReplies()
        for reply in replies {
            switch reply {
            case .shown(let x, let y, let width, let height, let route, let places)?:
                let milliseconds = Double(MonotonicClock.now() - open.requestedAt) / 1_000
                armPaletteTimer()
                if paletteProblem != nil {
                    paletteProblem = nil
                    writeStatus()
                }
                log.notice("\(open.label): the system palette is on screen at \(x),\(y), \(width)x\(height) (\(route)), \(Int(milliseconds)) ms after the gesture")
                for place in places {
                    guard let item = open.plan.item(id: place.id) else { continue }
                    log.debug("\(open.label): the system palette's \(item.label) is at \(place.x),\(place.y), \(place.width)x\(place.height)")
                }
            case .chosen(let id)?:
                guard let item = open.plan.item(id: id) else {
                    log.warning("\(open.label): the palette chose \"\(id)\", which it was not given: nothing is performed")
                    continue
                }
                paletteChoice = item
            case .closed(let reason)?:
                log.info("\(open.label): the system palette closed (\(reason)): nothing is performed")
            case .error(let reason)?:
                paletteCannotOpen(reason, label: open.label)
            case nil:
                log.warning("\(open.label): the system palette wrote a line that is not a reply: it is ignored")
            }
        }
        if !stillOpen {
            epoll.remove(open.output)
            reapPalettes()
        }
    }

    /// Reaps the palettes that ended; once the open one has, performs what was taken in it.
    private func reapPalettes() {
        endedPalettes.removeAll { pid in
            // Reaped now, or no longer a child of ours (ECHILD): either way, done with.
            if case .success(nil) = Result(catching: { () throws(Errno) in try ChildProcess.reap(pid) }) { return false }
            return true
        }
        guard let open = palette else { return }
        let ended: ChildProcess.Termination?
        do { ended = try ChildProcess.reap(open.pid) } catch { ended = .exited(0) }
        guard let ended else { return }
        _ = open.end()
        palette = nil
        try? paletteTimer?.arm(at: nil as Int64?)
        let choice = paletteChoice
        paletteChoice = nil
        // One that answered (an error, closed) has said so already.
        if !ended.succeeded, !open.answered { log.warning("\(open.label): the system palette \(ended) without a reply") }
        guard let item = choice else { return }
        switch item.choice {
        case .chord(let chord):
            performer.press(chord, device: open.device, label: "\(open.label) \(item.label)", source: " (the system palette)", now: MonotonicClock.now())
        case .tool(let tool):
            switch tipTool.set(tool, device: open.device) {
            case .success(let reported): log.debug("\(open.label) \(item.label): the tip is reported as the \(reported) (the system palette)")
            case .failure(let refusal): log.warning("\(open.label) \(item.label): the tip is not switched: \(refusal)")
            }
        }
    }

    /// Reads of 64 KiB from the daemon in one turn of the loop, as `PencilEvents` does.
    static let chunksPerTurn = 16

    /// Tries again after 1 s, doubling to at most 30 s while pencild stays away.
    private func scheduleReconnect(_ timer: TimerFD, because reason: String) {
        let pause = backoff.next()
        log.warning("pencild at \(socketPath): \(reason); trying again in \(pause / 1_000) s")
        try? timer.arm(at: MonotonicClock.now() + Int64(pause) * 1_000)
    }
}

extension ActionsService {
    /// `pencil-actions ARGUMENTS`: the exit status.
    public static func main(arguments: [String]) -> Int32 {
        switch ActionsOptions.parse(arguments, defaultConfigPath: BindingsFile.defaultPath(), shippedConfigPath: BindingsFile.defaultShippedPath()) {
        case .failure(let error):
            try? FileDescriptor(rawValue: 2).writeAll(Array("pencil-actions: \(error)\nusage: \(ActionsOptions.parser.usage)\n".utf8))
            return 64
        case .success(.help):
            try? FileDescriptor(rawValue: 1).writeAll(Array(ActionsOptions.usage.utf8))
            return 0
        case .success(.run(let options)):
            let service = ActionsService(options: options, socketPath: options.socketPath ?? DaemonSocket.path())
            return service.run()
        }
    }
}
