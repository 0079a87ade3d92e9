#if canImport(Glibc)
import CLinux
import Glibc
#endif

/// A thread of the process's own (pthread), started with a body and joined by its owner.
/// Threads started after a `SignalFD` inherit its blocked signals, so signals keep going to
/// the descriptor.
public final class SystemThread: @unchecked Sendable {
    private var handle: pthread_t

    /// Starts `body` on a new thread named `name` (at most 15 bytes: what `ps -L` and `top -H` show).
    public init(name: String, _ body: @escaping @Sendable () -> Void) throws(Errno) {
        let context = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            _ = pthread_setname_np(pthread_self(), String(body.name.utf8.prefix(15))!)
            body.run()
            return nil
        }, context)
        if result != 0 {
            Unmanaged<Body>.fromOpaque(context).release()
            throw Errno(rawValue: result)
        }
        handle = thread
    }

    /// Waits for the body to return.
    public func join() {
        _ = pthread_join(handle, nil)
    }

    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}

/// A mutex whose holder runs at the priority of its most urgent waiter (PTHREAD_PRIO_INHERIT):
/// while a thread of raised priority waits, an ordinary one that holds the lock is not left
/// behind busy cores. At unlock the kernel hands the lock straight to that waiter, so a holder
/// that unlocks and locks again lets it in.
public final class PriorityInheritanceLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_setprotocol(&attributes, Int32(PTHREAD_PRIO_INHERIT))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }

    @inline(__always)
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// How the calling thread is scheduled.
public enum ThreadScheduling: Equatable, Sendable, CustomStringConvertible {
    /// SCHED_RR or SCHED_FIFO at this priority (1 to 99): ahead of every ordinary thread, as
    /// compositors read their input.
    case realtime(policy: Int32, priority: Int32)
    /// SCHED_OTHER (or another policy that is not realtime) at this nice value.
    case ordinary(nice: Int32)

    public var description: String {
        switch self {
        case .realtime(let policy, let priority): return "\(policy == SCHED_FIFO ? "SCHED_FIFO" : "SCHED_RR") priority \(priority)"
        case .ordinary(let nice): return "SCHED_OTHER nice \(nice)"
        }
    }

    /// The calling thread's.
    public static var current: ThreadScheduling {
        let policy = sched_getscheduler(0) & ~Int32(SCHED_RESET_ON_FORK)
        if policy == SCHED_RR || policy == SCHED_FIFO {
            var parameters = sched_param()
            _ = sched_getparam(0, &parameters)
            return .realtime(policy: policy, priority: parameters.sched_priority)
        }
        return .ordinary(nice: getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pencild_gettid())))
    }

    /// Moves the calling thread alone to SCHED_RR at `priority`; a child it forks starts
    /// ordinary again. EPERM without CAP_SYS_NICE or an RLIMIT_RTPRIO that allows it
    /// (`LimitRTPRIO=` in a unit), or where seccomp forbids it (`RestrictRealtime=`).
    public static func raiseToRoundRobin(priority: Int32) throws(Errno) {
        var parameters = sched_param()
        parameters.sched_priority = priority
        _ = try retryingOnInterrupt { sched_setscheduler(0, Int32(SCHED_RR) | Int32(SCHED_RESET_ON_FORK), &parameters) }
    }

    /// Moves the calling thread back to SCHED_OTHER at nice 0, which needs no privilege.
    public static func lowerToOrdinary() throws(Errno) {
        var parameters = sched_param()
        parameters.sched_priority = 0
        _ = try retryingOnInterrupt { sched_setscheduler(0, Int32(SCHED_OTHER) | Int32(SCHED_RESET_ON_FORK), &parameters) }
    }

    /// The highest SCHED_RR priority RLIMIT_RTPRIO lets this process take without privilege.
    public static var realtimePriorityLimit: Int32 {
        Int32(clamping: pencild_realtime_priority_limit())
    }

    /// RLIMIT_RTTIME's hard limit in microseconds (`LimitRTTIME=`), nil for none: how long a
    /// realtime thread may run without sleeping before the kernel ends the process.
    public static var realtimeTimeLimit: Int64? {
        let limit = pencild_realtime_time_limit()
        return limit < 0 ? nil : Int64(limit)
    }

    /// Lowers RLIMIT_RTTIME, soft and hard, to `microseconds`.
    public static func limitRealtimeTime(toMicroseconds microseconds: Int64) throws(Errno) {
        _ = try retryingOnInterrupt { pencild_set_realtime_time_limit(UInt64(microseconds)) }
    }

    /// The calling thread's id (gettid), as RealtimeKit names a thread.
    public static var currentThreadID: UInt64 { UInt64(pencild_gettid()) }
}
