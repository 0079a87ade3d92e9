import PencilProtocol

/// One event (docs/protocol.md "Event"). The fields a type does not carry are nil.
public struct PencilEvent: Equatable, Sendable {
    public var type: PencilEventType
    /// Microseconds: the frame's timestamp (CLOCK_MONOTONIC for live devices, the recorded
    /// time in a replay), or a timer's deadline.
    public var time: Int64
    /// The device's id: untrusted text (see `PencilDevice`).
    public var device: String?
    /// With `deviceAdded`.
    public var deviceInfo: PencilDevice?
    public var tool: PencilTool?
    /// With `proximityIn`: which pen the tool is, when libwacom knows it.
    public var stylus: PencilStylus?
    public var pose: PencilPose?
    public var button: PencilButton?
    /// With `hover` and `squeeze`.
    public var phase: PencilPhase?
    /// With `doubleTap` and a `squeeze` that ended.
    public var action: PencilAction?
    /// With `doubleTap` and `squeeze`: who holds the user's focus. Nil from a pencild that
    /// does not send it yet.
    public var focus: PencilFocus?
    /// With `preferencesChanged`.
    public var preferences: PencilPreferences?
    /// True for a closing event this library made up because the connection to pencild
    /// ended with it open (docs/protocol.md, "When pencild goes away"); the wire has no such
    /// field.
    public var isSynthesized = false

    public init(type: PencilEventType, time: Int64, device: String? = nil, deviceInfo: PencilDevice? = nil,
                tool: PencilTool? = nil, pose: PencilPose? = nil, button: PencilButton? = nil,
                phase: PencilPhase? = nil, action: PencilAction? = nil, focus: PencilFocus? = nil,
                preferences: PencilPreferences? = nil, stylus: PencilStylus? = nil) {
        self.type = type
        self.stylus = stylus
        self.time = time
        self.device = device
        self.deviceInfo = deviceInfo
        self.tool = tool
        self.pose = pose
        self.button = button
        self.phase = phase
        self.action = action
        self.focus = focus
        self.preferences = preferences
    }
}
