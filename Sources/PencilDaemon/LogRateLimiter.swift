import PencilSystem

/// Allows one log line per `interval`: SYN_DROPPED can come in floods, the log should not.
struct LogRateLimiter {
    let interval: Int64
    private var lastLogged: HostTime?
    /// Occurrences since the last line.
    private(set) var suppressed = 0

    init(interval: Int64) { self.interval = interval }

    /// Whether a line may be written at `now`, and how many occurrences were held back since
    /// the last line.
    mutating func shouldLog(at now: HostTime) -> (allowed: Bool, heldBack: Int) {
        if let lastLogged, now - lastLogged < interval {
            suppressed += 1
            return (false, 0)
        }
        let heldBack = suppressed
        suppressed = 0
        lastLogged = now
        return (true, heldBack)
    }
}
