import PencilDevices
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// The bindings in force, the virtual keyboard they need, the chord being played and the
/// commands running: everything that performs an action, for pencil-actions and for
/// `pencilctl actions test`.
public final class ActionPerformer {
    public private(set) var bindings = ActionBindings.empty
    public private(set) var keyboard: VirtualKeyboard?
    /// Why there is no keyboard although bindings need one.
    public private(set) var keyboardProblem: String?
    public private(set) var player: ChordPlayer
    public let commands: CommandRunner
    private let log: ActionsLog
    /// The keys the bindings need, when the keyboard could not yet be remade for them (a chord
    /// was playing).
    private var pendingKeys: Set<UInt16>?
    /// Called with the keyboard's problem when it changes (pencil-actions says it once).
    private let makeKeyboard: (Set<UInt16>) throws(Errno) -> VirtualKeyboard
    /// pencild's keyboard, asked first for every chord; nil: only the own keyboard.
    private let daemonKeyboard: ((KeyChord, String?) -> DaemonChordOutcome)?
    /// Whether pencil-actions' session is the seat's active one: while it is not, nothing is
    /// performed and the own keyboard is closed.
    public private(set) var sessionActive = true

    public init(keyInterval: Int64, maximumCommands: Int, log: ActionsLog,
                daemonKeyboard: ((KeyChord, String?) -> DaemonChordOutcome)? = nil,
                makeKeyboard: @escaping (Set<UInt16>) throws(Errno) -> VirtualKeyboard = { keys throws(Errno) in try VirtualKeyboard(keys: keys) }) {
        player = ChordPlayer(interval: keyInterval)
        self.log = log
        self.daemonKeyboard = daemonKeyboard
        self.makeKeyboard = makeKeyboard
        commands = CommandRunner(maximumRunning: maximumCommands) { log.warning($0) }
    }

    /// The session became active or stopped being so. Leaving lets go of every key and closes
    /// the own keyboard, so that nothing of this user's types into the next user's session.
    public func sessionChanged(active: Bool) {
        guard active != sessionActive else { return }
        sessionActive = active
        if active {
            log.notice("this session is the active one again: gestures are performed")
            if player.isIdle { remakeKeyboard() }
        } else {
            log.notice("this session is no longer the active one: no gesture is performed until it is, every key is let go")
            releaseAll()
            keyboard?.close()
            keyboard = nil
            // The bindings' keys, not the closed keyboard's: a change may have been waiting
            // for the chord to end.
            pendingKeys = bindings.keys.isEmpty ? nil : bindings.keys
        }
    }

    /// Puts `new` in force; the keyboard is remade when the keys differ (once no chord plays).
    public func use(_ new: ActionBindings) {
        bindings = new
        let keys = new.keys
        if let keyboard, keyboard.keys == keys {
            pendingKeys = nil
            return
        }
        if keyboard == nil, keys.isEmpty {
            // No key bound: no keyboard is needed, and none missing is a problem.
            pendingKeys = nil
            keyboardProblem = nil
            return
        }
        pendingKeys = keys
        if player.isIdle { remakeKeyboard() }
    }

    private func remakeKeyboard() {
        guard sessionActive, let keys = pendingKeys else { return }
        pendingKeys = nil
        keyboard?.close()
        keyboard = nil
        guard !keys.isEmpty else {
            keyboardProblem = nil
            return
        }
        do {
            keyboard = try makeKeyboard(keys)
            if keyboardProblem != nil { log.notice("the virtual keyboard works again: key bindings are on") }
            keyboardProblem = nil
            log.info("virtual keyboard \"\(VirtualKeyboard.name)\" at \(keyboard?.devicePath ?? "an unknown node") sends \(keys.sorted().map(KeyNames.name(of:)).joined(separator: ", "))")
        } catch {
            let problem = VirtualKeyboard.explain(error, daemonFirst: daemonKeyboard != nil)
            if problem != keyboardProblem {
                // With pencild's keyboard first, an own keyboard is the exception.
                if daemonKeyboard != nil { log.info(problem) } else { log.error(problem) }
            }
            keyboardProblem = problem
        }
    }

    /// Performs `request`'s binding for the focused app `app` (nil: unknown, the fallback):
    /// starts its chord (played by `playDue`) or its command.
    public func perform(_ request: GestureRequest, app: String? = nil, now: Int64) {
        let label = request.label
        let resolved = bindings.resolve(request.action, app: app)
        let source = " (app \(app.map { "\"\($0)\"" } ?? "unknown"): \(resolved.section(of: request.action)))"
        guard sessionActive else {
            log.info("\(label): not performed: this session is not the seat's active one")
            return
        }
        switch ActionDecision.performance(of: request.action, bindings: bindings, app: app) {
        case .unbound:
            log.debug("\(label): not bound: nothing to do\(source)")
        case .sendChord(let chord):
            press(chord, device: request.event?.device, label: label, source: source, now: now)
        case .runCommand(let words):
            let environment = CommandEnvironment.environment(for: request, inherited: Self.inheritedEnvironment())
            if let pid = commands.start(words, environment: environment, label: label) {
                log.debug("\(label): command \(CommandWords.quoted(words)) is pid \(pid)\(source)")
            }
        }
    }

    /// Presses `chord` for the app in front: on pencild's keyboard, else on the own one.
    /// `label` and `source` say in the log what it is for.
    public func press(_ chord: KeyChord, device: String?, label: String, source: String, now: Int64) {
        guard sessionActive else {
            log.info("\(label): not performed: this session is not the seat's active one")
            return
        }
        // The file refuses these already; bindings made in code meet the same rule here,
        // for both keyboards.
        if let refusal = ChordPolicy.refusal(of: chord) {
            log.warning("\(label): key \(chord) not sent: no keyboard presses it: \(refusal)")
            return
        }
        var daemonProblem: String?
        if let daemonKeyboard {
            switch daemonKeyboard(chord, device) {
            case .pressed:
                log.debug("\(label): key \(chord) on pencild's keyboard\(source)")
                return
            case .refused(let why):
                log.warning("\(label): key \(chord) not sent: \(why)")
                return
            case .unavailable(let why):
                daemonProblem = why
            }
        }
        guard keyboard != nil else {
            let problems = [daemonProblem, keyboardProblem ?? (daemonProblem == nil ? "no virtual keyboard" : nil)].compactMap { $0 }
            log.warning("\(label): key \(chord) not sent: \(problems.joined(separator: "; "))")
            return
        }
        if player.enqueue(chord, now: now) {
            log.debug("\(label): key \(chord)\(source)")
            playDue(now: now)
        } else {
            log.warning("\(label): key \(chord) dropped: \(player.maximumQueued) chords are already waiting")
        }
    }

    /// Sends every frame due at `now`; returns when the next one is due (nil: none).
    @discardableResult
    public func playDue(now: Int64) -> Int64? {
        while let frame = player.next(now: now) {
            send(frame)
        }
        if player.isIdle { remakeKeyboard() }
        return player.nextDeadline
    }

    /// Lets go of every key held and stops playing (a signal, the end).
    public func releaseAll() {
        for frame in player.releaseAll() { send(frame) }
    }

    private func send(_ frame: KeyFrame) {
        do {
            try keyboard?.send(frame)
        } catch {
            log.error("the virtual keyboard failed (\(error)) sending \(KeyNames.name(of: frame.code)) \(frame.down ? "down" : "up")")
        }
    }

    /// Lets go of every held key and destroys the keyboard. When keys were let go, the device
    /// stays `linger` µs more, so that readers take the release before the device goes (a
    /// reader that finds the device gone first loses what it had not read).
    public func close(linger: Int64 = 100_000) {
        let released = !player.held.isEmpty
        releaseAll()
        if released, keyboard != nil { MonotonicClock.sleep(until: MonotonicClock.now() + linger) }
        keyboard?.close()
        keyboard = nil
    }

    /// The process's environment as "NAME=value" strings.
    public static func inheritedEnvironment() -> [String] {
        var result: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            result.append(String(cString: entry))
            pointer += 1
        }
        return result
    }
}
