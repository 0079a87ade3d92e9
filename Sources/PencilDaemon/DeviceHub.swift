import PencilInput
import PencilProtocol
import PencilSystem

protocol DeviceHubDelegate: AnyObject {
    /// Events for the monitors of `uid`, or of every user when nil.
    func deviceHub(_ hub: DeviceHub, emit events: [Event], toUser uid: UInt32?)
    /// Watch `descriptor` for readability and call `handleReadable(token:now:)` with `token`.
    func deviceHub(_ hub: DeviceHub, watch descriptor: FileDescriptor, token: UInt64) throws(Errno)
    /// Stop watching `descriptor` (before the hub closes it).
    func deviceHub(_ hub: DeviceHub, stopWatching descriptor: FileDescriptor)
    /// Whether replays at full speed may go on: not while a monitor is behind, so that they
    /// go at the pace of their slowest reader and every reader gets every event.
    func deviceHubMayPlayAtFullSpeed(_ hub: DeviceHub) -> Bool
}

/// A recording played on its own clock: events carry their recorded times and timers fire
/// at recorded times, whatever the speed (gestures.md, "Time in a replay").
struct Playback {
    var events: [InputEvent]
    var index = 0
    /// nil: as fast as possible.
    var speed: Double?
    /// Host time (CLOCK_MONOTONIC µs) at which the first event plays; nil until playback starts.
    var hostStart: Int64?
    var recordedStart: Int64
    /// The demo pen starts again after its last event, its times moved on by `loopLength`.
    var loops: Bool
    var loopOffset: Int64 = 0
    var loopLength: Int64

    init(events: [InputEvent], speed: Double?, loops: Bool) {
        self.events = events
        self.speed = speed
        self.loops = loops
        recordedStart = events.first?.time ?? 0
        let span = (events.last?.time ?? 0) - recordedStart
        loopLength = span + 1_000_000
    }

    func time(ofEventAt index: Int) -> Int64? { index < events.count ? events[index].time + loopOffset : nil }

    /// The recorded time playing at host time `now`.
    func recordedTime(at now: Int64) -> Int64 {
        guard let hostStart else { return .min }
        guard let speed else { return .max }
        return recordedStart + Int64(Double(now - hostStart) * speed)
    }

    /// The host time at which recorded time `time` plays.
    func hostTime(of time: Int64) -> Int64? {
        guard let hostStart else { return nil }
        guard let speed else { return hostStart }
        return hostStart + Int64((Double(time - recordedStart) / speed).rounded(.up))
    }
}

/// One pen device: its tracker, and a gesture stage per user who monitors.
final class PenDevice {
    let id: String
    var tracker: PenTracker
    var frame = PenFrame()
    var stages: [UInt32: any UserGestureStage] = [:]
    var playback: Playback?
    /// The device node of a live device (its clock is CLOCK_MONOTONIC, the host's).
    var live: LiveDevice?
    /// The hub's token for the live device's descriptor.
    var token: UInt64 = 0
    var droppedLog = LogRateLimiter(interval: DeviceHub.droppedLogInterval)
    /// The time of the device's last frame (its own clock).
    var lastTime: Int64
    /// The latest deadline a user's gesture stage fired at: the close-out is never earlier.
    var latestStageTimer: Int64?
    var isReplay: Bool

    init(id: String, description: DeviceDescription, playback: Playback?, isReplay: Bool, now: Int64) {
        self.id = id
        tracker = PenTracker(description: description, id: id)
        self.playback = playback
        self.isReplay = isReplay
        lastTime = playback?.recordedStart ?? now
    }

    var info: DeviceInfo { tracker.deviceInfo }

    /// The earliest timer of the tracker and the users' stages (device clock).
    var nextTimer: Int64? {
        var earliest = tracker.nextDeadline
        for stage in stages.values {
            if let deadline = stage.nextDeadline, earliest == nil || deadline < earliest! { earliest = deadline }
        }
        return earliest
    }
}

/// The pen devices: live ones found through udev, replays and the demo pen, each with its
/// tracker and a gesture stage per user who monitors it.
///
/// Live devices run on the host clock: their events carry CLOCK_MONOTONIC times and their
/// timers (forced proximity-out, long press) are host deadlines in the daemon's timerfd.
/// Replays run on their recording's clock, mapped to host time by their `Playback`.
final class DeviceHub {
    let configuration: Configuration
    let logger: Logger
    weak var delegate: (any DeviceHubDelegate)?
    private(set) var devices: [PenDevice] = []
    private var preferencesByUser: [UInt32: Preferences] = [:]
    private var replaysStarted = false
    private var gestures: [Event] = []
    private var replacedGestures: [Event] = []
    /// Events handed out per call of fireDue, so a replay at full speed leaves room for clients.
    private let batchSize = 512
    /// Items read from a live device per wake-up; the descriptor stays readable while more wait.
    private let liveReadLimit = 512
    /// SYN_DROPPED is logged at most once per device in this many microseconds.
    static let droppedLogInterval: Int64 = 10_000_000
    /// The hub's token for udev's monitor; devices get 1, 2, ...
    static let udevToken: UInt64 = 0
    private var nextToken: UInt64 = 1
    private var udev: UdevWatcher?
    /// Device nodes whose EACCES was logged: once each is enough.
    private var permissionWarnings = Set<String>()

    init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    var count: Int { devices.count }
    var deviceInfos: [DeviceInfo] { devices.map(\.info) }
    func contains(_ id: String) -> Bool { devices.contains { $0.id == id } }
    var replaysFinished: Bool { !devices.contains { $0.isReplay } }

    func start(now: Int64) throws(DaemonError) {
        for (index, replay) in configuration.replays.enumerated() {
            let (description, events) = try loadRecording(replay)
            let playback = Playback(events: events, speed: configuration.replaySpeed, loops: false)
            add(PenDevice(id: "replay\(index)", description: description, playback: playback, isReplay: true, now: now))
        }
        if configuration.demo {
            let demo = DemoPen.recording()
            let playback = Playback(events: demo.events, speed: 1, loops: true)
            add(PenDevice(id: "demo0", description: demo.description, playback: playback, isReplay: false, now: now))
        }
        if configuration.replayWaitsForMonitors == 0 { startPlayback(now: now) }
        if configuration.liveDevices { startLiveDevices(now: now) }
    }

    private func loadRecording(_ replay: Configuration.Replay) throws(DaemonError) -> (DeviceDescription, [InputEvent]) {
        do {
            let recording = try EvemuRecording.load(path: replay.path, descriptionPath: replay.descriptionPath)
            return (recording.description, recording.events)
        } catch {
            throw DaemonError(error.description)
        }
    }

    private func add(_ device: PenDevice) {
        // Users who monitor already get the newcomer, from its deviceAdded on.
        for (uid, preferences) in preferencesByUser {
            device.stages[uid] = makeGestureStage(info: device.info, preferences: preferences, state: device.tracker.state)
        }
        devices.append(device)
        device.tracker.start(at: device.lastTime, into: &device.frame)
        dispatch(device)
        logger.info("device \(device.id): \(device.info.name)")
    }

    private func startPlayback(now: Int64) {
        guard !replaysStarted else { return }
        replaysStarted = true
        for device in devices where device.playback != nil {
            device.playback?.hostStart = now
            // Host time of the recording's start, so that a reader can tell when each event was due.
            if let playback = device.playback, !playback.loops {
                logger.info("\(device.id) plays: recorded time \(playback.recordedStart) at host time \(now) (CLOCK_MONOTONIC, µs)")
            }
        }
    }

    func monitorsSubscribed(count: Int, now: Int64) {
        if count >= configuration.replayWaitsForMonitors { startPlayback(now: now) }
    }

    // MARK: Users

    func subscribe(uid: UInt32, preferences: Preferences) {
        preferencesByUser[uid] = preferences
        for device in devices where device.stages[uid] == nil {
            device.stages[uid] = makeGestureStage(info: device.info, preferences: preferences, state: device.tracker.state)
        }
    }

    func unsubscribe(uid: UInt32) {
        preferencesByUser[uid] = nil
        for device in devices { device.stages[uid] = nil }
    }

    func updatePreferences(uid: UInt32, _ preferences: Preferences) {
        guard preferencesByUser[uid] != nil else { return }
        preferencesByUser[uid] = preferences
        for device in devices {
            guard var stage = device.stages[uid] else { continue }
            var events: [Event] = []
            stage.update(preferences, at: device.lastTime, into: &events)
            device.stages[uid] = stage
            if !events.isEmpty { delegate?.deviceHub(self, emit: events, toUser: uid) }
        }
    }

    func catchUpEvents(uid: UInt32, now: Int64) -> [Event] {
        var events: [Event] = []
        for device in devices {
            let time = device.playback == nil ? now : device.lastTime
            events.append(Event(type: .deviceAdded, time: time, device: device.id, deviceInfo: device.info))
            events += device.tracker.catchUpEvents(at: time)
            if let stage = device.stages[uid] { events += stage.catchUpEvents(at: time) }
        }
        return events
    }

    // MARK: Time

    /// The earliest host time at which some device has work.
    func nextDeadline() -> Int64? {
        var earliest: Int64?
        let fullSpeedPaused = !(delegate?.deviceHubMayPlayAtFullSpeed(self) ?? true)
        for device in devices {
            if device.live != nil, let timer = device.nextTimer, earliest == nil || timer < earliest! { earliest = timer }
            guard let playback = device.playback, playback.hostStart != nil else { continue }
            // A paused full-speed replay is resumed by the loop once its readers have drained.
            if playback.speed == nil, fullSpeedPaused { continue }
            var candidates: [Int64?] = [playback.time(ofEventAt: playback.index).flatMap(playback.hostTime)]
            if let timer = device.nextTimer { candidates.append(playback.hostTime(of: timer)) }
            for case let time? in candidates where earliest == nil || time < earliest! { earliest = time }
        }
        return earliest
    }

    func fireDue(now: Int64) {
        for device in devices where device.playback?.hostStart != nil {
            play(device, now: now)
        }
        for device in devices where device.live != nil {
            guard let timer = device.nextTimer, timer <= now else { continue }
            // Frames the kernel stamped before the deadline come first: they may cancel it.
            read(device, now: now)
            if device.live != nil { fireTimers(device, upTo: now) }
        }
        devices.removeAll { $0.playback != nil && $0.playback!.index >= $0.playback!.events.count && !$0.playback!.loops }
    }

    private func play(_ device: PenDevice, now: Int64) {
        guard var playback = device.playback else { return }
        let recordedNow = playback.recordedTime(at: now)
        var budget = batchSize
        while budget > 0 {
            if playback.speed == nil, !(delegate?.deviceHubMayPlayAtFullSpeed(self) ?? true) { break }
            let eventTime = playback.time(ofEventAt: playback.index)
            if let timer = device.nextTimer, timer <= recordedNow, let eventTime, timer <= eventTime {
                fireTimer(device, at: timer)
                continue
            }
            guard let eventTime else {
                if playback.loops {
                    playback.index = 0
                    playback.loopOffset += playback.loopLength
                    continue
                }
                // The end of a replay: close what is open; timers that did not fire never will.
                device.tracker.remove(latestTimer: device.latestStageTimer, into: &device.frame)
                dispatch(device)
                logger.info("replay \(device.id) ended")
                break
            }
            guard eventTime <= recordedNow else { break }
            var event = playback.events[playback.index]
            event.time = eventTime
            playback.index += 1
            budget -= 1
            if device.tracker.feed(event, into: &device.frame) {
                device.lastTime = device.frame.time
                dispatch(device)
            }
        }
        device.playback = playback
    }

    private func fireTimer(_ device: PenDevice, at time: Int64) {
        if let deadline = device.tracker.nextDeadline, deadline <= time, device.tracker.advance(to: time, into: &device.frame) {
            device.lastTime = device.frame.time
            dispatch(device)
        }
        for uid in Array(device.stages.keys) {
            guard var stage = device.stages[uid], let deadline = stage.nextDeadline, deadline <= time else { continue }
            var events: [Event] = []
            stage.advance(to: time, into: &events)
            device.stages[uid] = stage
            device.latestStageTimer = max(device.latestStageTimer ?? time, time)
            if !events.isEmpty { delegate?.deviceHub(self, emit: events, toUser: uid) }
        }
    }

    /// Hands the device's frame, with each user's gestures, to that user's monitors.
    private func dispatch(_ device: PenDevice) {
        for uid in Array(device.stages.keys) {
            guard var stage = device.stages[uid] else { continue }
            gestures.removeAll(keepingCapacity: true)
            replacedGestures.removeAll(keepingCapacity: true)
            stage.process(device.frame, gestures: &gestures, replacedGestures: &replacedGestures)
            device.stages[uid] = stage
            let events = gestures.isEmpty && replacedGestures.isEmpty ? device.frame.events : device.frame.merging(gestures: gestures, replacedGestures: replacedGestures)
            if !events.isEmpty { delegate?.deviceHub(self, emit: events, toUser: uid) }
        }
    }

    /// Fires the device's timers due by `time` (device clock), earliest first, each at its deadline.
    private func fireTimers(_ device: PenDevice, upTo time: Int64) {
        // Each firing clears or moves its deadline; the bound guards against one that does neither.
        for _ in 0..<64 {
            guard let timer = device.nextTimer, timer <= time else { return }
            fireTimer(device, at: timer)
        }
    }

    /// Shutdown: every device closes what is open and leaves.
    func removeAll() {
        for device in devices {
            device.tracker.remove(latestTimer: device.latestStageTimer, into: &device.frame)
            dispatch(device)
            closeLiveSource(of: device)
        }
        devices.removeAll()
        udev = nil
    }

    // MARK: Live devices

    private func startLiveDevices(now: Int64) {
        let watcher: UdevWatcher
        do {
            watcher = try UdevWatcher()
        } catch {
            logger.warning("cannot use udev (\(error)): no live pen devices, only replays and the demo pen")
            return
        }
        do {
            try delegate?.deviceHub(self, watch: watcher.descriptor, token: Self.udevToken)
        } catch {
            logger.warning("cannot watch udev's monitor (\(error)): pens plugged in later will not be seen")
        }
        udev = watcher
        let nodes = watcher.enumerate()
        logger.debug("udev: \(nodes.count) input device\(nodes.count == 1 ? "" : "s")")
        for node in nodes { consider(node, now: now) }
    }

    /// A device udev enumerated or reported: open it, drop it, or leave it.
    private func consider(_ node: InputNode, now: Int64) {
        let existing = devices.first { $0.live != nil && $0.id == node.kernelName }
        if node.action == .remove {
            if let existing { unplug(existing, reason: "udev reports it removed") }
            return
        }
        switch InputNodeFilter.verdict(for: node) {
        case .open:
            if let existing {
                // The same name for another node: the old device is gone whatever udev said.
                guard existing.live?.path != node.devnode else { return }
                unplug(existing, reason: "replaced by \(node.devnode ?? "another node")")
            }
            open(node, now: now)
        case .ignore(let reason):
            if let existing {
                unplug(existing, reason: "udev no longer lists it as a pen tablet: \(reason)")
            } else if node.devnode?.hasPrefix("/dev/input/event") == true {
                logger.debug("\(node.kernelName): ignored: \(reason)")
            }
        }
    }

    private func open(_ node: InputNode, now: Int64) {
        guard let path = node.devnode else { return }
        let source: LiveDevice
        do {
            source = try LiveDevice(path: path)
        } catch {
            switch error {
            case .permissionDenied, .notPermitted:
                if permissionWarnings.insert(path).inserted {
                    logger.warning("cannot open \(path) (\(error)): pencild needs read access to pen devices; install the udev rule pencild ships (70-pencild.rules), or run pencild as a member of group input")
                }
            case .noSuchFile, .noDevice:
                logger.debug("\(path) went away before it could be opened")
            default:
                logger.warning("cannot open \(path) (\(error)): ignoring it")
            }
            return
        }
        if case .notAPen(let reason) = PenDeviceClassifier.classify(source.description) {
            logger.debug("\(node.kernelName) (\(source.description.name)): not a pen: \(reason)")
            source.close()
            return
        }
        let device = PenDevice(id: node.kernelName, description: source.description, playback: nil, isReplay: false, now: now)
        device.live = source
        device.token = nextToken
        nextToken += 1
        do {
            try delegate?.deviceHub(self, watch: source.fileDescriptor, token: device.token)
        } catch {
            logger.warning("cannot watch \(path) (\(error)): ignoring it")
            source.close()
            return
        }
        add(device)
    }

    /// udev has news, or a live device has input.
    func handleReadable(token: UInt64, now: Int64) {
        if token == Self.udevToken {
            for node in udev?.receive() ?? [] { consider(node, now: now) }
            return
        }
        guard let device = devices.first(where: { $0.token == token && $0.live != nil }) else { return }
        read(device, now: now)
    }

    /// Reads what the kernel has queued for a live device, firing its timers that fall between
    /// frames at their deadlines.
    private func read(_ device: PenDevice, now: Int64) {
        guard let source = device.live else { return }
        do {
            _ = try source.read(limit: liveReadLimit) { item in
                switch item {
                case .event(let event):
                    fireTimers(device, upTo: event.time)
                    if device.tracker.feed(event, into: &device.frame) {
                        device.lastTime = device.frame.time
                        dispatch(device)
                    }
                case .resynchronisation:
                    device.tracker.beginResynchronisation()
                    let (allowed, heldBack) = device.droppedLog.shouldLog(at: now)
                    if allowed {
                        let earlier = heldBack > 0 ? " (and \(heldBack) more time\(heldBack == 1 ? "" : "s") since the last report)" : ""
                        logger.warning("\(device.id): the kernel dropped events (SYN_DROPPED)\(earlier); the device's state was read again")
                    }
                }
            }
        } catch {
            unplug(device, reason: error == .noDevice ? "unplugged" : "read failed: \(error)")
        }
    }

    /// A live device went away: close what is open at the last frame's time, then deviceRemoved.
    private func unplug(_ device: PenDevice, reason: String) {
        guard device.live != nil else { return }
        device.tracker.remove(latestTimer: device.latestStageTimer, into: &device.frame)
        dispatch(device)
        closeLiveSource(of: device)
        devices.removeAll { $0 === device }
        logger.info("device \(device.id) removed (\(reason))")
    }

    private func closeLiveSource(of device: PenDevice) {
        guard let source = device.live else { return }
        delegate?.deviceHub(self, stopWatching: source.fileDescriptor)
        source.close()
        device.live = nil
    }
}
