import PencilTime

/// One evdev event with its timestamp in microseconds (CLOCK_MONOTONIC live, the recorded
/// time in a recording).
public struct InputEvent: Equatable, Sendable {
    public var time: Int64
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: Int64, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    public var isSynReport: Bool { type == EventCode.EV_SYN && code == EventCode.SYN_REPORT }
    public var isSynDropped: Bool { type == EventCode.EV_SYN && code == EventCode.SYN_DROPPED }
}

extension DeviceTime {
    /// The time of an event as it was read or recorded.
    public init(of event: InputEvent) { self.init(microseconds: event.time) }
}
