import CSystemd
import PencilSystem

/// RealtimeKit (rtkit-daemon, on the system bus): how a process without RLIMIT_RTPRIO, a
/// user's pencild, gets a thread of its raised to SCHED_RR. It grants what polkit allows
/// (`org.freedesktop.RealtimeKit1.acquire-real-time`: by default, to a user with an active
/// local session) and only to a process whose RLIMIT_RTTIME it accepts (at most its
/// RTTimeUSecMax, 200 ms unless configured), so that a runaway thread is ended by the kernel.
enum RealtimeKit {
    /// RealtimeKit's default RTTimeUSecMax: the longest RLIMIT_RTTIME it accepts.
    static let realtimeTimeLimit: Int64 = 200_000
    /// How long to wait for its answer: it is D-Bus activated, which may take a moment at boot.
    static let answerTimeout: UInt64 = 10_000_000

    struct Refusal: Error, CustomStringConvertible {
        var errno: Errno
        /// The bus's error, when it gave one (polkit's refusal, RealtimeKit not installed).
        var busError: String

        var description: String { busError.isEmpty ? "\(errno)" : busError }
    }

    /// Asks that the calling thread run at SCHED_RR `priority`. Lowers RLIMIT_RTTIME to
    /// RealtimeKit's limit first when it is higher (or unlimited), as RealtimeKit requires.
    static func raiseCallingThread(priority: Int32) throws(Refusal) {
        if ThreadScheduling.realtimeTimeLimit.map({ $0 > realtimeTimeLimit }) ?? true {
            do {
                try ThreadScheduling.limitRealtimeTime(toMicroseconds: realtimeTimeLimit)
            } catch {
                throw Refusal(errno: error, busError: "cannot lower RLIMIT_RTTIME to \(realtimeTimeLimit / 1000) ms, which RealtimeKit requires: \(error)")
            }
        }
        var why = [CChar](repeating: 0, count: 512)
        let result = pencild_realtimekit_make_thread_realtime(ThreadScheduling.currentThreadID, UInt32(priority), answerTimeout, &why, why.count)
        guard result < 0 else { return }
        let text = why.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        throw Refusal(errno: Errno(rawValue: -result), busError: text)
    }
}
