import PencilDevices
import PencilProtocol
import PencilSystem

/// `pencilctl actions test ACTION`: one binding performed once, without the pen, waiting
/// until it is done, so that a person can check a shortcut. It is performed as pencil-actions
/// performs it: the binding for the focused app, a chord through pencild's keyboard first,
/// pencil-actions' own keyboard only where pencild has none (`ActionPerformer`).
public enum PerformOnce {
    public enum Outcome: Equatable, Sendable {
        case unbound
        /// pencild's keyboard pressed the chord.
        case keyPressedByDaemon(KeyChord)
        /// No keyboard presses the chord: pencild refused it, or no keyboard may press it.
        case keyRefused(KeyChord, String)
        /// The chord was sent through pencil-actions' own keyboard, at this node, because
        /// pencild had no keyboard (`daemonProblem`: what it said; nil when it was not asked).
        case keySent(KeyChord, device: String?, daemonProblem: String?)
        case keyboardUnavailable(String)
        case commandEnded(ChildProcess.Termination)
        /// Still running after the wait: left to run.
        case commandRunning(pid: Int32)
        case commandFailed(String)
    }

    /// Performs `action`'s binding for `app` (nil: the sections without an app). A chord goes
    /// to `daemonKeyboard` first (nil: to none); where pencild has no keyboard, through one
    /// made for it (`makeKeyboard`), after `settle` µs so that the desktop has opened the new
    /// device, one frame each `keyInterval` µs; a command is waited for up to `commandWait` µs.
    public static func perform(_ action: PreferredAction, bindings: ActionBindings, app: String? = nil,
                               daemonKeyboard: ((KeyChord) -> DaemonChordOutcome)? = nil,
                               makeKeyboard: (Set<UInt16>) throws(Errno) -> VirtualKeyboard = { keys throws(Errno) in try VirtualKeyboard(keys: keys) },
                               settle: Int64 = 500_000, keyInterval: Int64 = 10_000, commandWait: Int64 = 10_000_000,
                               environment: [String] = ActionPerformer.inheritedEnvironment()) -> Outcome {
        switch ActionDecision.performance(of: action, bindings: bindings, app: app) {
        case .unbound:
            return .unbound
        case .sendChord(let chord):
            // The file refuses these already; the rule holds for both keyboards whatever the source.
            if let refusal = ChordPolicy.refusal(of: chord) {
                return .keyRefused(chord, "no keyboard presses it: \(refusal)")
            }
            var daemonProblem: String?
            if let daemonKeyboard {
                switch daemonKeyboard(chord) {
                case .pressed: return .keyPressedByDaemon(chord)
                case .refused(let why): return .keyRefused(chord, why)
                case .unavailable(let why): daemonProblem = why
                }
            }
            return sendOwn(chord, daemonProblem: daemonProblem, makeKeyboard: makeKeyboard, settle: settle, keyInterval: keyInterval)
        case .runCommand(let words):
            let request = GestureRequest(action: action, event: nil)
            let pid: Int32
            do {
                pid = try ChildProcess.spawn(words, environment: CommandEnvironment.environment(for: request, inherited: environment))
            } catch {
                return .commandFailed("cannot run \(words.first ?? ""): \(error)")
            }
            let end = MonotonicClock.now() + commandWait
            while MonotonicClock.now() < end {
                if let ended = try? ChildProcess.reap(pid) { return .commandEnded(ended) }
                MonotonicClock.sleep(until: MonotonicClock.now() + 10_000)
            }
            return .commandRunning(pid: pid)
        }
    }

    /// The chord through a keyboard of pencil-actions' own, made for it and gone after it.
    private static func sendOwn(_ chord: KeyChord, daemonProblem: String?, makeKeyboard: (Set<UInt16>) throws(Errno) -> VirtualKeyboard,
                                settle: Int64, keyInterval: Int64) -> Outcome {
        let keyboard: VirtualKeyboard
        do {
            keyboard = try makeKeyboard(Set(chord.keys))
        } catch {
            return .keyboardUnavailable([daemonProblem, VirtualKeyboard.explain(error)].compactMap { $0 }.joined(separator: "; "))
        }
        defer { keyboard.close() }
        var deadline = MonotonicClock.now() + settle
        for frame in chord.frames {
            MonotonicClock.sleep(until: deadline)
            do { try keyboard.send(frame) } catch {
                return .keyboardUnavailable("the virtual keyboard failed: \(error)")
            }
            deadline += keyInterval
        }
        // Readers get the last frame before the device goes.
        MonotonicClock.sleep(until: deadline + 100_000)
        return .keySent(chord, device: keyboard.devicePath, daemonProblem: daemonProblem)
    }
}
