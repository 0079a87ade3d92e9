import PencilInput
import PencilProtocol

/// The recogniser as the stage after a PenTracker: each frame's events come out with the
/// double-taps and squeezes at their places.
extension GestureRecognizer: PenFrameStage {
    public mutating func process(_ frame: borrowing PenFrame, into output: inout [Event]) {
        if hasEraserSwap, !eraserSwap!.passesThrough(frame) {
            var swap = eraserSwap.take()!
            swap.transform(frame)
            processSwapFrames(of: &swap, into: &output)
            return
        }
        processWithGestures(frame, into: &output)
    }

    /// The frames the eraser swap made, each with its gestures; then the swap is put back
    /// (or dropped, once idle, when the preference no longer wants it).
    mutating func processSwapFrames(of swap: inout EraserButtonSwap, into output: inout [Event]) {
        for index in 0..<swap.frameCount {
            processWithGestures(swap.frames[index], into: &output)
        }
        if settings.eraserIsButton || swap.state != .idle { eraserSwap = swap }
    }

    private mutating func processWithGestures(_ frame: borrowing PenFrame, into output: inout [Event]) {
        // Taken out while `process` mutates self; empty arrays cost no allocation.
        var buffers = scratch
        scratch = GestureScratch()
        buffers.gestures.removeAll(keepingCapacity: true)
        buffers.replacedGestures.removeAll(keepingCapacity: true)
        process(frame, gestures: &buffers.gestures, replacedGestures: &buffers.replacedGestures)
        frame.appendEvents(gestures: buffers.gestures, replacedGestures: buffers.replacedGestures, into: &output)
        scratch = buffers
    }
}

/// Storage the recogniser reuses from frame to frame, so that a warm one allocates nothing.
struct GestureScratch: Sendable {
    var gestures: [Event] = []
    var replacedGestures: [Event] = []
}

/// A tracker and one user's recogniser: the whole pure pipeline of one device.
public typealias GesturePipeline = PenPipeline<GestureRecognizer>

extension PenPipeline where Stage == GestureRecognizer {
    public init(description: DeviceDescription, id: String, preferences: Preferences = .defaults,
                identity: PenIdentity = .unknown) throws(InvalidPreferences) {
        let tracker = PenTracker(description: description, id: id, identity: identity)
        self.init(tracker: tracker, stage: try GestureRecognizer(device: tracker.deviceInfo, preferences: preferences, identity: identity))
    }

    public var recognizer: GestureRecognizer { stage }

    /// See `GestureRecognizer.setPreferences`: a squeeze cut short by new rules is cancelled.
    public mutating func setPreferences(_ preferences: Preferences, at time: Int64, into output: inout [Event]) throws(InvalidPreferences) {
        try stage.setPreferences(preferences, at: time, into: &output)
    }

    /// A whole recording with gestures, as `pencilctl events` prints it.
    public static func events(of recording: [InputEvent], description: DeviceDescription, id: String = "replay0",
                              preferences: Preferences = .defaults, identity: PenIdentity = .unknown) throws(InvalidPreferences) -> [Event] {
        events(of: recording, pipeline: try PenPipeline(description: description, id: id, preferences: preferences, identity: identity))
    }
}
