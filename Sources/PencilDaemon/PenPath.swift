import PencilSystem

/// The pen's path, on a thread of its own: the devices' descriptors, udev's monitor and the
/// devices' deadlines (a click released late, a forced proximity-out, a replay's next frame).
/// A frame goes from the kernel through the pure pipeline to the mirror here, so that no
/// client's work, no flood of connections and no slow disk on the daemon's main loop can hold
/// it up; the thread asks for SCHED_RR, as compositors read their input, so that busy cores do
/// not either: of the kernel where the unit allows it (the system service), else of
/// RealtimeKit (a user's pencild in an active session).
///
/// Both threads share the service under one lock that inherits priority
/// (`PriorityInheritanceLock`): each holds it while it works and lets go while it sleeps, and
/// the main loop lets go between any two pieces of its work, so a pen's frame waits at most
/// for one of them. The main loop's slow system calls run with the lock let go: an accept's
/// (the flood) and a preference file's writing and fsyncs (the disk). Still under it, and so
/// still able to hold a frame: what a seat's change of hands does (udev's enumeration) and
/// the making of a mirror, once a device or a user. What a frame gives the clients is written
/// to their connections here, and the main loop is woken to send it.
final class PenPath: @unchecked Sendable {
    /// SCHED_RR's lowest priority: ahead of every ordinary thread and behind every other
    /// realtime one (audio servers take more); KWin asks the same for its input.
    static let realtimePriority: Int32 = 1

    private let hub: DeviceHub
    private let lock: PriorityInheritanceLock
    private let logger: Logger
    private let epoll: Epoll
    /// Armed at the devices' earliest deadline, by this thread or by the main loop (under the lock).
    private let timer: TimerFD
    /// Signalled by the main loop to stop this thread.
    private let wake: EventFD
    /// Set under the lock; the thread ends at its next wake-up.
    private var stopping = false
    /// Set under the lock when the thread ended on an error: the daemon then ends too, as it
    /// would if its own loop failed.
    private(set) var failed = false
    /// Called under the lock once a wake-up's work is done: the main loop's chance to be woken.
    var didWork: () -> Void = {}
    private var thread: SystemThread?
    private var ready: [UInt64] = []
    /// Who gave the thread SCHED_RR, if anyone: it leaves it for the while udev's news is
    /// handled, and asks the same again afterwards.
    private var realtimeGrantor: RealtimeGrantor?
    /// RealtimeKit is asked again when a pen's frame next comes, not after each of udev's
    /// events: a dock's burst of devices would spend its rate limit (25 grants in 20 s).
    private var realtimeKitAskPending = false

    private enum RealtimeGrantor {
        /// sched_setscheduler, within RLIMIT_RTPRIO (the system unit's `LimitRTPRIO=1`).
        case kernel
        /// RealtimeKit, for a process with no RLIMIT_RTPRIO (a user's pencild).
        case realtimeKit
    }

    private enum Token {
        static let timer = UInt64.max
        static let wake = UInt64.max - 1
    }

    /// Whether the thread asks for SCHED_RR: not while replaying. A replay is nobody's pen (it
    /// has no mirror), and at full speed it keeps the thread from sleeping: at a realtime
    /// priority that would hold a core from every ordinary process (its clients among them)
    /// and meet the realtime time limit.
    private let raisesPriority: Bool

    init(hub: DeviceHub, lock: PriorityInheritanceLock, logger: Logger, raisesPriority: Bool) throws(Errno) {
        self.hub = hub
        self.raisesPriority = raisesPriority
        self.lock = lock
        self.logger = logger
        epoll = try Epoll()
        timer = try TimerFD()
        wake = try EventFD()
        try epoll.add(timer.descriptor, events: .readable, token: Token.timer)
        try epoll.add(wake.descriptor, events: .readable, token: Token.wake)
    }

    // MARK: Any thread, under the lock

    func watch(_ descriptor: FileDescriptor, deviceToken: UInt64) throws(Errno) {
        try epoll.add(descriptor, events: .readable, token: deviceToken)
    }

    func stopWatching(_ descriptor: FileDescriptor) {
        epoll.remove(descriptor)
    }

    /// Arms the thread's timer when the devices have a deadline sooner than it: the main loop
    /// calls this after its work, which may have started a gesture's demonstration or let a
    /// paused replay go on.
    func deadlinesMayHaveChanged() {
        let deadline = hub.nextDeadline()?.microseconds
        guard Daemon.timerNeedsArming(armed: timer.armedDeadline, earliest: deadline) else { return }
        arm(at: deadline)
    }

    private func arm(at deadline: Int64?) {
        do { try timer.arm(at: deadline) } catch { logger.error("cannot arm the pen's timer: \(error)") }
    }

    // MARK: The main loop

    /// Starts the thread; the caller holds the lock, and the thread begins once it lets go.
    func start() throws(Errno) {
        thread = try SystemThread(name: "pencild-pen") { [self] in run() }
    }

    /// Ends the thread and waits for it. The caller must not hold the lock.
    func stop() {
        lock.withLock { stopping = true }
        wake.signal()
        thread?.join()
        thread = nil
    }

    // MARK: The pen's thread

    private func run() {
        let scheduling = raisePriority()
        lock.lock()
        logger.notice("the pen's path runs on a thread of its own at \(scheduling)")
        while !stopping {
            // The deadlines due, then what this wake-up and the last one did goes to the main loop.
            let now = HostTime.now()
            hub.fireDue(now: now)
            didWork()
            let deadline = hub.nextDeadline()
            // Work due already (a replay's next batch): look at the descriptors, then go on.
            let due = deadline.map { $0 <= HostTime.now() } ?? false
            if !due, Daemon.timerNeedsArming(armed: timer.armedDeadline, earliest: deadline?.microseconds) {
                arm(at: deadline?.microseconds)
            }
            lock.unlock()
            do {
                try epoll.wait(timeoutMilliseconds: due ? 0 : -1) { token, _ in ready.append(token) }
            } catch {
                lock.lock()
                logger.error("the pen's epoll_wait failed: \(error)")
                failed = true
                didWork()
                break
            }
            // Only this thread reads or sets these two: asked without the lock (a bus round trip).
            var refusedAgain = false
            if realtimeKitAskPending, ready.contains(where: Self.isDeviceToken) {
                realtimeKitAskPending = false
                refusedAgain = (try? RealtimeKit.raiseCallingThread(priority: Self.realtimePriority)) == nil
            }
            lock.lock()
            if refusedAgain {
                realtimeGrantor = nil
                logger.warning("the pen's path runs at \(ThreadScheduling.current) from now on: RealtimeKit refused SCHED_RR again after udev's news")
            }
            for token in ready {
                switch token {
                case Token.timer: timer.acknowledge()
                case Token.wake: wake.acknowledge()
                case DeviceHub.udevToken: handleHotplug()
                default: hub.handleReadable(token: token, now: HostTime.now())
                }
            }
            ready.removeAll(keepingCapacity: true)
        }
        lock.unlock()
    }

    /// A pen plugged in or out: opening it, libwacom's database the first time, its mirror. Work
    /// done once a device, which may take long on a slow machine: at the ordinary priority, so
    /// that it neither holds busy cores back nor meets the realtime time limit (`LimitRTTIME=`),
    /// which is there for frames. The kernel's SCHED_RR is taken again at once; RealtimeKit's
    /// when a pen's frame next comes (`realtimeKitAskPending`).
    private func handleHotplug() {
        let grantor = realtimeKitAskPending ? nil : realtimeGrantor
        if grantor != nil { try? ThreadScheduling.lowerToOrdinary() }
        hub.handleReadable(token: DeviceHub.udevToken, now: HostTime.now())
        switch grantor {
        case .kernel:
            if (try? ThreadScheduling.raiseToRoundRobin(priority: Self.realtimePriority)) == nil { realtimeGrantor = nil }
        case .realtimeKit:
            realtimeKitAskPending = true
        case nil:
            break
        }
    }

    private static func isDeviceToken(_ token: UInt64) -> Bool {
        token != Token.timer && token != Token.wake && token != DeviceHub.udevToken
    }

    /// SCHED_RR where the process may have it (RLIMIT_RTPRIO), else from RealtimeKit; else the
    /// thread stays as it was, and says why.
    private func raisePriority() -> String {
        guard raisesPriority else { return "\(ThreadScheduling.current) (not raised while replaying)" }
        let kernelRefusal: Errno
        do {
            try ThreadScheduling.raiseToRoundRobin(priority: Self.realtimePriority)
            realtimeGrantor = .kernel
            return "\(ThreadScheduling.current)"
        } catch {
            kernelRefusal = error
        }
        let limit = ThreadScheduling.realtimePriorityLimit
        do {
            try RealtimeKit.raiseCallingThread(priority: Self.realtimePriority)
            realtimeGrantor = .realtimeKit
            return "\(ThreadScheduling.current), granted by RealtimeKit"
        } catch {
            return "\(ThreadScheduling.current) (SCHED_RR refused: \(kernelRefusal), RLIMIT_RTPRIO is \(limit); RealtimeKit refused: \(error))"
        }
    }
}
