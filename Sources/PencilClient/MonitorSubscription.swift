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

    /// Connects and sends `Monitor` with the filters (nil: everything).
    package init(path: String, devices: [String]?, events: [String]?,
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
        let call = VarlinkCall(method: "org.pencild.Pen.Monitor", parameters: .object(parameters), more: true).encoded
        do {
            // A new connection's send buffer takes a call this small whole.
            try descriptor.writeAll(call)
            try descriptor.setNonBlocking()
        } catch {
            descriptor.close()
            throw .io(error)
        }
    }

    deinit { close() }

    package func close() {
        guard !closed else { return }
        closed = true
        descriptor.close()
    }

    /// Reads what has arrived, at most `chunkLimit` reads of 64 KiB, and hands out the event
    /// object of each reply. Returns false once the daemon has ended the stream (closed the
    /// connection or sent the last reply); an error reply throws `.remote`.
    package func readAvailable(chunkLimit: Int = .max,
                               _ handle: (JSONValue) throws(VarlinkClientError) -> Void) throws(VarlinkClientError) -> Bool {
        var chunks = 0
        while chunks < chunkLimit {
            chunks += 1
            let count: Int
            do {
                count = try buffer.withUnsafeMutableBytes { raw in
                    Result { () throws(Errno) -> Int in try UnixSocket.receive(descriptor, into: raw) }
                }.get()
            } catch {
                if error == .wouldBlock { return true }
                if error == .connectionReset { return false }
                throw .io(error)
            }
            if count == 0 { return false }
            buffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
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
                if let name = reply.error { throw .remote(VarlinkError(name: name, parameters: reply.parameters)) }
                if let event = reply.parameters["event"] { try handle(event) }
                if !reply.continues { return false }
            }
        }
        return true
    }
}
