import PencilProtocol

/// Turns one device's evdev events into the protocol's pen events, frame by frame
/// (gestures.md: Frames, Proximity, Tip, Pose, Hover, Order, When a device goes away).
///
/// Pure: no I/O and no clock. Time comes in with the events; the forced proximity-out is a
/// deadline the owner reads from `nextDeadline` and delivers with `advance(to:into:)`.
public struct PenTracker: Sendable {
    public let deviceInfo: DeviceInfo
    public let description: DeviceDescription

    public init(description: DeviceDescription, id: String) {
        fatalError("unimplemented")
    }

    /// The pen at the end of the last frame.
    public var state: PenState { fatalError("unimplemented") }

    /// Fills `frame` with the device's deviceAdded.
    public mutating func start(at time: Int64, into frame: inout PenFrame) {
        fatalError("unimplemented")
    }

    /// Feeds one evdev event. Returns true when it completed a frame (a SYN_REPORT), which is
    /// then in `frame`; `frame` is reset and refilled, never reallocated once warm.
    /// A SYN_DROPPED event discards the frame in progress and everything up to the next
    /// SYN_REPORT (recordings; live sources call `beginResynchronisation()` instead).
    public mutating func feed(_ event: InputEvent, into frame: inout PenFrame) -> Bool {
        fatalError("unimplemented")
    }

    /// Live sources: libevdev reported SYN_DROPPED and is about to replay the device's real
    /// state; the frame in progress is dropped and the next frame is marked resynchronised.
    public mutating func beginResynchronisation() {
        fatalError("unimplemented")
    }

    /// When the forced proximity-out will fire unless a frame comes first, or nil.
    public var nextDeadline: Int64? { fatalError("unimplemented") }

    /// Fires the forced proximity-out if `time` has reached its deadline; returns true when
    /// `frame` then holds it (at the deadline's time).
    public mutating func advance(to time: Int64, into frame: inout PenFrame) -> Bool {
        fatalError("unimplemented")
    }

    /// The device went away (unplug, or the end of a replay): closes what is open at the time
    /// of the last frame and ends with deviceRemoved.
    public mutating func remove(into frame: inout PenFrame) {
        fatalError("unimplemented")
    }

    /// The events that bring a new subscriber to the current state: proximityIn, then tipDown
    /// or hover began, then buttonDown for each held button (protocol.md, Monitor).
    public func catchUpEvents(at time: Int64) -> [Event] {
        fatalError("unimplemented")
    }
}
