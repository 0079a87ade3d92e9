import Foundation
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink

/// Which pen this is: pencild names a replayed Cintiq 22HDT and its pens from libwacom, and
/// serves as before without libwacom's data.
@Suite("Stylus identity from libwacom", .serialized)
struct IdentityTests {
    static let cintiq = "Wacom Cintiq 22HDT Pen.events"

    /// Streams until the first proximityIn, then returns ListDevices' first device. The waits are
    /// generous: under ThreadSanitizer, on a busy host, loading libwacom's database takes seconds.
    func firstProximityAndDevice(_ daemon: RunningDaemon) throws -> (entered: JSONValue, device: JSONValue) {
        let watcher = try daemon.client(timeoutMilliseconds: 180_000)
        var stream = try watcher.stream("org.pencild.Pen.Monitor")
        while true {
            guard let event = try stream.next()?["event"] else { throw HarnessError("the stream ended before a proximityIn") }
            if event["type"]?.stringValue == "proximityIn" {
                let devices = try daemon.client(timeoutMilliseconds: 60_000).call("org.pencild.Pen.ListDevices")["devices"]?.arrayValue ?? []
                return (event, try #require(devices.first))
            }
        }
    }

    @Test("pencilctl devices names a Cintiq 22HDT and the pen seen on it", .requires(.recordings, .libwacomData))
    func cintiqIsNamed() throws {
        let daemon = try RunningDaemon(["--replay", SharedRecordings.path(Self.cintiq)])
        defer { daemon.stop(); daemon.removeDirectory() }
        let (entered, device) = try firstProximityAndDevice(daemon)
        // The first tool is the eraser end: named as the pen it belongs to, not as a pen of its
        // own ("Pro Pen Eraser", as libwacom lists it).
        #expect(entered["tool"]?["type"]?.stringValue == "eraser")
        #expect(entered["stylus"]?["name"]?.stringValue == "Pro Pen")
        #expect(entered["stylus"]?["eraser"]?.stringValue == "invert")
        #expect(device["model"]?.stringValue == "Wacom Cintiq 22HD touch")
        #expect(device["styli"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Pro Pen"])
        let result = try runProgram(FileSystem.directoryName(of: RunningDaemon.binaryPath) + "/pencilctl", ["devices"], environment: ["PENCILD_SOCKET": daemon.socketPath])
        #expect(result.status == 0)
        #expect(result.output.contains("model: Wacom Cintiq 22HD touch"), "\(result.output)")
        #expect(result.output.contains("stylus: Pro Pen (classic, 2 buttons, eraser: invert)"), "\(result.output)")
    }

    @Test("without libwacom's data (an empty folder) pencild serves, with no model and no stylus", .requires(.recordings))
    func withoutLibwacomData() throws {
        let empty = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let daemon = try RunningDaemon(["--replay", SharedRecordings.path(Self.cintiq), "--libwacom-data", empty])
        defer { daemon.stop(); daemon.removeDirectory() }
        let (entered, device) = try firstProximityAndDevice(daemon)
        #expect(entered["tool"]?["type"]?.stringValue == "eraser", "the same first tool as with libwacom")
        #expect(entered["stylus"] == nil)
        #expect(device["model"] == nil)
        #expect(device["styli"] == nil)
        #expect(device["name"]?.stringValue == "Wacom Cintiq 22HDT Pen")
    }
}
