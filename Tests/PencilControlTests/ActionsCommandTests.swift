import CommandLineOptions
import Foundation
@testable import PencilActions
import PencilDevices
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
@testable import PencilControl

@Suite("pencilctl actions: arguments")
struct ActionsCommandTests {
    @Test func showAndTestTakeAConfigFileAndAnApp() {
        #expect(ActionsCommand.parse([], defaultConfig: "/d") == .success(.show(config: "/d", app: .focused)))
        #expect(ActionsCommand.parse(["--config", "/c"], defaultConfig: "/d") == .success(.show(config: "/c", app: .focused)))
        #expect(ActionsCommand.parse(["--app", "org.kde.krita"], defaultConfig: "/d") == .success(.show(config: "/d", app: .named("org.kde.krita"))))
        #expect(ActionsCommand.parse(["test", "switchEraser"], defaultConfig: "/d") == .success(.test(.switchEraser, config: "/d", app: .focused)))
        #expect(ActionsCommand.parse(["test", "--config", "/c", "runSystemShortcut"], defaultConfig: "/d")
                == .success(.test(.runSystemShortcut, config: "/c", app: .focused)))
        #expect(ActionsCommand.parse(["test", "switchEraser", "--app", "firefox"], defaultConfig: "/d")
                == .success(.test(.switchEraser, config: "/d", app: .named("firefox"))))
    }

    @Test func mistakesAreNamed() {
        #expect(ActionsCommand.parse(["test"], defaultConfig: "/d").failureMessage?.hasPrefix("actions test needs one ACTION") == true)
        #expect(ActionsCommand.parse(["test", "erase"], defaultConfig: "/d").failureMessage?.hasPrefix("unknown action \"erase\"") == true)
        #expect(ActionsCommand.parse(["--config"], defaultConfig: "/d").failureMessage == "--config needs a value")
        #expect(ActionsCommand.parse(["--json"], defaultConfig: "/d").failureMessage == "--json goes with actions palette")
        #expect(ActionsCommand.parse(["palette", "--json"], defaultConfig: "/d") == .success(.palette(config: "/d", json: true)))
        #expect(ActionsCommand.parse(["palette", "x"], defaultConfig: "/d").failureMessage == "actions palette takes no word after it")
        #expect(ActionsCommand.parse(["list"], defaultConfig: "/d").failureMessage == "unknown word \"list\" (actions, actions test ACTION, or actions palette)")
        #expect(ActionsCommand.parse(["test", "switchEraser", "--app"], defaultConfig: "/d").failureMessage == "--app needs a value")
        #expect(ActionsCommand.parse(["--app", "kri\u{1B}ta"], defaultConfig: "/d").failureMessage?.contains("is not an app id") == true)
        #expect(ActionsCommand.parse(["--app", ""], defaultConfig: "/d").failureMessage?.contains("is not an app id") == true)
    }

    @Test func aBrokenBindingsFileIsReportedByLine() throws {
        let io = CommandIO.capturing()
        let path = "/nonexistent-dir/actions.conf"
        // A missing file is no bindings, not an error; the daemon is then asked (and absent).
        let status = ActionsCommand.show(config: path, io: io, socket: "/nonexistent-dir/pencild.sock")
        #expect(status == ExitCode.unavailable)
        #expect(io.output.capturedText.contains("bindings: \(path) (none: the file does not exist)"))
        #expect(io.output.capturedText.contains("  switchEraser           nothing"))
    }
}

/// A directory of the test's own, with an actions.conf and the status pencil-actions would write.
private struct ActionsSetup {
    let directory = RunningDaemon.makeTemporaryDirectory()
    var config: String { directory + "/actions.conf" }
    var statusPath: String { directory + "/pencil-actions.status" }
    var ran: String { directory + "/ran.txt" }

    init(_ text: String) throws {
        try text.replacingOccurrences(of: "RAN", with: ran).write(toFile: config, atomically: true, encoding: .utf8)
    }

    /// pencil-actions (this process stands for it: the pid must be alive) sees `app` focused.
    func focus(_ app: String?) throws {
        try ActionsStatus(pid: getpid(), config: config, provider: "x11", focus: .following(app: app)).write(to: statusPath)
    }

    var ranText: String { (try? String(contentsOfFile: ran, encoding: .utf8)) ?? "" }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}

@Suite("pencilctl actions: what a person sees and tries")
struct ActionsCommandPersonTests {
    @Test("actions palette: each app's section as it is written, whatever an earlier glob takes, then every other app")
    func thePaletteOfEachApp() throws {
        let setup = try ActionsSetup("""
            [palette @*gimp*]
            redo = ctrl+y
            color = Swap Colors: x
            [palette @*gimp-2.10]
            ink = Brushes: ctrl+shift+b
            [palette]
            action = Zoom: z

            """)
        defer { setup.remove() }
        let io = CommandIO.capturing()
        #expect(ActionsCommand.palette(config: setup.config, json: false, io: io) == ExitCode.success)
        #expect(io.output.capturedText == "@*gimp*: Undo, Redo, Swap Colors\n@*gimp-2.10: Undo, Redo, Brushes\nany other app: Undo, Redo, Zoom\n")
        let json = CommandIO.capturing()
        #expect(ActionsCommand.palette(config: setup.config, json: true, io: json) == ExitCode.success)
        let value = try JSONReader.parse(json.output.capturedText)
        let palettes = try #require(value["palettes"]?.arrayValue)
        #expect(palettes.map { $0["app"]?.stringValue } == ["*gimp*", "*gimp-2.10", nil])
        #expect(palettes[0]["items"]?.arrayValue?[1].jsonText == #"{"label":"Redo","group":"edit","keys":"leftctrl+y"}"#)
        #expect(palettes[1]["items"]?.arrayValue?[2].jsonText == #"{"label":"Brushes","group":"ink","keys":"leftctrl+leftshift+b"}"#)
    }

    @Test("a long section name does not run into its binding: the bindings start two spaces after the longest name, a very long one has a line of its own")
    func longSectionNames() throws {
        let setup = try ActionsSetup("""
            [switchEraser]
            key = shift+e
            [showContextualPalette @org.inkscape.Inkscape]
            key = f
            [showColorPalette @com.example.AVeryLongApplicationIdentifierOfSomeVendor]
            key = c

            """)
        defer { setup.remove() }
        let io = CommandIO.capturing()
        _ = ActionsCommand.show(config: setup.config, app: .named("org.inkscape.Inkscape"), io: io,
                                socket: setup.directory + "/absent.sock", statusPath: nil)
        let lines = io.output.capturedText.components(separatedBy: "\n")
        // "showContextualPalette @org.inkscape.Inkscape" is 44 characters: over the limit.
        let column = "  showContextualPalette".count + 2
        #expect(lines.contains("  switchEraser".rightPadded(to: column) + "key leftshift+e"), "\(lines)")
        #expect(lines.contains("  showContextualPalette".rightPadded(to: column) + "nothing"), "\(lines)")
        let long = try #require(lines.firstIndex(of: "  showContextualPalette @org.inkscape.Inkscape"), "\(lines)")
        #expect(lines[long + 1] == String(repeating: " ", count: column) + "key f", "\(lines)")
        let longer = try #require(lines.firstIndex(of: "  showColorPalette @com.example.AVeryLongApplicationIdentifierOfSomeVendor"), "\(lines)")
        #expect(lines[longer + 1] == String(repeating: " ", count: column) + "key c", "\(lines)")
        // Every binding line has two spaces or more before its value.
        #expect(!lines.contains { $0.contains("Inkscapekey") || $0.contains("Vendorkey") })
    }

    @Test("columns: the values start two spaces after the longest label that fits, escapes counted as shown")
    func columns() {
        let lines = ActionsCommand.columns([("a", "1"), ("abcdef", "2"), ("\("x\u{1B}")", "3")])
        #expect(lines.map(\.text) == ["  a       1", "  abcdef  2", "  x\\x1b   3"])
    }

    /// switchEraser: a binding of its own for KDE's apps (Krita), and the fallback for the others.
    static let kritaAndFallback = """
        [switchEraser]
        command = sh -c 'echo fallback >>"$0"' RAN
        [switchEraser @org.kde.*]
        command = sh -c 'echo krita >>"$0"' RAN

        """

    @Test("actions test performs the binding of the app pencil-actions reports as focused; another app gets the fallback")
    func focusedApp() throws {
        let setup = try ActionsSetup(Self.kritaAndFallback)
        defer { setup.remove() }
        try setup.focus("org.kde.krita")
        let io = CommandIO.capturing()
        #expect(ActionsCommand.test(.switchEraser, config: setup.config, io: io, statusPath: setup.statusPath) == ExitCode.success)
        #expect(setup.ranText == "krita\n", "\(io.output.capturedText)\(io.errors.capturedText)")
        #expect(io.output.capturedText.contains("focused app: \"org.kde.krita\" (x11, as pencil-actions sees it)"))
        #expect(io.output.capturedText.contains("binding: command sh -c 'echo krita >>\"$0\"' \(setup.ran) ([switchEraser @org.kde.*], line 3)"), "\(io.output.capturedText)")
        // The positive control: an app without a section of its own gets the fallback.
        try setup.focus("firefox")
        #expect(ActionsCommand.test(.switchEraser, config: setup.config, io: CommandIO.capturing(), statusPath: setup.statusPath) == ExitCode.success)
        #expect(setup.ranText == "krita\nfallback\n")
    }

    @Test("actions test --app names the app, whatever pencil-actions reports (or when it is not running)")
    func namedApp() throws {
        let setup = try ActionsSetup(Self.kritaAndFallback)
        defer { setup.remove() }
        let io = CommandIO.capturing()
        #expect(ActionsCommand.test(.switchEraser, config: setup.config, app: .named("org.kde.krita"), io: io, statusPath: setup.statusPath) == ExitCode.success)
        #expect(io.output.capturedText.contains("app: \"org.kde.krita\" (given with --app)"))
        // Without --app and without pencil-actions: the fallback, and why.
        let absent = CommandIO.capturing()
        #expect(ActionsCommand.test(.switchEraser, config: setup.config, io: absent, statusPath: setup.statusPath) == ExitCode.success)
        #expect(absent.output.capturedText.contains("pencil-actions is not running"))
        #expect(setup.ranText == "krita\nfallback\n")
    }

    /// A chord's bindings: the fallback's shift+e, Krita's e.
    private static let chords = """
        [switchEraser]
        key = shift+e
        [switchEraser @org.kde.krita]
        key = e

        """

    @Test("actions test presses the focused app's chord through pencild's keyboard, and makes no keyboard of its own")
    func chordThroughPencild() throws {
        let setup = try ActionsSetup(Self.chords)
        defer { setup.remove() }
        try setup.focus("org.kde.krita")
        var asked: [KeyChord] = []
        var made = false
        let io = CommandIO.capturing()
        let status = ActionsCommand.test(.switchEraser, config: setup.config, io: io, statusPath: setup.statusPath,
                                         daemonKeyboard: { asked.append($0); return .pressed },
                                         makeKeyboard: { _ throws(Errno) in made = true; throw .permissionDenied })
        #expect(status == ExitCode.success)
        #expect(asked.map(\.description) == ["e"])
        #expect(!made)
        #expect(io.output.capturedText.contains("switchEraser: pencild's keyboard pressed e"), "\(io.output.capturedText)")
    }

    @Test("pencild's refusal is final: no keyboard of its own presses what pencild refused")
    func refusedByPencild() throws {
        let setup = try ActionsSetup(Self.chords)
        defer { setup.remove() }
        var made = false
        let io = CommandIO.capturing()
        let status = ActionsCommand.test(.switchEraser, config: setup.config, io: io, statusPath: nil,
                                         daemonKeyboard: { _ in .refused("pencild presses keys only for the user of the seat's active session") },
                                         makeKeyboard: { _ throws(Errno) in made = true; throw .permissionDenied })
        #expect(status == ExitCode.unavailable)
        #expect(!made)
        #expect(io.errors.capturedText.contains("key leftshift+e not sent: pencild presses keys only for the user of the seat's active session"))
    }

    @Test("where pencild answers KeyboardUnavailable (here a real one, which has no keyboard), pencil-actions' own is made for the chord, as pencil-actions does")
    func ownKeyboardWherePencildHasNone() throws {
        let setup = try ActionsSetup(Self.chords)
        defer { setup.remove() }
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        var madeFor: [Set<UInt16>] = []
        let io = CommandIO.capturing()
        let status = ActionsCommand.test(.switchEraser, config: setup.config, app: .named("org.kde.krita"), io: io,
                                         socket: daemon.socketPath, statusPath: nil,
                                         makeKeyboard: { keys throws(Errno) in madeFor.append(keys); throw .permissionDenied })
        #expect(status == ExitCode.unavailable)
        #expect(madeFor == [[KeyNames.code(of: "e")!]])
        let said = io.errors.capturedText
        #expect(said.contains("key not sent: pencild has no keyboard: "), "\(said)")
        #expect(said.contains("cannot open /dev/uinput (\(Errno.permissionDenied))"), "\(said)")
    }
}

extension Result where Failure == UsageError {
    var failureMessage: String? {
        if case .failure(let problem) = self { return problem.message }
        return nil
    }
}
