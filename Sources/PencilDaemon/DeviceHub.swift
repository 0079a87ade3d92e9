import GestureRecognizer
import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem
import PencilWacom

/// The pen devices: live ones found through udev, replays and the demo pen, each with its
/// pipeline. The hub reads no clock: host time comes in with every call.
///
/// Live devices run on the host clock: their events carry CLOCK_MONOTONIC times and their
/// timers (forced proximity-out, long press) are host deadlines. Replays run on their
/// recording's clock, mapped to host time by their `RecordingPlayer`.
final class DeviceHub {
    let configuration: Configuration
    let logger: Logger
    weak var delegate: (any DeviceHubDelegate)?
    /// Watches the devices' descriptors (the daemon's loop).
    weak var watcher: (any DeviceWatcher)?
    private(set) var devices: [PenDevice] = []
    /// The host time of the call being handled: readers' output bounds are judged by it.
    private(set) var now = HostTime(microseconds: 0)
    private var preferencesByUser: [UInt32: Preferences] = [:]
    private var replaysStarted = false
    private var output = UserEvents()
    /// Items a live device or a replay at a set speed hands out per call, so that one device
    /// cannot hold the loop.
    private let readLimit = 512
    /// A replay as fast as possible asks its readers between batches this small whether they keep up.
    private let fullSpeedBatch = 32
    /// SYN_DROPPED is logged at most once per device in this many microseconds.
    static let droppedLogInterval: Int64 = 10_000_000
    /// The hub's token for udev's monitor; devices get 1, 2, ...
    static let udevToken: UInt64 = 0
    private var nextToken: UInt64 = 1
    private var udev: UdevWatcher?
    /// Device nodes whose EACCES was logged: once each is enough.
    private var permissionWarnings = Set<String>()
    /// The sysfs folders of the mirrors this daemon made: never opened as pens.
    var mirrorSyspaths = Set<String>()
    /// The users one of whose apps holds the focus (docs/protocol.md, "Which app acts").
    var focusHolders = Set<UInt32>()
    /// Seats whose pens are left closed while another user holds them.
    var seatsNotRead = Set<String>()

    init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// libwacom's database, loaded with the first device and kept: a look-up per device, never
    /// a load. Without it (no data files) devices have no model and tools no stylus.
    private lazy var wacom: WacomDatabase? = {
        let database = WacomDatabase.load(dataDirectory: configuration.libwacomDataDirectory)
        if let database {
            logger.debug("libwacom: \(database.tabletCount) tablets known")
        } else {
            logger.notice("libwacom's data could not be loaded\(configuration.libwacomDataDirectory.map { " from \($0)" } ?? ""): pens are reported without their model and styli")
        }
        return database
    }()

    /// What libwacom knows of a device: from its node when it has one, else from its ids.
    private func identity(of description: DeviceDescription, node: String?) -> PenIdentity {
        wacom?.identity(node: node, bus: description.bus, vendor: description.vendor, product: description.product) ?? .unknown
    }

    var count: Int { devices.count }
    var deviceInfos: [DeviceInfo] { devices.map(\.listedInfo) }
    func contains(_ id: String) -> Bool { devices.contains { $0.id == id } }
    func device(_ id: String) -> PenDevice? { devices.first { $0.id == id } }
    /// The seat of an attached device: udev's for a live one, seat0 for a replay.
    func seat(of id: String) -> String? { devices.first { $0.id == id }?.seat }
    var replaysFinished: Bool { !devices.contains { $0.isReplay } }

    func start(now: HostTime) throws(DaemonError) {
        self.now = now
        for (index, replay) in configuration.replays.enumerated() {
            let recording = try loadRecording(replay)
            let device = PenDevice(id: "replay\(index)", description: recording.description,
                                   identity: identity(of: recording.description, node: nil), source: .waitingReplay(recording),
                                   isReplay: true, startTime: Self.startTime(of: recording, now: now))
            if configuration.mirrorsReplays {
                // Routed under the defaults, for seat0's deciding user, whose app may hold the
                // focus (then it acts on a double-tap, and the mirror switches nothing).
                var preferences = Preferences.defaults
                preferences.withholdGestureClicks = true
                let owner = delegate?.deviceHub(self, decidingUserForSeat: LogindSeat.main)
                try? device.pipeline.stage.setMirror(device: device.pipeline.tracker.deviceInfo, identity: device.identity,
                                                     preferences: preferences, owner: owner)
                device.mirrorOwner = owner
            }
            add(device)
        }
        if configuration.demo {
            let demo = DemoPenPlayer()
            // The demo pen is no tablet libwacom could know: its database is not loaded for it.
            add(PenDevice(id: DemoPen.id, description: demo.description, identity: .unknown, source: .demo(demo),
                          isReplay: false, startTime: demo.nextEventTime ?? DeviceTime(sameInstantAs: now)))
        }
        if configuration.replayWaitsForMonitors == 0 { startPlayback(now: now) }
        if configuration.liveDevices { startLiveDevices(now: now) }
    }

    /// A replayed device's clock starts at its recording's first event; an empty recording has
    /// no clock of its own, and takes the host's.
    private static func startTime(of recording: EvemuRecording, now: HostTime) -> DeviceTime {
        recording.events.first.map(DeviceTime.init(of:)) ?? DeviceTime(sameInstantAs: now)
    }

    private func loadRecording(_ replay: Configuration.Replay) throws(DaemonError) -> EvemuRecording {
        do {
            return try EvemuRecording.load(path: replay.path, descriptionPath: replay.descriptionPath)
        } catch {
            throw DaemonError(error.description)
        }
    }

    private func add(_ device: PenDevice) {
        // Users who monitor already get the newcomer, from its deviceAdded on.
        for (uid, preferences) in preferencesByUser {
            device.pipeline.stage.add(uid: uid, device: device.info, identity: device.identity, preferences: preferences,
                                      state: device.pipeline.tracker.state)
        }
        // What deviceAdded says of the mirror is what monitors know.
        device.announcedTipReportedAs = device.tipReportedAs
        devices.append(device)
        device.pipeline.start(at: device.lastTime.microseconds, into: &output)
        emit()
        logger.info("device \(device.id): \(device.info.name)")
    }

    private func startPlayback(now: HostTime) {
        guard !replaysStarted else { return }
        replaysStarted = true
        let speed = configuration.replaySpeed.flatMap { PlaybackSpeed(factor: $0) } ?? .asFastAsPossible
        for device in devices {
            if case .demo(var demo) = device.source {
                demo.start(at: now)
                device.source = .demo(demo)
                continue
            }
            guard case .waitingReplay(let recording) = device.source else { continue }
            device.source = .replay(RecordingPlayer(recording, speed: speed, startingAt: now))
            // Host time of the recording's start, so that a reader can tell when each event was due.
            if let first = recording.events.first {
                logger.info("\(device.id) plays: recorded time \(first.time) at host time \(now.microseconds) (CLOCK_MONOTONIC, µs)")
            }
        }
    }

    func monitorsSubscribed(count: Int, now: HostTime) {
        self.now = now
        if count >= configuration.replayWaitsForMonitors { startPlayback(now: now) }
    }

    // MARK: Users

    func subscribe(uid: UInt32, preferences: Preferences) {
        preferencesByUser[uid] = preferences
        for device in devices where !device.pipeline.stage.contains(uid) {
            device.pipeline.stage.add(uid: uid, device: device.info, identity: device.identity, preferences: preferences,
                                      state: device.pipeline.tracker.state)
        }
    }

    func unsubscribe(uid: UInt32) {
        preferencesByUser[uid] = nil
        for device in devices { device.pipeline.stage.remove(uid: uid) }
    }

    func updatePreferences(uid: UInt32, _ preferences: Preferences, now: HostTime) {
        self.now = now
        guard preferencesByUser[uid] != nil else { return }
        preferencesByUser[uid] = preferences
        for device in devices {
            device.pipeline.stage.update(uid: uid, preferences: preferences, at: device.lastTime.microseconds, into: &output)
            emit()
        }
    }

    func catchUpEvents(uid: UInt32, now: HostTime) -> [Event] {
        devices.flatMap { catchUpEvents(of: $0, uid: uid, now: now) }
    }

    /// What brings a new reader of one device to where it stands: its deviceAdded, the pen as
    /// `uid`'s stream has it, and that user's gestures in progress.
    func catchUpEvents(of device: PenDevice, uid: UInt32, now: HostTime) -> [Event] {
        let time = readerTime(of: device, now: now)
        var events = [Event(type: .deviceAdded, time: time, device: device.id, deviceInfo: device.info)]
        // The pen as this user's stream has it (an eraser button held is the pen, not the eraser).
        let state = device.pipeline.stage.presentedState(of: uid) ?? device.pipeline.tracker.state
        events += state.catchUpEvents(device: device.id, identity: device.identity, at: time)
        events += device.pipeline.stage.catchUpEvents(of: uid, at: time)
        return events
    }

    /// What ends one device for a reader who stops seeing it: the pen closed out as `uid`'s
    /// stream has it, then deviceRemoved.
    func closeOutEvents(of device: PenDevice, uid: UInt32, now: HostTime) -> [Event] {
        let time = readerTime(of: device, now: now)
        let state = device.pipeline.stage.presentedState(of: uid) ?? device.pipeline.tracker.state
        return state.closeOutEvents(device: device.id, at: time) + [Event(type: .deviceRemoved, time: time, device: device.id)]
    }

    /// A live device's pose is as of now; a replay's as of its last event.
    private func readerTime(of device: PenDevice, now: HostTime) -> Int64 {
        device.live != nil ? DeviceTime(sameInstantAs: now).microseconds : device.lastTime.microseconds
    }

    /// Hands each user's events of the last step to their monitors.
    private func emit() {
        // A live device's mirror frames were written before; a replay's, and whatever a pen
        // that went away held back, have nowhere to go.
        output.mirror.removeAll(keepingCapacity: true)
        output.drain { uid, events in delegate?.deviceHub(self, emit: events, toUser: uid) }
    }

    // MARK: Time

    /// The earliest host time at which some device has work.
    func nextDeadline() -> HostTime? {
        var earliest: HostTime?
        func consider(_ time: HostTime?) {
            if let time, earliest.map({ time < $0 }) ?? true { earliest = time }
        }
        let fullSpeedPaused = !(delegate?.deviceHubMayPlayAtFullSpeed(self) ?? true)
        for device in devices {
            switch device.source {
            case .live:
                consider(device.nextDeadline.map(HostTime.init(sameInstantAs:)))
            case .replay(let player):
                // A paused full-speed replay is resumed by the loop once its readers have drained.
                if !player.speed.factor.isFinite, fullSpeedPaused { continue }
                consider(player.nextDueTime ?? player.hostTime(for: device.lastTime))
                consider(device.nextDeadline.map(player.hostTime(for:)))
            case .demo(let player):
                guard player.isStarted else { continue }
                consider(player.nextDueTime)
                consider(device.nextDeadline.map(player.hostTime(for:)))
            case .waitingReplay, .ended:
                continue
            }
        }
        return earliest
    }

    func fireDue(now: HostTime) {
        self.now = now
        for device in devices {
            switch device.source {
            case .replay, .demo: play(device, now: now)
            case .live:
                let deviceNow = DeviceTime(sameInstantAs: now)
                guard let timer = device.nextDeadline, timer <= deviceNow else { continue }
                // Frames the kernel stamped before the deadline come first: they may cancel it.
                read(device, now: now)
                if device.live != nil {
                    device.advance(to: deviceNow, into: &output)
                    writeMirror(of: device, &output.mirror)
                    emit()
                }
            case .waitingReplay, .ended:
                continue
            }
        }
        devices.removeAll { if case .ended = $0.source { return true } else { return false } }
    }

    /// Plays what is due by `now`: timers due before the next event fire at their deadlines (the
    /// pipeline fires those due by an event's time before it).
    private func play(_ device: PenDevice, now: HostTime) {
        switch device.source {
        case .replay(var player):
            let finished = play(device, &player, now: now)
            device.source = finished ? .ended : .replay(player)
        case .demo(var player):
            _ = play(device, &player, now: now)
            device.source = .demo(player)
        case .live, .waitingReplay, .ended:
            return
        }
    }

    /// Plays what `player` has due by `now` into `device`; true when it has ended (a demo pen
    /// never does).
    private func play<Source: TimedSource>(_ device: PenDevice, _ player: inout Source, now: HostTime) -> Bool {
        let fullSpeed = !player.speed.factor.isFinite
        var status = SourceStatus.more
        var budget = readLimit
        while status == .more, budget > 0 {
            if fullSpeed, !(delegate?.deviceHubMayPlayAtFullSpeed(self) ?? true) { break }
            let batch = min(budget, fullSpeed ? fullSpeedBatch : readLimit)
            budget -= batch
            status = Self.feed(from: &player, at: now, limit: batch, into: &device.pipeline, output: &output, lastTime: &device.lastTime)
            // The batch's events go out in their order once the pipeline is back in its device:
            // a monitor's reply may unsubscribe a user from it.
            emit()
            // A replay's mirror writes nowhere: a switch of its tool is told after the batch.
            announceChanges(of: device)
        }
        if status == .finished {
            // The end of a replay: close what is open; timers that did not fire never will.
            device.pipeline.finish(into: &output)
            emit()
            logger.info("replay \(device.id) ended")
            return true
        }
        if status == .drained {
            if let timer = device.nextDeadline, player.hostTime(for: timer) <= now {
                // Every deadline due by now, each at its time; the next event is not due yet,
                // and the deadlines at or after it fire when it is fed.
                var until = max(timer, player.deviceTime(at: now))
                if let next = player.nextEventTime { until = min(until, next - 1) }
                device.advance(to: until, into: &output)
                emit()
                announceChanges(of: device)
            }
        }
        return false
    }

    /// Plays `gesture` on the demo pen `device`, after the gestures asked of it before.
    /// SetTipTool on `device`, which has a mirror: written to it at once where the tip is up,
    /// and told to every monitor. False when its user's mirror switches no tools.
    func setTipTool(of device: PenDevice, eraser: Bool, now: HostTime) -> Bool {
        self.now = now
        let time = device.live != nil ? DeviceTime(sameInstantAs: now) : device.lastTime
        guard device.pipeline.stage.setMirrorTipTool(eraser: eraser, at: time.microseconds, into: &output) else { return false }
        writeMirror(of: device, &output.mirror)
        announceChanges(of: device)
        return true
    }

    func playGesture(_ gesture: GestureDemonstration.Script, on device: PenDevice, now: HostTime) throws(DemoPenPlayer.Busy) {
        self.now = now
        guard case .demo(var player) = device.source else { return }
        try player.play(gesture, now: now)
        device.source = .demo(player)
    }

    /// Feeds a batch of a replay through a pipeline held for the whole batch (one access to the
    /// device and the hub, instead of one per evdev event).
    private static func feed<Source: TimedSource>(from player: inout Source, at now: HostTime, limit: Int, into pipeline: inout PenPipeline<UserGestureStages>,
                             output: inout UserEvents, lastTime: inout DeviceTime) -> SourceStatus {
        player.read(at: now, limit: limit) { item in
            guard case .event(let event) = item else { return }
            pipeline.feed(event, into: &output)
            lastTime = DeviceTime(of: event)
        }
    }

    /// Shutdown: every device closes what is open and leaves.
    func removeAll() {
        for device in devices {
            device.pipeline.finish(into: &output)
            emit()
            closeLiveSource(of: device)
        }
        devices.removeAll()
        udev = nil
    }

    // MARK: Live devices

    private func startLiveDevices(now: HostTime) {
        let watcher: UdevWatcher
        do {
            watcher = try UdevWatcher()
        } catch {
            logger.warning("cannot use udev (\(error)): no live pen devices, only replays and the demo pen")
            return
        }
        do {
            try watch(watcher.descriptor, token: Self.udevToken)
        } catch {
            logger.warning("cannot watch udev's monitor (\(error)): pens plugged in later will not be seen")
        }
        udev = watcher
        let nodes = watcher.enumerate()
        logger.debug("udev: \(nodes.count) input device\(nodes.count == 1 ? "" : "s")")
        for node in nodes { consider(node, now: now) }
    }

    /// A device udev enumerated or reported: open it, drop it, or leave it.
    private func consider(_ node: InputNode, now: HostTime) {
        let existing = devices.first { $0.live != nil && $0.id == node.kernelName }
        if node.action == .remove {
            if let existing { unplug(existing, reason: "udev reports it removed") }
            return
        }
        switch InputNodeFilter.verdict(for: node, mirrors: mirrorSyspaths) {
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

    private func open(_ node: InputNode, now: HostTime) {
        guard let path = node.devnode else { return }
        guard delegate?.deviceHub(self, mayReadSeat: node.seat) ?? true else {
            if seatsNotRead.insert(node.seat).inserted {
                logger.info("pens on \(node.seat) are not read: another user's session holds the seat")
            }
            return
        }
        let source: LiveDevice
        do {
            source = try LiveDevice(path: path)
        } catch {
            switch error {
            case .permissionDenied, .notPermitted:
                if permissionWarnings.insert(path).inserted {
                    logger.warning("cannot open \(path) (\(error)): pencild needs read access to pen devices: the system service has it through group input; a user's pencild through the opt-in udev rule 71-pencild-user-mode.rules, which an administrator enables (docs/installing.md, \"User service\")")
                }
            case .noSuchFile, .noDevice:
                logger.debug("\(path) went away before it could be opened")
            default:
                logger.warning("cannot open \(path) (\(error)): ignoring it")
            }
            return
        }
        if source.phys?.hasSuffix(InputNodeFilter.mirrorPhysSuffix) == true {
            logger.debug("\(node.kernelName) (\(source.description.name)): a mirror of pencild: not a pen")
            source.close()
            return
        }
        if case .notAPen(let reason) = PenDeviceClassifier.classify(source.description) {
            logger.debug("\(node.kernelName) (\(source.description.name)): not a pen: \(reason)")
            source.close()
            return
        }
        let token = nextToken
        nextToken += 1
        let device = PenDevice(id: node.kernelName, description: source.description, identity: identity(of: source.description, node: path),
                               source: .live(source, token: token),
                               isReplay: false, startTime: DeviceTime(sameInstantAs: now))
        device.seat = node.seat
        do {
            try watch(source.fileDescriptor, token: token)
        } catch {
            logger.warning("cannot watch \(path) (\(error)): ignoring it")
            source.close()
            return
        }
        // The mirror first, when the pen is idle: deviceAdded then names it.
        device.wantedMirror = delegate?.deviceHub(self, mirrorWishForSeat: device.seat)
        settleMirror(of: device)
        add(device)
    }

    /// Watches `descriptor` through the loop, reported with `token`.
    private func watch(_ descriptor: FileDescriptor, token: UInt64) throws(Errno) {
        guard let watcher else { throw .badFileDescriptor } // nothing to watch with
        try watcher.watch(descriptor, deviceToken: token)
    }

    /// The main loop's time, for what it asks of the hub between the pen's wake-ups (a
    /// preferences change announced, a client's output judged).
    func advanceClock(to now: HostTime) {
        if now > self.now { self.now = now }
    }

    /// udev has news, or a live device has input.
    func handleReadable(token: UInt64, now: HostTime) {
        self.now = now
        if token == Self.udevToken {
            for node in udev?.receive() ?? [] { consider(node, now: now) }
            return
        }
        guard let device = devices.first(where: { if case .live(_, token) = $0.source { return true } else { return false } }) else { return }
        read(device, now: now)
    }

    /// Reads what the kernel has queued for a live device, firing its timers that fall between
    /// frames at their deadlines.
    private func read(_ device: PenDevice, now: HostTime) {
        guard let source = device.live else { return }
        do {
            let status = try source.read(limit: readLimit) { item in
                switch item {
                case .event(let event):
                    device.feed(event, into: &output)
                    // The mirror is on every app's input path: its frame goes first.
                    writeMirror(of: device, &output.mirror)
                    emit()
                case .resynchronisation:
                    device.pipeline.beginResynchronisation()
                    let (allowed, heldBack) = device.droppedLog.shouldLog(at: now)
                    if allowed {
                        let earlier = heldBack > 0 ? " (and \(heldBack) more time\(heldBack == 1 ? "" : "s") since the last report)" : ""
                        logger.warning("\(device.id): the kernel dropped events (SYN_DROPPED)\(earlier); the device's state was read again")
                    }
                }
            }
            // A mirror to make or take down waits for the pen to be idle with nothing unread.
            if status == .drained {
                settleMirror(of: device)
                announceChanges(of: device)
            }
        } catch {
            unplug(device, reason: error == .noDevice ? "unplugged" : "read failed: \(error)")
        }
    }

    /// The seats may have changed hands: a pen on a seat this daemon may no longer read is
    /// closed out to its clients and its node closed, as if unplugged; the pens of a seat that
    /// came back are opened again.
    func refreshSeatAccess(now: HostTime) {
        self.now = now
        for device in devices where device.live != nil {
            guard !(delegate?.deviceHub(self, mayReadSeat: device.seat) ?? true) else { continue }
            seatsNotRead.insert(device.seat)
            unplug(device, reason: "another user's session holds \(device.seat) now")
        }
        let returned = seatsNotRead.filter { delegate?.deviceHub(self, mayReadSeat: $0) ?? true }
        guard !returned.isEmpty, let udev else { return }
        seatsNotRead.subtract(returned)
        logger.info("\(returned.sorted().joined(separator: ", ")) held by this daemon's user again: its pens are read again")
        for node in udev.enumerate() { consider(node, now: now) }
    }

    /// A live device went away: close what is open at the last frame's time, then deviceRemoved.
    private func unplug(_ device: PenDevice, reason: String) {
        guard device.live != nil else { return }
        device.pipeline.finish(into: &output)
        emit()
        closeLiveSource(of: device)
        devices.removeAll { $0 === device }
        logger.info("device \(device.id) removed (\(reason))")
    }

    private func closeLiveSource(of device: PenDevice) {
        guard let source = device.live else { return }
        stopMirror(of: device, reason: "the pen is gone")
        watcher?.stopWatching(source.fileDescriptor)
        source.close()
        device.source = .ended
    }
}
