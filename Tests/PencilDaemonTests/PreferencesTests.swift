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

    static let setpriv = "/usr/bin/setpriv"

    @Test("a state directory that cannot be synced after the rename: the new preferences are kept and answered, and the log says a crash may undo them",
          .requires(.program(setpriv, package: "util-linux")))
    func directoryNotSynced() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The directory loses its read permission, which fsync of it needs (opening it), while
        // writing and renaming in it still work. Root without capabilities obeys modes as
        // anyone does: as root, pencild runs with an empty bounding set.
        let launcher = getuid() == 0 ? [Self.setpriv, "--bounding-set=-all", "--inh-caps=-all", "--"] : []
        let daemon = try RunningDaemon(directory: directory, launcher: launcher)
        defer { daemon.stop() }
        let client = try daemon.client()
        let set = { (action: String) in
            try client.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([("doubleTapAction", .string(action))]))]))
        }
        _ = try set("showColorPalette")
        let state = directory + "/state"
        #expect(!daemon.log.contains("could not be synced"), "the first write was not durable: \(daemon.log)")
        #expect(chmod(state, 0o300) == 0)
        defer { _ = chmod(state, 0o700) }
        let answered = try set("switchPrevious")
        #expect(answered["preferences"]?["doubleTapAction"] == .string("switchPrevious"))
        #expect(try client.call("org.pencild.Pen.GetPreferences")["preferences"]?["doubleTapAction"] == .string("switchPrevious"))
        #expect(daemon.log.contains("could not be synced (Permission denied): a crash now may undo them"), "\(daemon.log)")
        _ = chmod(state, 0o700)
        let file = try String(contentsOfFile: state + "/\(getuid()).json", encoding: .utf8)
        #expect(file.contains("\"switchPrevious\""))
        #expect(daemon.stop() == 0)
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
