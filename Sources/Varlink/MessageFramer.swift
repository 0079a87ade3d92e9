import PencilSystem

/// Varlink's framing: every message is one JSON object followed by a NUL byte. Bytes arrive in
/// pieces of any size; `MessageFramer` collects them and hands out whole messages, refusing to
/// hold more than `maximumMessageSize` bytes of one message.
public struct MessageFramer: Sendable {
    public let maximumMessageSize: Int
    private var buffer: [UInt8] = []
    /// Start of the first message not yet handed out.
    private var start = 0
    /// Where the search for the next NUL resumes (bytes before it hold none).
    private var scanned = 0

    public init(maximumMessageSize: Int) {
        self.maximumMessageSize = maximumMessageSize
    }

    /// Bytes received but not yet part of a handed-out message.
    public var bufferedByteCount: Int { buffer.count - start }
    /// True while part of a message has arrived without its NUL.
    public var hasPartialMessage: Bool { bufferedByteCount > 0 }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    public mutating func append<S: Sequence<UInt8>>(contentsOf bytes: S) {
        compactIfWorthwhile()
        buffer.append(contentsOf: bytes)
    }

    /// The next whole message without its NUL, nil when none is complete yet. Throws when the
    /// message in progress is already longer than the limit: the stream cannot be trusted after that.
    public mutating func nextMessage() throws(FramingError) -> ArraySlice<UInt8>? {
        var index = max(scanned, start)
        while index < buffer.count {
            if buffer[index] == 0 {
                let message = buffer[start..<index]
                if message.count > maximumMessageSize { throw .messageTooLarge(limit: maximumMessageSize) }
                start = index + 1
                scanned = start
                return message
            }
            index += 1
        }
        scanned = index
        if buffer.count - start > maximumMessageSize { throw .messageTooLarge(limit: maximumMessageSize) }
        return nil
    }

    private mutating func compactIfWorthwhile() {
        guard start > 0 else { return }
        if start == buffer.count {
            // Give back large buffers once they are empty; keep small ones for reuse.
            if buffer.capacity > 16 * 1024 { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
            start = 0
            scanned = 0
        } else if start >= 4096 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
    }
}

extension MessageFramer {
    /// Receives what `descriptor` has, at most `scratch.count` bytes, and appends it; returns
    /// how many bytes came (0: the peer closed). A non-blocking descriptor with nothing to
    /// read throws `.wouldBlock`.
    public mutating func receive(from descriptor: FileDescriptor, using scratch: inout [UInt8]) throws(Errno) -> Int {
        let count = try scratch.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) -> Int in try UnixSocket.receive(descriptor, into: raw) }
        }.get()
        scratch.withUnsafeBytes { append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        return count
    }
}
