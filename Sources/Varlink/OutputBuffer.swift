/// What one client has yet to receive: whole messages, contiguous, written from `sent` on.
///
/// Coalescing: a stream reply with a `CoalescingKey` replaces the last message in the buffer
/// when that message has the same key and none of it has been sent yet: the client is behind,
/// and the newer update supersedes the older (a pen's motion, say). Only the last message is
/// ever replaced, so messages keep their order and none without a key is ever dropped.
public struct OutputBuffer: Sendable {
    public private(set) var bytes: [UInt8] = []
    public private(set) var sent = 0
    /// The last message, when it may be replaced: its kind and where it starts.
    private var replaceableTail: (key: CoalescingKey, start: Int)?
    /// Ends of method replies (not stream events) not yet fully sent: the client's queued requests.
    private var replyEnds: [Int] = []
    public private(set) var coalescedCount = 0

    public init() {}

    public var pendingByteCount: Int { bytes.count - sent }
    public var isEmpty: Bool { sent == bytes.count }
    public var queuedReplyCount: Int { replyEnds.count }

    /// A method's reply (or error).
    public mutating func appendReply(_ message: ArraySlice<UInt8>) {
        bytes.append(contentsOf: message)
        replyEnds.append(bytes.count)
        replaceableTail = nil
    }

    /// A stream reply; `key` is set for replies a newer one of the same key may replace.
    public mutating func appendEvent(_ message: ArraySlice<UInt8>, coalescing key: CoalescingKey?) {
        if let key, let tail = replaceableTail, tail.key == key, tail.start >= sent {
            bytes.removeSubrange(tail.start...)
            coalescedCount += 1
        }
        let start = bytes.count
        bytes.append(contentsOf: message)
        replaceableTail = key.map { ($0, start) }
    }

    /// The unsent bytes, for send().
    public func withPendingBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[sent...])) }
    }

    /// `count` more bytes went out.
    public mutating func didSend(_ count: Int) {
        sent += count
        while let first = replyEnds.first, first <= sent { replyEnds.removeFirst() }
        if let tail = replaceableTail, tail.start < sent { replaceableTail = nil }
        if sent == bytes.count {
            // Give large buffers back after a burst; keep small ones for reuse.
            if bytes.capacity > 64 * 1024 { bytes = [] } else { bytes.removeAll(keepingCapacity: true) }
            sent = 0
            replyEnds.removeAll()
            replaceableTail = nil
        } else if sent >= 32 * 1024 {
            bytes.removeSubrange(0..<sent)
            for index in replyEnds.indices { replyEnds[index] -= sent }
            if let tail = replaceableTail { replaceableTail = (tail.key, tail.start - sent) }
            sent = 0
        }
    }
}

/// Stream replies that may stand in for one another when a client is behind: the same kind
/// of update about the same subject. The service names both.
public struct CoalescingKey: Equatable, Sendable {
    public var subject: String
    public var kind: Int

    public init(subject: String, kind: Int) {
        self.subject = subject
        self.kind = kind
    }
}
