import PencilProtocol
import PencilSystem
import Varlink

/// SetTipTool (docs/protocol.md, "The tip's tool on request"): the system palette's Pen and
/// Eraser, through the pen's mirror. Checked in the order a caller can act on: the call's
/// shape, the pen, its mirror, who may switch it.
extension PenService {
    func setTipTool(_ parameters: PenParameters.SetTipTool, _ call: VarlinkCall, for connection: Connection, now: HostTime) {
        let eraser: Bool
        switch parameters.tool {
        case ToolType.eraser.rawValue: eraser = true
        case ToolType.pen.rawValue: eraser = false
        default:
            replyError(connection, call, .invalidParameter("tool"))
            return
        }
        let device: PenDevice
        if let id = parameters.device {
            guard let found = readablePen(id, call, for: connection) else { return }
            device = found
        } else {
            let mirrored = devices.devices.filter { $0.tipReportedAs != nil && reads($0, connection) }
            guard mirrored.count == 1, let only = mirrored.first else {
                let why = mirrored.isEmpty ? "no pen you read has a mirror" : "\(mirrored.count) pens have a mirror: name one"
                replyError(connection, call, PenError.toolNotSwitchable(why))
                return
            }
            device = only
        }
        guard device.tipReportedAs != nil else {
            let why = device.mirrorFailure.map { "\(device.id) has no mirror: \($0)" } ?? "\(device.id) has no mirror: its gesture clicks are not withheld"
            replyError(connection, call, PenError.toolNotSwitchable(why))
            return
        }
        let uid = connection.peer.uid
        // A live pen's mirror always follows a deciding user; a replay's routed mirror
        // (--mirror-replays) may follow nobody, where logind keeps no seats: whoever reads it.
        if let owner = device.mirrorOwner, owner != uid {
            clientLog.log(.notice, uid: uid, now: now, "\(connection.label): tool switch refused: \(device.id)'s mirror follows another user")
            replyError(connection, call, PenError.permissionDenied)
            return
        }
        guard devices.setTipTool(of: device, eraser: eraser, now: now) else {
            replyError(connection, call, PenError.toolNotSwitchable("mirrorSwitchesTool is off in your preferences"))
            return
        }
        clientLog.log(.debug, uid: uid, now: now, "\(connection.label) switches \(device.id)'s tip to the \(parameters.tool)")
        let id = device.id
        let reported = (device.tipReportedAs ?? .pen).rawValue
        reply(connection, call) { writer in
            writer.key("device"); writer.string(id)
            writer.key("tipReportedAs"); writer.string(reported)
        }
    }
}
