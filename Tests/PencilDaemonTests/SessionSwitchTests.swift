import Foundation
@testable import PencilDaemon
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Synchronization
import Testing
import Varlink

/// Stands in for logind, which cannot create sessions in a test environment: a set of users
/// with the active session, and a pipe the test writes to when it changes the set (as
/// sd_login_monitor's descriptor becomes readable when a session switch happens).
final class SwitchableSessions: AccessPolicy, Sendable {
    private let active: Mutex<Set<UInt32>>
    private let pipe: (read: FileDescriptor, write: FileDescriptor)

    init(active: Set<UInt32>) throws {
        self.active = Mutex(active)
        pipe = try FileDescriptor.makePipe()
    }

    deinit {
        pipe.read.close()
        pipe.write.close()
    }

    func refusal(for peer: PeerCredentials) -> String? {
        active.withLock { $0.contains(peer.uid) } ? nil : "uid \(peer.uid) has no active session (test)"
    }

    var changeNotifier: FileDescriptor? { pipe.read }

    func acknowledgeChanges() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while (try? buffer.withUnsafeMutableBytes { raw in try pipe.read.read(into: raw) }) ?? 0 > 0 {}
    }

    /// Another user's session becomes the active one.
    func switchTo(_ users: Set<UInt32>) throws {
        active.withLock { $0 = users }
        _ = try [UInt8(1)].withUnsafeBytes { raw in try pipe.write.write(raw) }
    }
}

/// A Daemon in this process, on its own thread, with a given access policy. SIGTERM is sent to
/// that thread alone (the daemon blocks it there and reads it from its signalfd).
final class InProcessDaemon: Sendable {
    let socketPath: String
    let directory: String
    private let thread: Mutex<pthread_t?> = Mutex(nil)
    private let exitCode: Mutex<Int32?> = Mutex(nil)
    /// Signalled once the daemon's thread is done, whichever way.
    private let finished = DispatchSemaphore(value: 0)

    init(access: SwitchableSessions, demo: Bool) throws {
        directory = RunningDaemon.makeTemporaryDirectory()
        socketPath = directory + "/pencild.sock"
        var configuration = Configuration(mode: .user, socketPath: socketPath, stateDirectory: directory + "/state")
        configuration.liveDevices = false
        configuration.demo = demo
        configuration.replayWaitsForMonitors = 0
        let settings = configuration
        let started = Mutex<String?>(nil)
        let ready = DispatchSemaphore(value: 0)
        Thread { [self] in
            thread.withLock { $0 = pthread_self() }
            do {
                let daemon = try Daemon(configuration: settings, logger: Logger(level: .error), access: access)
                ready.signal()
                let code = daemon.run()
                exitCode.withLock { $0 = code }
                finished.signal()
            } catch {
                started.withLock { $0 = "\(error)" }
                exitCode.withLock { $0 = -1 }
                finished.signal()
                ready.signal()
            }
        }.start()
        ready.wait()
        if let failure = started.withLock({ $0 }) { throw HarnessError("the daemon did not start: \(failure)") }
    }

    func stop() {
        if let thread = thread.withLock({ $0 }) { pthread_kill(thread, SIGTERM) }
        // Waits for the daemon's thread to end (at most 5 s: a hung daemon must not hang the suite).
        let ended = finished.wait(timeout: .now() + 5) == .success
        #expect(ended && exitCode.withLock({ $0 }) == 0, "the daemon's thread ended \(ended ? "with \(exitCode.withLock { $0 } ?? -1)" : "not at all")")
        try? FileManager.default.removeItem(atPath: directory)
    }
}

@Suite("Session switches", .serialized)
struct SessionSwitchTests {
    static let setpriv = "/usr/bin/setpriv"
    static let systemPython = "/usr/bin/python3"

    @Test("when another user's session becomes active, the streams of the user who lost it end with PermissionDenied; others go on (needs root)",
          .requires(Prerequisite.otherUserClients))
    func sessionSwitchEndsStreams() throws {
        let sessions = try SwitchableSessions(active: [0, 65534])
        let daemon = try InProcessDaemon(access: sessions, demo: true)
        defer { daemon.stop() }
        // nobody monitors, says so, then prints every reply until the connection closes.
        let script = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sys.argv[1])
        s.sendall(b'{"method":"org.pencild.Pen.Monitor","more":true}\\0')
        buffer = b""
        said = False
        while True:
            chunk = s.recv(65536)
            if not chunk: break
            buffer += chunk
            if not said:
                print("streaming", flush=True)
                said = True
        last = buffer.rstrip(b"\\0").split(b"\\0")[-1]
        print("last", last.decode(), flush=True)
        print("closed", flush=True)
        """
        let other = Process()
        other.executableURL = URL(fileURLWithPath: Self.setpriv)
        other.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", Self.systemPython, "-c", script, daemon.socketPath]
        let pipe = Pipe()
        other.standardOutput = pipe
        try other.run()
        let reader = pipe.fileHandleForReading
        let first = String(decoding: reader.availableData, as: UTF8.self)
        #expect(first.contains("streaming"), "\(first)")

        let root = try VarlinkClient(path: daemon.socketPath, timeoutMilliseconds: 5_000)
        var rootStream = try root.stream("org.pencild.Pen.Monitor")
        _ = try rootStream.next()

        // Root's session becomes the active one; nobody's is no longer.
        try sessions.switchTo([0])
        let rest = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        other.waitUntilExit()
        #expect(rest.contains("closed"), "\(rest)")
        let last = try #require(rest.split(separator: "\n").first { $0.hasPrefix("last ") }).dropFirst("last ".count)
        let reply = try JSONReader.parse(String(last))
        #expect(reply["error"] == .string("org.pencild.Pen.PermissionDenied"), "\(last)")

        // Root's stream goes on: the demo pen keeps moving.
        for _ in 0..<20 { #expect(try rootStream.next()?["event"]?["type"] != nil) }
        // And nobody may not come back while the session is root's.
        let script2 = """
        import socket, sys
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(sys.argv[1])
        print(s.recv(4096).rstrip(b"\\0").decode())
        """
        let again = try runProgram(Self.setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", Self.systemPython, "-c", script2, daemon.socketPath])
        #expect(again.output.contains("org.pencild.Pen.PermissionDenied"), "\(again.output)")
    }

    @Test("a session change that keeps everyone allowed ends no stream")
    func unrelatedChangeKeepsStreams() throws {
        // The test's own user holds the session (root in CI, anyone by hand), then another joins.
        let me = getuid()
        let sessions = try SwitchableSessions(active: [me])
        let daemon = try InProcessDaemon(access: sessions, demo: true)
        defer { daemon.stop() }
        let client = try VarlinkClient(path: daemon.socketPath, timeoutMilliseconds: 5_000)
        var stream = try client.stream("org.pencild.Pen.Monitor")
        _ = try stream.next()
        try sessions.switchTo([me, me == 4242 ? 4243 : 4242])
        for _ in 0..<50 { #expect(try stream.next()?["event"]?["type"] != nil) }
        #expect(!stream.finished)
    }
}
