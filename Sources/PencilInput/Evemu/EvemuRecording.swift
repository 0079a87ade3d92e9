/// A recording could not be used. `description` reads `file:line: what is wrong`, as a
/// compiler reports; `exitCode` is the sysexits code a command exits with.
public struct RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The file is missing or cannot be read (EX_NOINPUT). Why is in `reason`: the file
        /// is read by PencilDevices, and nothing decides on the system's error.
        case unreadable
        /// The file was read but is not a usable evemu recording (EX_DATAERR).
        case malformed
    }

    public var kind: Kind
    public var file: String
    /// 1-based; nil when the problem is the whole file.
    public var line: Int?
    public var reason: String

    public init(kind: Kind, file: String, line: Int?, reason: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.reason = reason
    }

    static func malformed(_ file: String, _ line: Int?, _ reason: String) -> RecordingError {
        RecordingError(kind: .malformed, file: file, line: line, reason: reason)
    }

    /// 66 (EX_NOINPUT) for a file that cannot be read, 65 (EX_DATAERR) for bad content.
    public var exitCode: Int32 {
        if case .unreadable = kind { return 66 }
        return 65
    }

    public var description: String {
        if let line { return "\(file):\(line): \(reason)" }
        return "\(file): \(reason)"
    }
}

/// What the reader accepts, so that no input can make it use unbounded memory or time.
public enum RecordingLimits {
    /// Larger files are refused before they are read (a real hour of pen input is ~100 MiB).
    public static let maximumFileSize = 512 << 20
    /// Longer lines are malformed (evemu's longest, a DMI comment, is a few hundred bytes).
    public static let maximumLineLength = 16 << 10
    /// evemu writes at most 8 bytes per line; KEY_CNT needs 96. More is not a device.
    static let maximumBitmaskBytes = 128
    static let maximumNameLength = 1024
}

/// An evemu recording (`evemu-record` output): the device's description from its header
/// (`N:`, `I:`, `P:`, `B:`, `A:` lines) or from a separate `.desc`, and its events.
///
/// Times are microseconds, read as evemu reads them: `<seconds>.<microseconds>` as two
/// integers. A recording whose times go backwards is accepted, but no event is given a time
/// earlier than the one before it: such an event takes the previous event's time (counted
/// in `clampedTimeCount`), so that everything downstream sees time that never goes back.
public struct EvemuRecording: Sendable {
    public var description: DeviceDescription
    public var events: [InputEvent]
    /// Events whose recorded time was earlier than their predecessor's.
    public var clampedTimeCount: Int

    public init(description: DeviceDescription, events: [InputEvent], clampedTimeCount: Int = 0) {
        self.description = description
        self.events = events
        self.clampedTimeCount = clampedTimeCount
    }

    /// Parses a recording held in memory. `description`, when given, describes the device
    /// instead of the file's header (a `.desc` paired with a headerless `.events`).
    public init(parsing bytes: UnsafeRawBufferPointer, fileName: String,
                description: DeviceDescription? = nil) throws(RecordingError) {
        let header = try EvemuHeader(parsing: bytes, fileName: fileName)
        guard let device = description ?? header.description else {
            if header.eventsStart.offset < bytes.count {
                throw .malformed(fileName, header.eventsStart.line,
                                 "event before any device header (a headerless recording needs its .desc)")
            }
            throw .malformed(fileName, nil, "no device header (N: line) and no events: not an evemu recording")
        }
        var events: [InputEvent] = []
        events.reserveCapacity(EvemuEventDecoder.estimatedEventCount(byteCount: bytes.count - header.eventsStart.offset))
        let clamped = try EvemuEventDecoder.decode(bytes, from: header.eventsStart, fileName: fileName, into: &events)
        self.init(description: device, events: events, clampedTimeCount: clamped)
    }

    public init(parsing bytes: [UInt8], fileName: String, description: DeviceDescription? = nil) throws(RecordingError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(RecordingError) -> EvemuRecording in
                try EvemuRecording(parsing: raw, fileName: fileName, description: description)
            }
        }
        self = try result.get()
    }

    public init(parsing text: String, fileName: String, description: DeviceDescription? = nil) throws(RecordingError) {
        try self.init(parsing: Array(text.utf8), fileName: fileName, description: description)
    }

    /// Reads a device description: the header of a `.desc` (or of any recording; its events
    /// are not decoded).
    public static func parseDescription(_ bytes: UnsafeRawBufferPointer, fileName: String) throws(RecordingError) -> DeviceDescription {
        let header = try EvemuHeader(parsing: bytes, fileName: fileName)
        guard let description = header.description else {
            throw .malformed(fileName, header.eventsStart.offset < bytes.count ? header.eventsStart.line : nil,
                             "no device header (N: line): not an evemu device description")
        }
        return description
    }
}

extension DeviceDescription {
    /// The EV_SYN codes every evdev device has; descriptions list them the same way whatever
    /// they were read from.
    public static let synchronisationCodes: Set<UInt16> = [
        EventCode.SYN_REPORT, EventCode.SYN_CONFIG, EventCode.SYN_MT_REPORT, EventCode.SYN_DROPPED,
    ]
}
