// Fuzzes what pencild reads from clients and files as JSON: the bounded JSON reader, and
// the protocol's decoders on top of it (preferences, events).
//
// Findings: a crash or hang in any of them, and these round trips failing:
//   - a value the reader accepts is written by JSONWriter and read back unchanged;
//   - an event that decodes, once written (floats rounded) and read, stays the same when
//     written and read again;
//   - preferences that merge are valid, and merge again from their own JSON unchanged.
import FuzzSupport
import PencilProtocol

runFuzzer { bytes in
    // Depth limits are part of the reader's contract: try a tight one as well.
    let maxDepth = bytes.first.map { Int($0 % 8) + 1 } ?? 1
    _ = try? JSONReader.parse(bytes, maxDepth: maxDepth)

    guard let value = try? JSONReader.parse(bytes) else { return }

    var writer = JSONWriter()
    writer.value(value)
    let again: JSONValue
    do {
        again = try JSONReader.parse(writer.bytes)
    } catch {
        fatalError("JSONWriter wrote what JSONReader refuses (\(error)): \(value.jsonText)")
    }
    check(again == value, "JSON changed in a write/read round trip: \(value.jsonText)")

    if let event = try? Event(json: value) {
        // Floats are rounded on the wire (docs/protocol.md, "Numbers on the wire"), so the first
        // write may change a value; from then on a value read from the wire is written back
        // unchanged, whatever it is.
        func rewritten(_ event: Event) -> Event {
            let text = event.jsonText
            guard let reread = try? JSONReader.parse(Array(text.utf8)), let decoded = try? Event(json: reread) else {
                fatalError("an event's own JSON does not decode: \(text)")
            }
            return decoded
        }
        let once = rewritten(event)
        let twice = rewritten(once)
        check(twice == once, "an event read from the wire changed when written again: \(once.jsonText) became \(twice.jsonText)")
    }

    if let preferences = try? Preferences.defaults.merging(value) {
        do {
            try preferences.validate()
        } catch {
            fatalError("merging produced invalid preferences: \(error)")
        }
        guard let merged = try? Preferences.defaults.merging(preferences.jsonValue) else {
            fatalError("preferences' own JSON does not merge: \(preferences.jsonValue)")
        }
        check(merged == preferences, "preferences changed in a JSON round trip")
    }
}
