import Foundation
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing

@Suite("The Swift example program (docs/clients.md, Writing a client)", .timeLimit(.minutes(10)))
struct ExampleTests {
    @Test("pencil-gestures-example prints each double-tap and squeeze of a replay with its action")
    func gesturesExample() throws {
        let daemon = try sessionDaemon(["--speed", "max", "--exit-after-replay"])
        let recording = daemon.directory + "/session.events"
        defer { daemon.stop(); daemon.removeDirectory() }
        let example = FileSystem.directoryName(of: RunningDaemon.binaryPath) + "/pencil-gestures-example"
        let result = try runProgram(example, [], environment: ["PENCILD_SOCKET": daemon.socketPath], timeout: 60)
        #expect(result.status == 0, "\(result.output)")

        // What the offline pipeline finds in the same recording, as the example words it.
        let expected: [String] = try pencilctlEvents(recording).compactMap { json in
            let event = try Event(json: json)
            switch (event.type, event.phase) {
            case (.doubleTap, _): return "double-tap: \(event.action?.rawValue ?? "ignore")"
            case (.squeeze, .ended?): return "squeeze: \(event.action?.rawValue ?? "ignore")"
            case (.squeeze, .cancelled?): return "squeeze cancelled"
            default: return nil
            }
        }
        let printed = result.output.split(separator: "\n").map(String.init)
        let gestures = printed.filter { $0.hasPrefix("double-tap") || $0.hasPrefix("squeeze") }
        #expect(!expected.isEmpty)
        #expect(gestures == expected, "\(result.output)")
        // It ends when the daemon does, saying so.
        #expect(printed.last?.hasPrefix("pencild: disconnected") == true)
    }
}
