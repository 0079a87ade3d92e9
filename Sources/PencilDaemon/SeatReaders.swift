import PencilProtocol
import PencilSystem

/// Who reads which seat's pens (docs/protocol.md, "Who sees which pen"). The system service
/// serves every seat: a device's events, its place in ListDevices and its catch-up go only to
/// the uid that holds the device's seat (the user of its active session) and to those who see
/// every seat (root, the daemon's user, members of the access group). A user's daemon reads
/// only the seats its user holds, so its clients see all it reads; where logind keeps no
/// seats, nobody is known to hold one, and everyone who may connect sees every pen.
///
/// A seat's holder is read from sd-login when first asked after a session change, and kept
/// until the next one: never per event.
struct SeatReaders {
    /// Who is at which seat.
    let sessions: any SeatSessions
    /// False where everyone who may connect reads every pen.
    private(set) var restricted = false
    /// Each seat's holder (nil: nobody) as sd-login said since the last refresh.
    private var holders: [String: UInt32?] = [:]

    init(sessions: any SeatSessions) { self.sessions = sessions }

    /// Forgets the holders: sessions changed. A seat's holder is read again when next asked.
    mutating func refresh(mode: Configuration.Mode) {
        restricted = mode == .system && sessions.areTracked
        holders = [:]
    }

    /// The holder of `seat`; nil when nobody holds it.
    mutating func holder(of seat: String) -> UInt32? {
        if let known = holders[seat] { return known }
        let uid = sessions.activeUser(onSeat: seat)
        holders[seat] = .some(uid)
        return uid
    }

    /// Whether a client of `uid` reads pens on `seat`.
    mutating func reads(seat: String, uid: UInt32, seesEverySeat: Bool) -> Bool {
        !restricted || seesEverySeat || holder(of: seat) == uid
    }
}

extension PenService {
    /// Whether `connection` reads `device`'s events.
    func reads(_ device: PenDevice, _ connection: Connection) -> Bool {
        seatReaders.reads(seat: device.seat, uid: connection.peer.uid, seesEverySeat: connection.seesEverySeat)
    }

    /// The seat of the pen an event is about; nil for an event of no device (every reader's).
    func seat(of event: Event) -> String? {
        guard let id = event.device else { return nil }
        if event.type == .deviceAdded { seatCache = nil }
        if let cached = seatCache, cached.device == id { return cached.seat }
        // A device the hub no longer lists (its last events) keeps the seat it was read on.
        guard let seat = devices.seat(of: id) else { return seatCache?.device == id ? seatCache?.seat : SeatKeyboard.seat }
        seatCache = (id, seat)
        return seat
    }

    /// Sessions changed: the seats' holders are read again, and each stream that stops or
    /// starts reading a pen is told as if it went away (its close-out, then deviceRemoved) or
    /// came (deviceAdded and the pen as it stands).
    func refreshSeatReaders(now: HostTime) {
        for device in devices.devices { _ = seatReaders.holder(of: device.seat) }
        var before = seatReaders
        seatReaders.refresh(mode: configuration.mode)
        seatCache = nil
        guard before.restricted || seatReaders.restricted else { return }
        for device in devices.devices {
            for connection in Array(clients.connections) where connection.monitor != nil && !connection.closed {
                let uid = connection.peer.uid
                let did = before.reads(seat: device.seat, uid: uid, seesEverySeat: connection.seesEverySeat)
                let does = seatReaders.reads(seat: device.seat, uid: uid, seesEverySeat: connection.seesEverySeat)
                guard did != does, let monitor = connection.monitor else { continue }
                let events = does ? devices.catchUpEvents(of: device, uid: uid, now: now) : devices.closeOutEvents(of: device, uid: uid, now: now)
                for event in events where monitor.wants(event) {
                    send(event, to: connection, holder: focus.holder(for: event, of: uid), now: now)
                }
            }
        }
    }
}
