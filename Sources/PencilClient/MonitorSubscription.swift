import PencilProtocol
import PencilSystem
import Varlink

/// One `Monitor` call on its own connection, read without blocking: whoever owns it waits
/// for the descriptor to become readable (epoll in pencilctl, a dispatch source in the event
/// sequence) and then calls `readAvailable`. Messages are bounded by the framer.
package final class MonitorSubscription {
    package let path: String
    package let descriptor: FileDescriptor
    private var framer: MessageFramer
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    private var closed = false

    /// The largest message accepted from the daemon: an event is a few hundred bytes.
    package static let defaultMaximumMessageSize = 1024 * 1024

    /// Connects and sends `Monitor` with the filters (nil: everything). `claimingFocus` first
    /// sends a oneway `SetFocus(true)` on the same connection: the claim is the process's and
    /// lasts while the connection does (no reply comes to mix with the stream).
    package init(path: String, devices: [String]?, events: [String]?, claimingFocus: Bool = false,
                 maximumMessageSize: Int = defaultMaximumMessageSize) throws(VarlinkClientError) {
        self.path = path
        framer = MessageFramer(maximumMessageSize: maximumMessageSize)
        do {
            descriptor = try UnixSocket.connect(to: path)
        } catch {
            throw .connect(path: path, error)
        }
        var parameters: [(String, JSONValue)] = []
        if let devices { parameters.append(("devices", .array(devices.map(JSONValue.string)))) }
        if let events { parameters.append(("events", .array(events.map(JSONValue.string)))) }
        var call = VarlinkCall(method: PenInterface.Method.monitor.qualifiedName, parameters: .object(parameters), more: true).encoded
        if claimingFocus {
            call = VarlinkCall(method: PenInterface.Method.setFocus.qualifiedName, parameters: .object([("focused", .bool(true))]),
                               oneway: true).encoded + call
        }
        do {
            // Never SIGPIPE: the process is an app's.
            try UnixSocket.sendAll(descriptor, call)
            try descriptor.setNonBlocking()
        } catch {
            // A daemon that refuses the caller answers at once and closes: its refusal, read
            // without waiting, says more than the failed write.
            var refusal: VarlinkError?
            if error == .brokenPipe || error == .connectionReset, (try? descriptor.setNonBlocking()) != nil {
                _ = try? readAvailable { _ in }
                refusal = pendingError
            }
            descriptor.close()
            if let refusal { throw .remote(refusal) }
            throw .io(error)
        }
    }

    /// An error reply that `readAvailable` met while the connection was being made.
    private var pendingError: VarlinkError?

    deinit { close() }

    package func close() {
        guard !closed else { return }
        closed = true
        descriptor.close()
    }

    /// How a read ended.
    package enum ReadOutcome: Equatable {
        /// Everything that had arrived is read: wait for the descriptor.
        case drained
        /// `chunkLimit` reads were made and more may be waiting: read again.
        case limitReached
        /// The daemon ended the stream (closed the connection or sent the last reply).
        case ended
    }

    /// Reads what has arrived, at most `chunkLimit` reads of 64 KiB (a bounded turn of the
    /// caller's loop, so that a flooding daemon never starves its signals), and hands out the event
    /// object of each reply. An error reply throws `.remote`.
    package func readAvailable(chunkLimit: Int = 16,
                               _ handle: (JSONValue) throws(VarlinkClientError) -> Void) throws(VarlinkClientError) -> ReadOutcome {
        var chunks = 0
        while chunks < chunkLimit {
            chunks += 1
            do {
                if try framer.receive(from: descriptor, using: &buffer) == 0 { return .ended }
            } catch {
                if error == .wouldBlock { return .drained }
                if error == .connectionReset { return .ended }
                throw .io(error)
            }
            while true {
                let message: ArraySlice<UInt8>?
                do { message = try framer.nextMessage() } catch { throw .protocolViolation("\(error)") }
                guard let message else { break }
                let reply: VarlinkReply
                do {
                    reply = try VarlinkReply(json: try JSONReader.parse(message))
                } catch {
                    throw .protocolViolation("\(error)")
                }
                if let name = reply.error {
                    let error = VarlinkError(name: name, parameters: reply.parameters)
                    pendingError = error
                    throw .remote(error)
                }
                if let event = reply.parameters["event"] { try handle(event) }
                if !reply.continues { return .ended }
            }
        }
        return .limitReached
    }
}
