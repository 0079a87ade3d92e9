import PencilSystem

/// Runs command bindings: posix_spawn without a shell, at most `maximumRunning` at once, each
/// reaped when SIGCHLD says a child changed (never waited for).
public final class CommandRunner {
    public let maximumRunning: Int
    /// The running children: pid and what they were started for (for the log).
    public private(set) var running: [(pid: Int32, label: String)] = []
    private let log: (String) -> Void

    public init(maximumRunning: Int = 4, log: @escaping (String) -> Void) {
        self.maximumRunning = maximumRunning
        self.log = log
    }

    /// Starts `words` with `environment`; returns the pid, or nil when it could not start (said
    /// in the log: too many running, or posix_spawn's error).
    @discardableResult
    public func start(_ words: [String], environment: [String], label: String) -> Int32? {
        guard running.count < maximumRunning else {
            log("\(label): not run: \(running.count) commands are still running (at most \(maximumRunning) at once)")
            return nil
        }
        do {
            let pid = try ChildProcess.spawn(words, environment: environment)
            running.append((pid, label))
            return pid
        } catch {
            log("\(label): cannot run \(words.first ?? ""): \(error)")
            return nil
        }
    }

    /// Collects every child that has ended, and says how the unsuccessful ones ended.
    public func reap() {
        running.removeAll { child in
            let ended: ChildProcess.Termination?
            do { ended = try ChildProcess.reap(child.pid) } catch {
                // ECHILD: not ours any more (reaped elsewhere); nothing to wait for.
                return true
            }
            guard let ended else { return false }
            if !ended.succeeded { log("\(child.label): the command \(ended)") }
            return true
        }
    }
}
