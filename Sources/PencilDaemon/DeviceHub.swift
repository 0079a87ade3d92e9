import PencilInput
import PencilProtocol
import PencilSystem

protocol DeviceHubDelegate: AnyObject {
    /// Events for the monitors of `uid`, or of every user when nil.
    func deviceHub(_ hub: DeviceHub, emit events: [Event], toUser uid: UInt32?)
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
    /// The time of the device's last frame (its own clock).
    var lastTime: Int64
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

/// The pen devices: replays, the demo pen (and, later, live devices), each with its tracker
/// and a gesture stage per user who monitors it.
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
        devices.append(device)
        device.tracker.start(at: device.lastTime, into: &device.frame)
        dispatch(device)
        logger.info("device \(device.id): \(device.info.name)")
    }

    private func startPlayback(now: Int64) {
        guard !replaysStarted else { return }
        replaysStarted = true
        for device in devices where device.playback != nil { device.playback?.hostStart = now }
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
        for device in devices {
            guard let playback = device.playback, playback.hostStart != nil else { continue }
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
        devices.removeAll { $0.playback != nil && $0.playback!.index >= $0.playback!.events.count && !$0.playback!.loops }
    }

    private func play(_ device: PenDevice, now: Int64) {
        guard var playback = device.playback else { return }
        let recordedNow = playback.recordedTime(at: now)
        var budget = batchSize
        while budget > 0 {
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
                device.tracker.remove(into: &device.frame)
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

    func handleReadable(token: UInt64, now: Int64) {}

    /// Shutdown: every device closes what is open and leaves.
    func removeAll() {
        for device in devices {
            device.tracker.remove(into: &device.frame)
            dispatch(device)
        }
        devices.removeAll()
    }
}
