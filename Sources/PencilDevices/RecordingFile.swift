import PencilInput
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

// Recordings read from files: the decoding itself (EvemuRecording) takes bytes and stays in
// the pure core; opening and reading the file is here, beside the other device I/O.

extension EvemuRecording {
    /// Loads `path`, and `descriptionPath` (a `.desc`) when the events have no header of
    /// their own. A missing or unreadable file is `.unreadable`, bad content `.malformed`.
    public static func load(path: String, descriptionPath: String? = nil) throws(RecordingError) -> EvemuRecording {
        var description: DeviceDescription?
        if let descriptionPath {
            let bytes = try readRecordingFile(descriptionPath)
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(RecordingError) -> DeviceDescription in
                    try parseDescription(raw, fileName: descriptionPath)
                }
            }
            description = try result.get()
        }
        let bytes = try readRecordingFile(path)
        return try EvemuRecording(parsing: bytes, fileName: path, description: description)
    }
}

/// Reads a whole file, refusing one larger than RecordingLimits.maximumFileSize.
public func readRecordingFile(_ path: String) throws(RecordingError) -> [UInt8] {
    let descriptor: FileDescriptor
    do {
        descriptor = try FileDescriptor.open(path, [.readOnly, .closeOnExec])
    } catch {
        throw RecordingError(kind: .unreadable, file: path, line: nil, reason: "cannot open: \(error)")
    }
    defer { descriptor.close() }
    let limit = RecordingLimits.maximumFileSize
    do {
        return try FileSystem.read(descriptor, maximumBytes: limit)
    } catch {
        if error == .fileTooLarge {
            throw RecordingError(kind: .malformed, file: path, line: nil,
                                 reason: "larger than \(limit >> 20) MiB: too large for a recording")
        }
        throw RecordingError(kind: .unreadable, file: path, line: nil, reason: "cannot read: \(error)")
    }
}
