import Foundation
import GestureRecognizer
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink
@testable import PencilControl

@Suite("pencilctl try: a gesture on request, without a pen")
struct TryCommandTests {
    @Test func arguments() {
        #expect(TryCommand.parse(["double-tap"]) == .success(.init(gesture: .doubleTap)))
        #expect(TryCommand.parse(["doubleTap", "--device", "demo0"]) == .success(.init(gesture: .doubleTap, device: "demo0")))
        #expect(TryCommand.parse(["squeeze", "--delay", "2.5"]) == .success(.init(gesture: .squeeze, delay: 2.5)))
        // Each gesture of the interface, as a word of the shell: doubleTap is double-tap.
        let words = InterfaceFile.names("gesture").map { name in
            name.reduce(into: "") { word, character in word += character.isUppercase ? "-" + character.lowercased() : String(character) }
        }
        #expect(words.starts(with: ["double-tap", "squeeze"]))
        let choice = words.dropLast().joined(separator: ", ") + " or " + words.last!
        #expect(TryCommand.parse([]).failureMessage == "which gesture? \(choice)")
        #expect(TryCommand.parse(["tap"]).failureMessage == "unexpected argument tap (\(choice))")
        #expect(TryCommand.parse(["squeeze", "double-tap"]).failureMessage == "unexpected argument double-tap")
        #expect(TryCommand.parse(["squeeze", "--delay", "61"]).failureMessage == "--delay needs a number of seconds from 0 to 60")
        #expect(TryCommand.parse(["squeeze", "--delay", "soon"]).failureMessage == "--delay needs a number of seconds from 0 to 60")
        #expect(TryCommand.parse(["squeeze", "--device"]).failureMessage == "--device needs a value")
    }

    @Test("pencilctl try double-tap, as a person runs it: the demo pen double-taps once, and the line says its action and who acts")
    func doubleTapFromTheShell() throws {
        let daemon = try RunningDaemon(["--demo"])
        defer { daemon.stop(); daemon.removeDirectory() }
        let result = try runProgram(FileSystem.directoryName(of: RunningDaemon.binaryPath) + "/pencilctl", ["try", "double-tap"],
                                    environment: ["PENCILD_SOCKET": daemon.socketPath], timeout: 30)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("doubleTap on demo0: action switchEraser, focus none (no app holds your focus: pencil-actions, where it runs, performs switchEraser)"),
                "\(result.output)")
    }

    @Test("try squeeze reports the squeeze once it has ended, with this user's squeezeAction")
    func squeeze() throws {
        let daemon = try RunningDaemon(["--demo"])
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = try VarlinkClient(path: daemon.socketPath, timeoutMilliseconds: 5_000)
        defer { client.close() }
        _ = try client.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([("squeezeAction", .string("showInkAttributes"))]))]))
        let io = CommandIO.capturing()
        #expect(TryCommand.play(.init(gesture: .squeeze), path: daemon.socketPath, io: io) == ExitCode.success, "\(io.errors.capturedText)")
        #expect(io.output.capturedText.hasPrefix("squeeze on demo0: action showInkAttributes, focus none"), "\(io.output.capturedText)")
    }

    @Test("a pencild without a demo pen says so, and where to read how to start one; one with it plays")
    func noDemoPen() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let io = CommandIO.capturing()
        #expect(TryCommand.play(.init(gesture: .doubleTap), path: daemon.socketPath, io: io) == ExitCode.unavailable)
        #expect(io.errors.capturedText == """
            pencilctl try: pencild at \(daemon.socketPath) cannot play a double-tap: pencild has no demo pen: it has one when started with --demo
            (README, "Try it without a pen")

            """, "\(io.errors.capturedText)")
        // Absent altogether: pencilctl's own explanation.
        let absent = CommandIO.capturing()
        #expect(TryCommand.play(.init(gesture: .doubleTap), path: daemon.directory + "/absent.sock", io: absent) == ExitCode.unavailable)
        #expect(absent.errors.capturedText.contains("pencild is not running there.\nStart it: "))
    }

    @Test("who acts, as a person reads it")
    func outcomes() {
        var event = Event(type: .doubleTap, time: 0, device: "demo0")
        event.action = .switchPrevious
        event.focus = .other
        #expect(TryCommand.outcome(of: event).text == "action switchPrevious, focus other (an app of yours holds the focus: it acts on it)")
        event.focus = Focus.none
        #expect(TryCommand.outcome(of: event).text.hasSuffix("pencil-actions, where it runs, performs switchPrevious)"))
    }
}
