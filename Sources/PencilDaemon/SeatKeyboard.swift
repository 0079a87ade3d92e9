import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem

/// pencild's keyboard ("pencild keyboard"), on which the user at the seat has the chords of
/// their bindings pressed (PressChord; docs/robustness.md, "The seat's keyboard and the seat's input"). The daemon
/// is the only holder of /dev/uinput, so no user's program keeps a keyboard past a session
/// switch. It sends ChordPolicy's keys only, is made when the system service starts (again at
/// the first chord where it could not be then) and lives as long as the daemon: a compositor
/// reads a new device only once udev has announced it, so keys written at a keyboard made for
/// them would be lost. Its chords belong to one user on one seat at a time: whoever else asks first
/// waits for nothing, since only the seat's active user is ever let in.
final class SeatKeyboard {
    static let name = "pencild keyboard"
    /// BUS_VIRTUAL, as uinput devices are.
    static let virtualBus = 0x06
    /// A uinput device has no ID_SEAT: it is on seat0, and types there.
    static let seat = LogindSeat.main

    /// Why a chord was not queued.
    enum Refusal: Error, Equatable {
        case unavailable(String)
    }

    private let logger: Logger
    private var device: VirtualDevice?
    private(set) var player: ChordPlayer
    /// The user whose chords play or wait, from the first frame queued to the last let go.
    private(set) var owner: UInt32?

    init(keyInterval: Int64, logger: Logger) {
        player = ChordPlayer(interval: keyInterval)
        self.logger = logger
    }

    var nextDeadline: HostTime? { player.nextDeadline.map(HostTime.init(microseconds:)) }

    /// Makes the device, once; a failure is said by the first chord, which tries again.
    func prepare() {
        do throws(Refusal) {
            try make()
        } catch {
            if case .unavailable(let reason) = error { logger.debug("keyboard: not made yet: \(reason)") }
        }
    }

    private func make() throws(Refusal) {
        guard device == nil else { return }
        var description = DeviceDescription(name: Self.name, bus: Self.virtualBus, vendor: 0, product: 0, version: 1)
        for key in ChordPolicy.allowedKeys { description.enable(type: EventCode.EV_KEY, code: key) }
        do {
            device = try VirtualDevice(description: description)
        } catch {
            throw .unavailable(Self.explain(error))
        }
        logger.info("keyboard \"\(Self.name)\" made (\(device?.kernelName ?? "?")): chords for the seat's active user")
    }

    /// Queues `chord` for `uid`, whose hold on the seat the caller has just checked; its first
    /// frame goes at once.
    func press(_ chord: KeyChord, for uid: UInt32, now: HostTime) throws(Refusal) {
        if let owner, owner != uid {
            // Another user's chords are still playing: the seat changed hands before the
            // session monitor said so. Theirs stop here.
            releaseAll(reason: "uid \(uid) holds the seat now")
        }
        try make()
        guard player.enqueue(chord, now: now.microseconds) else {
            throw .unavailable("\(player.maximumQueued) chords are already waiting")
        }
        owner = uid
        playDue(now: now, stillHolds: { _ in true })
    }

    /// Sends the frames due by `now`, while their owner still holds the seat; else lets go of
    /// everything.
    func playDue(now: HostTime, stillHolds: (UInt32) -> Bool) {
        guard let owner, player.nextDeadline.map({ $0 <= now.microseconds }) ?? false else { return }
        guard stillHolds(owner) else {
            releaseAll(reason: "uid \(owner) no longer holds the seat")
            return
        }
        while let frame = player.next(now: now.microseconds) { send(frame) }
        if player.isIdle { self.owner = nil }
    }

    /// The seat may have changed hands: the owner's chords stop and their keys go up at once.
    func sessionsChanged(stillHolds: (UInt32) -> Bool) {
        guard let owner, !stillHolds(owner) else { return }
        releaseAll(reason: "uid \(owner) no longer holds the seat")
    }

    /// Lets go of every key held and drops what waits.
    func releaseAll(reason: String) {
        let releases = player.releaseAll()
        for frame in releases { send(frame) }
        if owner != nil {
            logger.info("keyboard: \(reason): \(releases.count) key\(releases.count == 1 ? "" : "s") let go, waiting chords dropped")
        }
        owner = nil
    }

    /// Shutdown: keys up, then the device goes (the kernel would let them go too).
    func close() {
        releaseAll(reason: "pencild stops")
        device?.close()
        device = nil
    }

    private func send(_ frame: KeyFrame) {
        guard let device else { return }
        do {
            try device.write([
                InputEvent(time: 0, type: EventCode.EV_KEY, code: frame.code, value: frame.down ? 1 : 0),
                InputEvent(time: 0, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0),
            ])
        } catch {
            logger.error("keyboard: writing \(KeyNames.name(of: frame.code)) \(frame.down ? "down" : "up") failed: \(error)")
        }
    }

    static func explain(_ error: Errno) -> String {
        switch error {
        case .permissionDenied, .notPermitted:
            return "no write access to /dev/uinput (\(error)): the service has it through the group pencild-uinput (DeviceAllow=/dev/uinput rw)"
        case .noSuchFile, .noDevice:
            return "there is no /dev/uinput (the uinput module is not loaded)"
        default:
            return "cannot make a uinput keyboard: \(error)"
        }
    }
}
