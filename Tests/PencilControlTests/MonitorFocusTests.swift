import Foundation
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink

@Suite("pencilctl monitor --focus, against a real pencild")
struct MonitorFocusTests {
    @Test("monitor --focus holds the user's focus while it runs: its double-tap says this, another process's says other")
    func focusWhileRunning() throws {
        let daemon = try RunningDaemon(["--demo"])
        defer { daemon.stop(); daemon.removeDirectory() }
        let pencilctl = Process()
        pencilctl.executableURL = URL(fileURLWithPath: FileSystem.directoryName(of: RunningDaemon.binaryPath) + "/pencilctl")
        pencilctl.arguments = ["monitor", "--focus", "--json", "--events", "doubleTap"]
        var environment = ProcessInfo.processInfo.environment
        environment["PENCILD_SOCKET"] = daemon.socketPath
        pencilctl.environment = environment
        let output = Pipe()
        pencilctl.standardOutput = output
        try pencilctl.run()
        defer {
            kill(pencilctl.processIdentifier, SIGKILL)
            pencilctl.waitUntilExit()
        }
        // This process's own stream: the demo pen's double-taps, as another app sees them.
        let client = try VarlinkClient(path: daemon.socketPath, timeoutMilliseconds: 15_000)
        var stream = try client.stream("org.pencild.Pen.Monitor", .object([("events", .array([.string("doubleTap")]))]))
        // Once pencilctl has claimed the focus and subscribed (the daemon says so in its log),
        // the demo pen double-taps twice.
        let subscribed = "pid \(pencilctl.processIdentifier)) monitors"
        let deadline = Date().addingTimeInterval(15)
        while !daemon.log.contains(subscribed), Date() < deadline { usleep(10_000) }
        #expect(daemon.log.contains(subscribed), "\(daemon.log)")
        let player = try VarlinkClient(path: daemon.socketPath, timeoutMilliseconds: 5_000)
        defer { player.close() }
        for _ in 0..<2 { _ = try player.call("org.pencild.Pen.PlayGesture", .object([("gesture", .string("doubleTap"))])) }
        var seen: [JSONValue] = []
        while seen.count < 2, let reply = try stream.next() {
            if let event = reply["event"] { seen.append(event) }
        }
        #expect(seen.count == 2 && seen.allSatisfy { $0["focus"] == .string("other") }, "\(seen)")
        var text = ""
        while text.components(separatedBy: "\n").filter({ $0.contains("doubleTap") }).count < 2 {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        let lines = text.components(separatedBy: "\n").filter { $0.contains("doubleTap") }
        #expect(lines.count >= 2 && lines.allSatisfy { $0.contains("\"focus\":\"this\"") }, "\(text)")
    }
}
