import PencilClient
import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem

/// The events a recording writes to a virtual device, and when. Pure: the clock and the
/// device come in through `play`.
///
/// Left out: SYN_DROPPED and SYN_CONFIG (the kernel reports its own drops), and events of
/// codes the description does not declare (the kernel would drop them silently).
struct EmulationPlan {
    let events: [InputEvent]
    let unsupportedCount: Int

    init(_ recording: EvemuRecording) {
        var kept: [InputEvent] = []
        kept.reserveCapacity(recording.events.count)
        var unsupported = 0
        for event in recording.events {
            if event.type == EventCode.EV_SYN {
                if event.code == EventCode.SYN_REPORT || event.code == EventCode.SYN_MT_REPORT { kept.append(event) }
            } else if recording.description.has(type: event.type, code: event.code) {
                kept.append(event)
            } else {
                unsupported += 1
            }
        }
        events = kept
        unsupportedCount = unsupported
    }

    var frameCount: Int { events.reduce(0) { $0 + ($1.isSynReport ? 1 : 0) } }

    /// Microseconds from the first event to the last, as recorded.
    var duration: Int64 {
        guard let first = events.first, let last = events.last else { return 0 }
        return max(0, last.time - first.time)
    }

    /// Writes every event, each frame at its due time: the first at once, each later one
    /// after its recorded delay divided by the speed factor. Sleeps go to absolute deadlines,
    /// so a late frame (a busy host) is written at once and later ones keep their schedule;
    /// as fast as possible, nothing sleeps.
    func play<Output: EmulationOutput, Clock: EmulationClock>(speed: PlaybackSpeed, into output: inout Output,
                                                              clock: Clock) throws(Errno) -> EmulationResult {
        let start = clock.now()
        var player = RecordingPlayer(EvemuRecording(description: DeviceDescription(name: ""), events: events),
                                     speed: speed, startingAt: HostTime(microseconds: start))
        var result = EmulationResult()
        var failure: Errno?
        var lastWrite = start
        while failure == nil, let due = player.nextDueTime?.microseconds {
            if speed.factor.isFinite {
                clock.sleep(until: due)
                let now = clock.now()
                result.lateness = max(result.lateness, now - due)
            }
            _ = player.read(at: HostTime(microseconds: due), limit: Int.max) { item in
                guard failure == nil, case .event(let event) = item else { return }
                do throws(Errno) {
                    try output.write(event)
                    result.eventCount += 1
                    if event.isSynReport { result.frameCount += 1 }
                } catch {
                    failure = error
                }
            }
            lastWrite = clock.now()
        }
        if let failure { throw failure }
        result.elapsed = lastWrite - start
        return result
    }
}
