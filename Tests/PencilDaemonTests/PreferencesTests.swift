import Foundation
import PencilProtocol
import PencilTestSupport
import Testing
import Varlink

@Suite("Preferences, end to end", .serialized)
struct PreferencesEndToEndTests {
    @Test("preferences set by a user survive a restart, and fields left out keep their values")
    func surviveRestart() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let daemon = try RunningDaemon(directory: directory)
            let client = try daemon.client()
            let first = try client.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([("doubleTapAction", .string("showColorPalette"))]))]))
            #expect(first["preferences"]?["doubleTapAction"] == .string("showColorPalette"))
            let second = try client.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([("longPressDuration", .int(700))]))]))
            #expect(second["preferences"]?["doubleTapAction"] == .string("showColorPalette"))
            #expect(second["preferences"]?["longPressDuration"] == .int(700))
            #expect(daemon.stop() == 0)
        }
        let daemon = try RunningDaemon(directory: directory)
        defer { daemon.stop() }
        let stored = try daemon.client().call("org.pencild.Pen.GetPreferences")["preferences"]
        #expect(stored?["doubleTapAction"] == .string("showColorPalette"))
        #expect(stored?["longPressDuration"] == .int(700))
        #expect(stored?["squeezeButton"] == .string("stylus2"))
    }

    @Test("a corrupt preferences file is moved aside and the defaults are used")
    func corruptFile() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
        try "{\"tapMaxDuration\": ".write(toFile: directory + "/state/\(getuid()).json", atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(directory: directory)
        defer { daemon.stop() }
        let stored = try daemon.client().call("org.pencild.Pen.GetPreferences")["preferences"]
        #expect(stored?["tapMaxDuration"] == .int(300))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory + "/state")
        #expect(files.contains { $0.hasPrefix("\(getuid()).json.corrupt-") })
        #expect(!files.contains("\(getuid()).json"))
        #expect(daemon.log.contains("moved it to"))
    }

    @Test("an unwritable state directory makes SetPreferences fail and the daemon keeps serving")
    func unwritableStateDirectory() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A regular file where the directory's parent should be: even root cannot write there.
        _ = FileManager.default.createFile(atPath: directory + "/blocker", contents: Data())
        let daemon = try RunningDaemon(stateDirectory: directory + "/blocker/state", directory: directory)
        defer { daemon.stop() }
        let client = try daemon.client()
        let error = remoteError { _ = try client.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([("tapMaxDuration", .int(200))]))])) }
        #expect(error?.name == "org.pencild.Pen.PreferencesNotSaved")
        #expect(try client.call("org.pencild.Pen.GetPreferences")["preferences"]?["tapMaxDuration"] == .int(300))
        #expect(try daemon.client().call("org.varlink.service.GetInfo")["product"] == .string("pencild"))
    }
}
