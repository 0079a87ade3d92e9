import PencilInput
import PencilProtocol

/// The input benchmark behind `pencil-bench`: decoding a recording from memory, alone and
/// followed by frame assembly (PenTracker), over many repetitions. The caller supplies the
/// clock and the allocation counter, so this stays free of I/O.
public struct InputBenchmark {
    public struct Figures: Sendable {
        public var events: Int
        public var frames: Int
        public var repetitions: Int
        public var nanoseconds: UInt64
        /// Heap allocations over the timed (warm) repetitions.
        public var allocations: UInt64

        public var eventsPerSecond: Double { Double(events * repetitions) / seconds }
        public var framesPerSecond: Double { Double(frames * repetitions) / seconds }
        public var seconds: Double { max(Double(nanoseconds) / 1e9, 1e-9) }
        public var allocationsPerRepetition: Double { Double(allocations) / Double(max(repetitions, 1)) }
        public var allocationsPerFrame: Double { Double(allocations) / Double(max(frames * repetitions, 1)) }
    }

    public let bytes: [UInt8]
    public let fileName: String
    public let description: DeviceDescription
    public let eventsStart: EvemuPosition
    public let eventCount: Int

    /// Reads the header once; the repetitions decode the events.
    public init(bytes: [UInt8], fileName: String, description: DeviceDescription? = nil) throws(RecordingError) {
        let recording = try EvemuRecording(parsing: bytes, fileName: fileName, description: description)
        let header = bytes.withUnsafeBytes { raw in
            Result { () throws(RecordingError) -> EvemuHeader in try EvemuHeader(parsing: raw, fileName: fileName) }
        }
        self.bytes = bytes
        self.fileName = fileName
        self.description = recording.description
        self.eventsStart = try header.get().eventsStart
        self.eventCount = recording.events.count
    }

    /// Decoding alone, into an array reused across repetitions.
    public func decode(repetitions: Int, now: () -> UInt64, allocations: () -> UInt64) throws(RecordingError) -> Figures {
        var events: [InputEvent] = []
        events.reserveCapacity(eventCount)
        try decodeOnce(into: &events)
        let allocationsBefore = allocations()
        let start = now()
        for _ in 0..<repetitions {
            try decodeOnce(into: &events)
        }
        let elapsed = now() - start
        return Figures(events: events.count, frames: 0, repetitions: repetitions, nanoseconds: elapsed,
                       allocations: allocations() - allocationsBefore)
    }

    /// Decoding and frame assembly: each repetition decodes the recording and feeds it to one
    /// warm tracker (its times shifted past the previous repetition's), firing the forced
    /// proximity-out timer as a replay does.
    public func decodeAndAssemble(repetitions: Int, now: () -> UInt64, allocations: () -> UInt64) throws(RecordingError) -> Figures {
        try assemble(repetitions: repetitions, decoding: true, now: now, allocations: allocations)
    }

    /// Frame assembly alone, from events decoded once: how the time splits.
    public func assembleOnly(repetitions: Int, now: () -> UInt64, allocations: () -> UInt64) throws(RecordingError) -> Figures {
        try assemble(repetitions: repetitions, decoding: false, now: now, allocations: allocations)
    }

    private func assemble(repetitions: Int, decoding: Bool, now: () -> UInt64,
                          allocations: () -> UInt64) throws(RecordingError) -> Figures {
        var events: [InputEvent] = []
        events.reserveCapacity(eventCount)
        var tracker = PenTracker(description: description, id: "replay0")
        var frame = PenFrame()
        var offset: Int64 = 0
        var frames = 0
        try decodeOnce(into: &events)
        func assemble() throws(RecordingError) -> Int {
            if decoding { try decodeOnce(into: &events) }
            var count = 0
            for var event in events {
                event.time &+= offset
                if let deadline = tracker.nextDeadline, deadline <= event.time,
                   tracker.advance(to: deadline, into: &frame) {
                    count += 1
                }
                if tracker.feed(event, into: &frame) { count += 1 }
            }
            offset &+= (events.last?.time ?? 0) - (events.first?.time ?? 0) + 1_000_000
            return count
        }
        // Warm up: the frame's storage and the tracker reach their working size.
        frames = try assemble()
        let allocationsBefore = allocations()
        let start = now()
        for _ in 0..<repetitions {
            frames = try assemble()
        }
        let elapsed = now() - start
        return Figures(events: events.count, frames: frames, repetitions: repetitions, nanoseconds: elapsed,
                       allocations: allocations() - allocationsBefore)
    }

    private func decodeOnce(into events: inout [InputEvent]) throws(RecordingError) {
        events.removeAll(keepingCapacity: true)
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(RecordingError) -> Int in
                try EvemuEventDecoder.decode(raw, from: eventsStart, fileName: fileName, into: &events)
            }
        }
        _ = try result.get()
    }
}
