// Fuzzes the evemu reader: recordings and device descriptions come from files anyone can
// hand to `pencild --replay` or `pencilctl events`.
//
// Findings: a crash or hang, a recording accepted with events whose times go back (the
// reader promises they never do), and an error without the file's name.
import FuzzSupport
import PencilInput

let fileName = "fuzzed.evemu"

runFuzzer { bytes in
    do throws(RecordingError) {
        let recording = try EvemuRecording(parsing: bytes, fileName: fileName)
        var previous = Int64.min
        for event in recording.events {
            check(event.time >= previous, "event times go back: \(previous) then \(event.time)")
            previous = event.time
        }
        check(recording.clampedTimeCount <= recording.events.count, "more clamped times than events")
    } catch {
        check(error.description.hasPrefix(fileName), "an error that does not name the file: \(error)")
    }
    do throws(RecordingError) {
        _ = try EvemuRecording.parseDescription(bytes, fileName: fileName)
    } catch {
        check(error.description.hasPrefix(fileName), "an error that does not name the file: \(error)")
    }
}
