import JSON

/// Writes replies: `{"parameters": {...}, "continues": true}` and
/// `{"error": "iface.Error", "parameters": {...}}`, each followed by NUL.
public enum ReplyEncoder {
    /// Appends one reply whose parameters `writeParameters` writes as the members of an object
    /// (with `writer.key(...)` and a value each).
    public static func reply(into writer: inout JSONWriter, continues: Bool = false, _ writeParameters: (inout JSONWriter) -> Void) {
        writer.beginObject()
        writer.key("parameters")
        writer.beginObject()
        writeParameters(&writer)
        writer.endObject()
        if continues { writer.key("continues"); writer.bool(true) }
        writer.endObject()
        writer.bytes.append(0)
    }

    /// Appends `{"parameters":{"event":VALUE},"continues":true}` and the NUL: a stream's reply
    /// around one event, written in one piece (the envelope is constant text) from the event
    /// where it lies, uncopied.
    @inlinable
    public static func continuingReply<Event: JSONFragment>(into writer: inout JSONWriter, event: UnsafePointer<Event>) {
        writer.write(#"{"parameters":{"event":"#, event, "},\"continues\":true}\0")
    }

    public static func reply(into writer: inout JSONWriter, parameters: JSONValue, continues: Bool = false) {
        reply(into: &writer, continues: continues) { writer in
            if case .object(let members) = parameters {
                for (name, value) in members { writer.key(member: name); writer.value(value) }
            }
        }
    }

    public static func error(into writer: inout JSONWriter, _ error: VarlinkError) {
        writer.beginObject()
        writer.key("error"); writer.string(error.name)
        writer.key("parameters"); writer.value(error.parameters)
        writer.endObject()
        writer.bytes.append(0)
    }
}
