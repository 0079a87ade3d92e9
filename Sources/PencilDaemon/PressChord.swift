import PencilDevices
import PencilProtocol
import PencilSystem
import Varlink

/// PressChord (docs/protocol.md, "Key chords"): a chord on pencild's keyboard for the user at
/// the device's seat. Checked in the order a caller can act on: the call's shape, the device,
/// the keys, who holds the seat, then the keyboard itself.
extension PenService {
    func pressChord(_ parameters: PenParameters.PressChord, _ call: VarlinkCall, for connection: Connection, now: HostTime) {
        let names = parameters.keys
        // At most eight keys, each name short and without "+": the keys are a list, not a chord's text.
        guard (1...8).contains(names.count), names.allSatisfy({ (1...32).contains($0.utf8.count) && !$0.contains("+") }) else {
            replyError(connection, call, .invalidParameter("keys"))
            return
        }
        var seat = SeatKeyboard.seat
        if let id = parameters.device {
            // A pen the caller may not read is no pen of theirs.
            guard let device = devices.device(id), reads(device, connection) else {
                replyError(connection, call, PenError.noSuchDevice(id))
                return
            }
            seat = device.seat
        }
        let chord: KeyChord
        switch KeyChord.parse(names.joined(separator: "+")) {
        case .success(let parsed): chord = parsed
        case .failure(let error):
            replyError(connection, call, PenError.keyNotAllowed(key: error.keyName ?? names.joined(separator: "+"), reason: error.description))
            return
        }
        if let refusal = ChordPolicy.refusal(of: chord) {
            clientLog.log(.info, uid: connection.peer.uid, now: now, "\(connection.label): chord \(chord) refused: \(refusal)")
            replyError(connection, call, PenError.keyNotAllowed(key: refusal.key, reason: refusal.reason))
            return
        }
        let uid = connection.peer.uid
        guard seat == SeatKeyboard.seat else {
            replyError(connection, call, PenError.keyboardUnavailable("pencild's keyboard types on \(SeatKeyboard.seat); the device is on \(seat)"))
            return
        }
        switch keyAccess(uid: uid) {
        case .allowed:
            // The user at the seat, but perhaps not from there: an SSH login or a cron job of
            // the same uid types into nobody's session.
            if let refusal = callerRefusal(connection, uid: uid, seat: seat) {
                clientLog.log(.notice, uid: uid, now: now, "\(connection.label): chord \(chord) refused: \(refusal)")
                replyError(connection, call, PenError.permissionDenied)
                return
            }
        case .denied:
            clientLog.log(.notice, uid: uid, now: now, "\(connection.label): chord \(chord) refused: uid \(uid) does not hold \(seat)")
            replyError(connection, call, PenError.permissionDenied)
            return
        case .noKeyboard(let reason):
            clientLog.log(.debug, uid: uid, now: now, "\(connection.label): chord \(chord) not pressed: \(reason)")
            replyError(connection, call, PenError.keyboardUnavailable(reason))
            return
        }
        do {
            try keyboard.press(chord, for: uid, now: now)
        } catch {
            switch error {
            case .unavailable(let reason):
                clientLog.log(.warning, uid: uid, now: now, "\(connection.label): chord \(chord) not pressed: \(reason)")
                replyError(connection, call, PenError.keyboardUnavailable(reason))
            }
            return
        }
        clientLog.log(.debug, uid: uid, now: now, "\(connection.label): chord \(chord)")
        reply(connection, call) { _ in }
    }

    enum KeyAccess: Equatable {
        case allowed
        /// Another user holds the seat.
        case denied
        /// This daemon has no keyboard for that user, whoever holds the seat.
        case noKeyboard(String)
    }

    /// Whether `uid` may have keys pressed on the keyboard's seat: only the user of the seat's
    /// active session, and nobody where logind keeps no seats (nobody is known to be there).
    /// Only the system service has a keyboard: a user's pencild would hold /dev/uinput with no
    /// more right than its user's own programs, so it leaves chords to them.
    func keyAccess(uid: UInt32) -> KeyAccess {
        let seat = SeatKeyboard.seat
        guard configuration.mode == .system else {
            return .noKeyboard("a user's pencild has no keyboard: the system service presses chords for the seat's active user")
        }
        guard seatSessions.areTracked else { return .noKeyboard("logind keeps no seats here: nobody is known to be at \(seat)") }
        return seatSessions.activeUser(onSeat: seat) == uid ? .allowed : .denied
    }

    func mayPressKeys(uid: UInt32) -> Bool { keyAccess(uid: uid) == .allowed }

    /// The keyboard's frames due now, each while its owner still holds the seat.
    func playChords(now: HostTime) {
        keyboard.playDue(now: now, stillHolds: mayPressKeys(uid:))
    }
}
