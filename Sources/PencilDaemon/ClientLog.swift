import PencilSystem

/// Log lines that a client can cause, rate-limited per uid: a flood of connections or bad
/// messages from one user cannot fill the journal. Suppressed lines are counted, and the count
/// is logged when the user's window ends (a deadline the loop delivers) or with their next line.
struct ClientLog {
    let logger: Logger
    /// Lines one uid may cause per window.
    let burst: Int
    /// The window, in microseconds.
    let window: Int64
    /// Users tracked at once; the oldest quiet one makes room for a newcomer.
    let maximumUsers = 1024

    private struct Account {
        var windowStart: HostTime
        var lines = 0
        var suppressed = 0
    }

    private var accounts: [UInt32: Account] = [:]

    init(logger: Logger, burst: Int = 20, window: Int64 = 10_000_000) {
        self.logger = logger
        self.burst = burst
        self.window = window
    }

    mutating func log(_ level: LogLevel, uid: UInt32, now: HostTime, _ message: @autoclosure () -> String) {
        guard level <= logger.level else { return }
        var account = accounts[uid] ?? Account(windowStart: now)
        if now - account.windowStart >= window {
            reportSuppressed(uid: uid, account)
            account = Account(windowStart: now)
        }
        if account.lines < burst {
            account.lines += 1
            logger.log(level, message())
        } else {
            account.suppressed += 1
        }
        if accounts[uid] == nil, accounts.count >= maximumUsers { makeRoom(now: now) }
        accounts[uid] = account
    }

    /// When a window with suppressed lines ends.
    var nextDeadline: HostTime? {
        accounts.values.lazy.filter { $0.suppressed > 0 }.map { $0.windowStart + window }.min()
    }

    /// Logs the counts of windows that have ended, and forgets quiet users.
    mutating func fireDue(now: HostTime) {
        for (uid, account) in accounts where now - account.windowStart >= window {
            reportSuppressed(uid: uid, account)
            accounts[uid] = nil
        }
    }

    private func reportSuppressed(uid: UInt32, _ account: Account) {
        guard account.suppressed > 0 else { return }
        logger.warning("uid \(uid): \(account.suppressed) more log line\(account.suppressed == 1 ? "" : "s") from this user's clients suppressed in \(window / 1_000_000) s")
    }

    private mutating func makeRoom(now: HostTime) {
        fireDue(now: now)
        if accounts.count >= maximumUsers, let oldest = accounts.min(by: { $0.value.windowStart < $1.value.windowStart }) {
            reportSuppressed(uid: oldest.key, oldest.value)
            accounts[oldest.key] = nil
        }
    }
}
