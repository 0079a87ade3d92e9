import GestureRecognizer
import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem
import PencilWacom

/// One pen device: its pipeline (a tracker and a gesture recogniser per user who monitors,
/// `PenPipeline` as everywhere else) and its source.
final class PenDevice {
    let id: String
    var pipeline: PenPipeline<UserGestureStages>
    var source: DeviceSource
    /// Replays given on the command line end; the demo pen and live devices do not count.
    let isReplay: Bool
    var droppedLog = LogRateLimiter(interval: DeviceHub.droppedLogInterval)
    /// The time of the device's last frame or timer (its own clock).
    var lastTime: DeviceTime
    /// udev's seat of a live device; replays are on seat0.
    var seat = LogindSeat.main
    /// The mirror while the pen is grabbed, what its deciding user wants, and where it stands.
    var mirror: PenMirror?
    var wantedMirror: MirrorWish?
    /// The user whose wish the mirror in place follows.
    var mirrorOwner: UInt32?
    /// Why the wish could not be met (said once in the log), until the wish changes.
    var mirrorFailure: String?
    /// Device.tipReportedAs as monitors last heard it (in deviceAdded or deviceChanged).
    var announcedTipReportedAs: ToolType?

    init(id: String, description: DeviceDescription, identity: PenIdentity, source: DeviceSource, isReplay: Bool, startTime: DeviceTime) {
        self.id = id
        pipeline = PenPipeline(tracker: PenTracker(description: description, id: id, identity: identity), stage: UserGestureStages())
        self.source = source
        self.isReplay = isReplay
        lastTime = startTime
    }

    /// As deviceAdded describes it: with the mirror, while there is one.
    var info: DeviceInfo {
        var info = pipeline.tracker.deviceInfo
        info.mirror = pipeline.tracker.mirrorName
        info.tipReportedAs = tipReportedAs
        return info
    }
    /// As ListDevices describes it: with the styli seen so far, and the mirror.
    var listedInfo: DeviceInfo {
        var info = pipeline.tracker.listedDeviceInfo
        info.tipReportedAs = tipReportedAs
        return info
    }
    /// While the pen has a mirror: the tool its tip is reported as (docs/gestures.md, "The pen
    /// switches tool through its mirror").
    var tipReportedAs: ToolType? {
        guard mirror != nil || (isReplay && pipeline.stage.mirror != nil) else { return nil }
        return pipeline.stage.mirrorReportsEraser ? .eraser : .pen
    }
    var identity: PenIdentity { pipeline.tracker.identity }

    /// The pipeline's next timer, on the device's clock.
    var nextDeadline: DeviceTime? { pipeline.nextDeadline.map(DeviceTime.init(microseconds:)) }

    /// Fires the pipeline's timers due by `time`, and notes the time of the last one fired.
    func advance(to time: DeviceTime, into output: inout UserEvents) {
        if let timer = nextDeadline, timer <= time { lastTime = max(lastTime, timer) }
        pipeline.advance(to: time.microseconds, into: &output)
    }

    /// Feeds one event of the device, on its clock.
    func feed(_ event: InputEvent, into output: inout UserEvents) {
        pipeline.feed(event, into: &output)
        lastTime = DeviceTime(of: event)
    }

    var live: LiveDevice? {
        if case .live(let device, _) = source { return device }
        return nil
    }

    var demo: DemoPenPlayer? {
        if case .demo(let player) = source { return player }
        return nil
    }
}
