import PencilDevices
import PencilProtocol
import PencilSystem

/// `pencilctl actions test ACTION`: one binding performed once, without the pen, waiting
/// until it is done, so that a person can check a shortcut.
public enum PerformOnce {
    public enum Outcome: Equatable, Sendable {
        case unbound
        /// The chord was sent, through the keyboard at this node.
        case keySent(KeyChord, device: String?)
        case keyboardUnavailable(String)
        case commandEnded(ChildProcess.Termination)
        /// Still running after the wait: left to run.
        case commandRunning(pid: Int32)
        case commandFailed(String)
    }

    /// Performs `action`'s binding. A chord goes through a keyboard made for it, after
    /// `settle` µs so that the desktop has opened the new device, one frame each
    /// `keyInterval` µs; a command is waited for up to `commandWait` µs.
    public static func perform(_ action: PreferredAction, bindings: ActionBindings, app: String? = nil, settle: Int64 = 500_000,
                               keyInterval: Int64 = 10_000, commandWait: Int64 = 10_000_000,
                               environment: [String] = ActionPerformer.inheritedEnvironment()) -> Outcome {
        switch ActionDecision.performance(of: action, bindings: bindings, app: app) {
        case .unbound:
            return .unbound
        case .sendChord(let chord):
            let keyboard: VirtualKeyboard
            do {
                keyboard = try VirtualKeyboard(keys: Set(chord.keys))
            } catch {
                return .keyboardUnavailable(VirtualKeyboard.explain(error))
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
            return .keySent(chord, device: keyboard.devicePath)
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
}
