import JSON
import PencilSystem

/// A small blocking varlink client for tools and tests: connect, call, or call with `more`
/// and read the replies one by one. Not for the daemon's own loop.
public final class VarlinkClient {
    public let path: String
    private let descriptor: FileDescriptor
    private var framer: MessageFramer
    private var closed = false

    /// Connects to the socket at `path`. `timeoutMilliseconds` bounds the wait for room in a
    /// full backlog, each send and each wait for a reply (0: none).
    public init(path: String, timeoutMilliseconds: Int = 0, maximumMessageSize: Int = 16 * 1024 * 1024) throws(VarlinkClientError) {
        self.path = path
        do {
            descriptor = try UnixSocket.connect(to: path, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw .connect(path: path, error)
        }
        framer = MessageFramer(maximumMessageSize: maximumMessageSize)
        if timeoutMilliseconds > 0 {
            try? UnixSocket.setReceiveTimeout(descriptor, milliseconds: timeoutMilliseconds)
        }
    }

    deinit { close() }

    public func close() {
        guard !closed else { return }
        closed = true
        descriptor.close()
    }

    /// One call on a connection of its own, closed after the reply: for a caller that asks at
    /// a person's pace, whose idle connection the daemon would only close.
    public static func call(path: String, timeoutMilliseconds: Int, _ method: String,
                            _ parameters: JSONValue = .object([])) throws(VarlinkClientError) -> JSONValue {
        let client = try VarlinkClient(path: path, timeoutMilliseconds: timeoutMilliseconds)
        defer { client.close() }
        return try client.call(method, parameters)
    }

    /// Calls `method` and returns its reply's parameters; an error reply throws `.remote`.
    public func call(_ method: String, _ parameters: JSONValue = .object([])) throws(VarlinkClientError) -> JSONValue {
        try sendOrRefusal(VarlinkCall(method: method, parameters: parameters))
        let reply = try readReply()
        if let error = reply.error { throw .remote(VarlinkError(name: error, parameters: reply.parameters)) }
        return reply.parameters
    }

    /// Calls `method` with `"more": true`; read the replies with `next()` on the result.
    public func stream(_ method: String, _ parameters: JSONValue = .object([])) throws(VarlinkClientError) -> ReplyStream {
        try sendOrRefusal(VarlinkCall(method: method, parameters: parameters, more: true))
        return ReplyStream(client: self)
    }

    /// Sends `call`. A daemon that refuses the caller answers at once and closes: the write
    /// then fails, and the refusal, already here, says more than the failed write.
    private func sendOrRefusal(_ call: VarlinkCall) throws(VarlinkClientError) {
        do {
            try send(call)
        } catch {
            if case .io(let errno) = error, errno == .brokenPipe || errno == .connectionReset,
               let reply = try? readReply(), let name = reply.error {
                throw .remote(VarlinkError(name: name, parameters: reply.parameters))
            }
            throw error
        }
    }

    /// Calls `method` with `"oneway": true`: no reply comes.
    public func callOneway(_ method: String, _ parameters: JSONValue = .object([])) throws(VarlinkClientError) {
        try send(VarlinkCall(method: method, parameters: parameters, oneway: true))
    }

    public func send(_ call: VarlinkCall) throws(VarlinkClientError) {
        try sendRaw(call.encoded)
    }

    /// Sends bytes as they are (tests use it to send malformed messages).
    public func sendRaw(_ bytes: [UInt8]) throws(VarlinkClientError) {
        do {
            try UnixSocket.sendAll(descriptor, bytes)
        } catch {
            throw .io(error)
        }
    }

    /// The next message from the daemon, as JSON; `.closed` at end of stream.
    public func readMessage() throws(VarlinkClientError) -> JSONValue {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            do {
                if let message = try framer.nextMessage() {
                    do { return try JSONReader.parse(message) } catch { throw VarlinkClientError.protocolViolation("\(error)") }
                }
            } catch let error as FramingError {
                throw .protocolViolation("\(error)")
            } catch let error as VarlinkClientError {
                throw error
            } catch {
                throw .protocolViolation("\(error)")
            }
            let count: Int
            do {
                count = try framer.receive(from: descriptor, using: &chunk)
            } catch {
                if error == .wouldBlock { throw .timedOut }
                throw .io(error)
            }
            if count == 0 { throw .closed }
        }
    }

    public func readReply() throws(VarlinkClientError) -> VarlinkReply {
        let message = try readMessage()
        do { return try VarlinkReply(json: message) } catch { throw .protocolViolation(error.reason) }
    }

    /// The replies of one call made with `more`.
    public struct ReplyStream {
        let client: VarlinkClient
        public private(set) var finished = false

        /// The next reply's parameters, nil after the last one (the one without `continues`).
        public mutating func next() throws(VarlinkClientError) -> JSONValue? {
            guard !finished else { return nil }
            let reply = try client.readReply()
            if let error = reply.error {
                finished = true
                throw .remote(VarlinkError(name: error, parameters: reply.parameters))
            }
            if !reply.continues { finished = true }
            return reply.parameters
        }
    }
}
