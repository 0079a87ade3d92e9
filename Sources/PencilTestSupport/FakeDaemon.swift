import Foundation
import PencilSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for pencild on a socket of its own, for clients' tests: it accepts one
/// connection at a time, reads the client's first call, and then either answers with the
/// same message over and over as fast as the client takes it (`flooding`), or sends one
/// message and closes. Enough to see what a client does with a daemon it cannot trust.
public final class FakeDaemon: @unchecked Sendable {
    public enum Behaviour: Sendable {
        /// `message` (one varlink message, without its NUL) repeated without end.
        case flooding(String)
        /// `message` once, then the connection closes.
        case once(String)
    }

    public let directory: String
    public let socketPath: String
    private let listener: FileDescriptor
    private let behaviour: Behaviour
    private let stopping = Atomic<Bool>(false)
    private let accepted = Atomic<Int>(0)
    private let sentBytes = Atomic<Int>(0)
    private var thread: Thread?

    public init(_ behaviour: Behaviour) throws {
        directory = RunningDaemon.makeTemporaryDirectory()
        socketPath = directory + "/pencild.sock"
        self.behaviour = behaviour
        listener = try UnixSocket.listen(at: socketPath)
        let thread = Thread { [self] in serve() }
        self.thread = thread
        thread.start()
    }

    /// Connections accepted so far.
    public var connections: Int { accepted.load(ordering: .relaxed) }
    /// Bytes written to clients so far.
    public var bytesSent: Int { sentBytes.load(ordering: .relaxed) }

    /// Stops serving, closes the socket and removes its directory.
    public func stop() {
        stopping.store(true, ordering: .relaxed)
        while thread?.isFinished == false { usleep(5_000) }
        listener.close()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func serve() {
        while !stopping.load(ordering: .relaxed) {
            var entry = pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0, let connection = try? UnixSocket.accept(from: listener) else { continue }
            accepted.add(1, ordering: .relaxed)
            talk(to: connection)
            connection.close()
        }
    }

    private func talk(to connection: FileDescriptor) {
        // The client's first call (Monitor, perhaps after a oneway SetFocus): up to a NUL.
        var byte: UInt8 = 0
        var waited = 0
        while !stopping.load(ordering: .relaxed), waited < 200 {
            let count = withUnsafeMutableBytes(of: &byte) { (try? UnixSocket.receive(connection, into: $0)) ?? -1 }
            if count == 0 { return }
            if count < 0 { waited += 1; usleep(10_000); continue }
            if byte == 0 { break }
        }
        switch behaviour {
        case .once(let message):
            send(Array(message.utf8) + [0], on: connection, forever: false)
        case .flooding(let message):
            let one = Array(message.utf8) + [0]
            var chunk: [UInt8] = []
            while chunk.count < 64 * 1024 { chunk += one }
            send(chunk, on: connection, forever: true)
        }
    }

    private func send(_ bytes: [UInt8], on connection: FileDescriptor, forever: Bool) {
        repeat {
            var offset = 0
            while offset < bytes.count {
                if stopping.load(ordering: .relaxed) { return }
                let result = bytes.withUnsafeBytes { raw in
                    Result { () throws(Errno) -> Int in try UnixSocket.send(connection, UnsafeRawBufferPointer(rebasing: raw[offset...])) }
                }
                switch result {
                case .success(let count):
                    offset += count
                    sentBytes.add(count, ordering: .relaxed)
                case .failure(.wouldBlock):
                    var entry = pollfd(fd: connection.rawValue, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&entry, 1, 50)
                case .failure:
                    return
                }
            }
        } while forever
    }
}
