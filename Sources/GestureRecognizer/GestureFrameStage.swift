import PencilInput
import PencilProtocol

/// The recogniser as the stage after a PenTracker in PencilInput's replays and live reads
/// (`PenFrameStage`): each frame's events come back with the gestures at their places.
public struct GestureFrameStage: PenFrameStage {
    public private(set) var recognizer: GestureRecognizer
    private var gestures: [Event] = []
    private var replacedGestures: [Event] = []
    private var fired: [Event] = []

    public init(device: DeviceInfo, preferences: Preferences = .defaults) throws(InvalidPreferences) {
        recognizer = try GestureRecognizer(device: device, preferences: preferences)
    }

    public mutating func events(for frame: PenFrame) -> [Event] {
        gestures.removeAll(keepingCapacity: true)
        replacedGestures.removeAll(keepingCapacity: true)
        recognizer.process(frame, gestures: &gestures, replacedGestures: &replacedGestures)
        return frame.merging(gestures: gestures, replacedGestures: replacedGestures)
    }

    public var nextDeadline: Int64? { recognizer.nextDeadline }

    public mutating func fire(at time: Int64) -> [Event] {
        fired.removeAll(keepingCapacity: true)
        recognizer.advance(to: time, into: &fired)
        return fired
    }
}
