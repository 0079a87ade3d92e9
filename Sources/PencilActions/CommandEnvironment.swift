import PencilClient
import PencilDevices
import PencilProtocol

/// The environment a command binding runs with: pencil-actions' own, minus any `PENCIL_*`
/// variable it inherited, plus the event's fields. The daemon's text reaches a command only
/// in a shape it can trust: a tool or a phase only when it is one of the protocol's names, a
/// device id only when it is plain (`isPlainDeviceID`); anything else leaves the variable out.
public enum CommandEnvironment {
    /// `PENCIL_GESTURE` for `pencilctl actions test`, which has no gesture.
    public static let testGesture = "test"

    public static func variables(for request: GestureRequest) -> [(String, String)] {
        var variables: [(String, String)] = [
            ("PENCIL_ACTION", request.action.rawValue),
            ("PENCIL_GESTURE", request.event?.type.rawValue ?? testGesture),
        ]
        guard let event = request.event else { return variables }
        variables.append(("PENCIL_TIME", String(event.time)))
        if let phase = event.phase, phase.isKnown { variables.append(("PENCIL_PHASE", phase.rawValue)) }
        variables.append(("PENCIL_FOCUS", (event.focus ?? .nobody).rawValue))
        if let device = event.device, isPlainDeviceID(device) { variables.append(("PENCIL_DEVICE", device)) }
        if let tool = event.tool {
            if tool.type.isKnown { variables.append(("PENCIL_TOOL", tool.type.rawValue)) }
            variables.append(("PENCIL_TOOL_SERIAL", String(tool.serial)))
        }
        if let pose = event.pose {
            let fields: [(String, Double?)] = [
                ("PENCIL_X", pose.x), ("PENCIL_Y", pose.y),
                ("PENCIL_X_MM", pose.xMillimeters), ("PENCIL_Y_MM", pose.yMillimeters),
                ("PENCIL_PRESSURE", pose.pressure), ("PENCIL_Z_OFFSET", pose.zOffset),
                ("PENCIL_TILT_X", pose.tiltX), ("PENCIL_TILT_Y", pose.tiltY),
                ("PENCIL_AZIMUTH", pose.azimuth), ("PENCIL_ALTITUDE", pose.altitude),
                ("PENCIL_ROLL", pose.roll),
            ]
            for (name, value) in fields {
                if let value { variables.append((name, decimal(value))) }
            }
        }
        return variables
    }

    /// The device ids a command gets: `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$` (pencild's are
    /// `event7`, `replay0`, `demo0`). The first character is a letter or a digit: an id that
    /// begins with `-` would be taken for an option by a command given it as an argument
    /// (`sh -c 'ls "$PENCIL_DEVICE"'`), and one that is `.` or `..` for a directory.
    public static func isPlainDeviceID(_ id: String) -> Bool {
        let bytes = id.utf8
        guard (1...64).contains(bytes.count), let first = bytes.first, isLetterOrDigit(first) else { return false }
        return bytes.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
                return true
            default:
                return false
            }
        }
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        default: return false
        }
    }

    /// `inherited` ("NAME=value" strings) with the request's variables in place of any
    /// `PENCIL_*` it had.
    public static func environment(for request: GestureRequest, inherited: [String]) -> [String] {
        var result = inherited.filter { !$0.hasPrefix("PENCIL_") }
        result += variables(for: request).map { "\($0.0)=\($0.1)" }
        return result
    }

    /// Plain decimal, as the protocol writes numbers.
    static func decimal(_ value: Double) -> String {
        var writer = JSONWriter(capacity: 32)
        writer.double(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
