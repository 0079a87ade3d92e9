import GestureRecognizer
import PencilInput
import PencilProtocol

/// Measures the recogniser alone on a cycle of prepared frames: hovering, a double-tap, a
/// squeeze with motion, a stroke, a long press on a one-button pen. The caller passes the
/// clock and the allocation counter, as for `InputBenchmark`; pencil-bench prints the figures.
public enum GestureRecognizerBenchmark {
    public struct Figures: Sendable, CustomStringConvertible {
        public var frames: Int
        public var gestures: Int
        public var seconds: Double
        /// Heap allocations during the timed run (after a warm-up).
        public var allocations: UInt64
        public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
        public var nanosecondsPerFrame: Double { frames > 0 ? seconds * 1e9 / Double(frames) : 0 }
        public var allocationsPerFrame: Double { Double(allocations) / Double(max(frames, 1)) }

        public var description: String {
            let perSecond = (framesPerSecond / 1e5).rounded() / 10
            let perFrame = (nanosecondsPerFrame * 10).rounded() / 10
            return "gestures alone:    \(perSecond) M frames/s (\(perFrame) ns/frame, \(gestures) gestures in \(frames) frames), "
                + "\(allocations) allocations"
        }
    }

    /// Runs `frames` frames, half on a two-button pen (dedicated squeeze) and half on a
    /// one-button pen (long press). `now` gives nanoseconds; `allocations` a running count.
    public static func run(frames: Int, now: () -> UInt64, allocations: () -> UInt64) -> Figures {
        var twoButtons = Workload(device: device(buttons: [.stylus, .stylus2]))
        var oneButton = Workload(device: device(buttons: [.stylus]))
        // Warm up: the output arrays reach their working size.
        twoButtons.run(frames: 1_000)
        oneButton.run(frames: 1_000)
        let half = max(frames, 0) / 2
        let allocationsBefore = allocations()
        let start = now()
        twoButtons.run(frames: half)
        oneButton.run(frames: max(frames, 0) - half)
        let end = now()
        let allocationsAfter = allocations()
        return Figures(frames: max(frames, 0), gestures: twoButtons.gestureCount + oneButton.gestureCount,
                       seconds: Double(end &- start) / 1e9, allocations: allocationsAfter &- allocationsBefore)
    }

    static func device(buttons: [PenButton]) -> DeviceInfo {
        DeviceInfo(id: "bench0", name: "Benchmark Pen", bus: 3, vendor: 0x56a, product: 0x5b, direct: true,
                   tools: [.pen, .eraser], axes: [.pressure, .distance, .tilt], buttons: buttons)
    }

    struct Workload {
        let start: GestureRecognizer
        var recognizer: GestureRecognizer
        let frames: [PenFrame]
        var next = 0
        var gestures: [Event] = []
        var replaced: [Event] = []
        var gestureCount = 0

        init(device: DeviceInfo) {
            // Default preferences are valid by construction.
            start = (try? GestureRecognizer(device: device)) ?? { fatalError("default preferences are valid") }()
            recognizer = start
            frames = Self.cycle()
            gestures.reserveCapacity(8)
            replaced.reserveCapacity(4)
        }

        mutating func run(frames count: Int) {
            // Work on locals, which the optimiser can see are disjoint; the output arrays are
            // moved out rather than copied so that they stay uniquely referenced.
            let frames = self.frames
            var recognizer = self.recognizer
            var gestures: [Event] = []
            var replaced: [Event] = []
            swap(&gestures, &self.gestures)
            swap(&replaced, &self.replaced)
            var next = self.next
            var total = 0
            // The cycle ends with the pen out of range and every machine idle, so each cycle
            // starts from the same recogniser on the same frames.
            frames.withUnsafeBufferPointer { frames in
                for _ in 0..<count {
                    if !gestures.isEmpty { gestures.removeAll(keepingCapacity: true) }
                    if !replaced.isEmpty { replaced.removeAll(keepingCapacity: true) }
                    if let deadline = recognizer.nextDeadline, deadline <= frames[next].time {
                        recognizer.advance(to: deadline, into: &gestures)
                    }
                    recognizer.process(frames[next], gestures: &gestures, replacedGestures: &replaced)
                    total &+= gestures.count &+ replaced.count
                    next += 1
                    if next == frames.count {
                        next = 0
                        recognizer = start
                    }
                }
            }
            self.recognizer = recognizer
            self.gestures = gestures
            self.replaced = replaced
            self.next = next
            gestureCount &+= total
        }

        /// One cycle of what a person does, as the tracker would frame it, 5 ms apart.
        static func cycle() -> [PenFrame] {
            let pen = Tool(type: .pen, serial: 0x1234, id: 0x802)
            var steps: [(inout PenState) -> Void] = []
            steps.append { $0.tool = pen }
            for _ in 0..<8 { steps.append { $0.pose.x += 0.001 } }
            steps.append { $0.buttons.insert(.stylus) }
            for _ in 0..<8 { steps.append { $0.pose.y += 0.0001 } }
            steps.append { $0.buttons.remove(.stylus) }
            for _ in 0..<8 { steps.append { $0.pose.y -= 0.0001 } }
            steps.append { $0.buttons.insert(.stylus) }  // a double-tap
            steps.append { $0.buttons.remove(.stylus) }
            steps.append { $0.buttons.insert(.stylus2) }  // a squeeze, or nothing on one button
            for _ in 0..<16 { steps.append { $0.pose.x += 0.002 } }
            steps.append { $0.buttons.remove(.stylus2) }
            steps.append { $0.tipDown = true; $0.pose.pressure = 0.4 }
            for _ in 0..<40 { steps.append { $0.pose.x -= 0.001; $0.pose.pressure += 0.01 } }
            steps.append { $0.tipDown = false; $0.pose.pressure = 0 }
            steps.append { $0.buttons.insert(.stylus) }  // held past the long press
            for _ in 0..<120 { steps.append { $0.pose.zOffset = ($0.pose.zOffset ?? 0) + 0.00001 } }
            steps.append { $0.buttons.remove(.stylus) }
            for _ in 0..<8 { steps.append { $0.pose.x += 0.001 } }
            steps.append { $0.tool = nil; $0.buttons = [] }
            for _ in 0..<40 { steps.append { _ in } }  // out of range: frames with nothing new

            var frames: [PenFrame] = []
            var state = PenState()
            var pose = Pose()
            pose.x = 0.3
            pose.y = 0.3
            pose.xMillimeters = 0
            pose.yMillimeters = 0
            state.pose = pose
            var time: Int64 = 1_000_000
            for step in steps {
                var frame = PenFrame()
                frame.reset(kind: .report, time: time)
                frame.device = "bench0"
                frame.previous = state
                step(&state)
                state.pose.xMillimeters = state.pose.x * 480
                state.pose.yMillimeters = state.pose.y * 270
                frame.current = state
                frame.pressed = state.buttons.subtracting(frame.previous.buttons)
                frame.released = frame.previous.buttons.subtracting(state.buttons)
                frames.append(frame)
                time += 5_000
            }
            return frames
        }
    }
}
