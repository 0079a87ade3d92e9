import GestureRecognizer
import PencilProtocol
import PencilSystem
import Varlink

/// PlayGesture (docs/protocol.md, "Gestures on request"): one gesture on the demo pen, as a
/// person makes it under the caller's preferences. Checked in the order a caller can act on:
/// the call's shape, the device, whether it is the demo pen, who may play one, what the preferences allow, then
/// how many wait.
extension PenService {
    /// The pen `id` names, where the caller reads it; else NoSuchDevice is replied: a pen the
    /// caller may not read is no pen of theirs.
    func readablePen(_ id: String, _ call: VarlinkCall, for connection: Connection) -> PenDevice? {
        guard let found = devices.device(id), reads(found, connection) else {
            replyError(connection, call, PenError.noSuchDevice(id))
            return nil
        }
        return found
    }

    func playGesture(_ parameters: PenParameters.PlayGesture, _ call: VarlinkCall, for connection: Connection, now: HostTime) {
        guard let gesture = Gesture(rawValue: parameters.gesture) else {
            replyError(connection, call, .invalidParameter("gesture"))
            return
        }
        let device: PenDevice
        if let id = parameters.device {
            guard let found = readablePen(id, call, for: connection) else { return }
            guard found.demo != nil else {
                replyError(connection, call, PenError.gestureNotPlayable("\(id) is not a demo pen: only pencild's demo pen plays gestures on request"))
                return
            }
            device = found
        } else {
            guard let found = devices.devices.first(where: { $0.demo != nil }), reads(found, connection) else {
                replyError(connection, call, PenError.gestureNotPlayable("pencild has no demo pen: it has one when started with --demo"))
                return
            }
            device = found
        }
        let uid = connection.peer.uid
        // A gesture played here reaches the seat user's pencil-actions, which presses its chord
        // or runs its command: on the system service, only who may press chords may play one.
        if configuration.mode == .system, seatSessions.areTracked {
            guard seatSessions.activeUser(onSeat: device.seat) == uid else {
                clientLog.log(.notice, uid: uid, now: now, "\(connection.label): gesture refused: uid \(uid) does not hold \(device.seat)")
                replyError(connection, call, PenError.permissionDenied)
                return
            }
            if let refusal = callerRefusal(connection, uid: uid, seat: device.seat) {
                clientLog.log(.notice, uid: uid, now: now, "\(connection.label): gesture refused: \(refusal)")
                replyError(connection, call, PenError.permissionDenied)
                return
            }
        }
        let current = writes.pending(of: uid) ?? preferences.preferences(for: uid)
        let script: GestureDemonstration.Script
        switch GestureDemonstration.script(for: gesture, preferences: current, device: device.info) {
        case .success(let made): script = made
        case .failure(let unplayable):
            var reason = "your \(unplayable)"
            if case .missingButton = unplayable { reason += " (the demo pen has \(device.info.buttons.map(\.rawValue).joined(separator: ", ")))" }
            replyError(connection, call, PenError.gestureNotPlayable(reason))
            return
        }
        do throws(DemoPenPlayer.Busy) {
            try devices.playGesture(script, on: device, now: now)
        } catch {
            switch error {
            case .tooManyQueued(let count):
                replyError(connection, call, PenError.gestureNotPlayable("\(count) gestures are waiting already"))
            }
            return
        }
        clientLog.log(.debug, uid: uid, now: now, "\(connection.label) plays a \(gesture.rawValue) on \(device.id)")
        let id = device.id
        reply(connection, call) { writer in writer.key("device"); writer.string(id) }
    }
}
