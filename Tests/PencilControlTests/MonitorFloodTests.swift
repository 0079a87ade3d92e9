import Foundation
import PencilSystem
import PencilTestSupport
import Testing

@Suite("pencilctl monitor against a daemon that floods")
struct MonitorFloodTests {
    static let hover = #"{"parameters":{"event":{"type":"hover","time":1,"device":"event7","tool":{"type":"pen","serial":0,"id":0},"pose":{"x":0.5,"y":0.5,"pressure":0},"phase":"changed"}},"continues":true}"#

    @Test("SIGTERM ends monitor at once while the stream floods, as it does while the stream is quiet")
    func sigtermUnderAFlood() throws {
        for flooding in [false, true] {
            let daemon = try FakeDaemon(flooding ? .flooding(Self.hover) : .once(Self.hover))
            defer { daemon.stop() }
            let monitor = Process()
            monitor.executableURL = URL(fileURLWithPath: FileSystem.directoryName(of: RunningDaemon.binaryPath) + "/pencilctl")
            monitor.arguments = ["monitor"]
            var environment = ProcessInfo.processInfo.environment
            environment["PENCILD_SOCKET"] = daemon.socketPath
            monitor.environment = environment
            monitor.standardOutput = FileHandle.nullDevice
            try monitor.run()
            let started = Date().addingTimeInterval(20)
            while Date() < started, flooding ? daemon.bytesSent < 8 << 20 : daemon.connections == 0 { usleep(10_000) }
            usleep(200_000)
            kill(monitor.processIdentifier, SIGTERM)
            // A read loop without a bound never returns to epoll while the daemon floods, so it
            // never ends; a bounded one ends after its turn, which under ThreadSanitizer on a
            // loaded machine has taken over 3 s. 20 s still tells the two apart.
            let deadline = Date().addingTimeInterval(20)
            while monitor.isRunning, Date() < deadline { usleep(10_000) }
            let ended = !monitor.isRunning
            if !ended { kill(monitor.processIdentifier, SIGKILL) }
            monitor.waitUntilExit()
            #expect(ended, "flooding: \(flooding): SIGTERM was not handled within 20 s")
            #expect(monitor.terminationReason == .exit && monitor.terminationStatus == 0)
        }
    }
}
