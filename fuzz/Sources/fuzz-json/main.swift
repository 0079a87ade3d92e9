// Fuzzes what pencild reads from clients and files as JSON: the bounded JSON reader, and
// the protocol's decoders on top of it (preferences, events).
//
// Findings: a crash or hang in any of them, and these round trips failing:
//   - a value the reader accepts is written by JSONWriter and read back unchanged;
//   - an event that decodes is written and decodes to the same event;
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
        let text = event.jsonText
        guard let reread = try? JSONReader.parse(Array(text.utf8)), let decoded = try? Event(json: reread) else {
            fatalError("an event's own JSON does not decode: \(text)")
        }
        check(decoded == event, "an event changed in a write/decode round trip: \(text)")
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
