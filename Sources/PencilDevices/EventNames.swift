import CEvdev

/// libevdev's names for event types and codes ("EV_ABS / ABS_X"): what `pencilctl record`
/// writes after each event for the reader of the file (`EvemuWriter`'s `eventName`).
public enum EvdevNames {
    public static func event(type: UInt16, code: UInt16) -> String {
        let typeName = libevdev_event_type_get_name(UInt32(type)).map { String(cString: $0) } ?? "type \(type)"
        let codeName = libevdev_event_code_get_name(UInt32(type), UInt32(code)).map { String(cString: $0) } ?? "code \(code)"
        return "\(typeName) / \(codeName)"
    }
}
