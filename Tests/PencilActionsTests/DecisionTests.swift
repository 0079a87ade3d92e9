import CommandLineOptions
import Foundation
import PencilActions
import PencilClient
import PencilDevices
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing

@Suite struct DecisionTests {
    func event(_ type: PencilEventType, phase: PencilPhase? = nil, action: PencilAction? = .switchEraser,
               focus: PencilFocus? = .nobody) -> PencilEvent {
        var pose = Pose()
        pose.x = 0.25
        pose.y = 0.5
        pose.pressure = 0
        pose.xMillimeters = 54.5
        pose.tiltX = -12.5
        return PencilEvent(type: type, time: 123_456, device: "event7", tool: PencilTool(type: .pen, serial: 0x2345), pose: pose,
                           phase: phase, action: action, focus: focus)
    }

    @Test func aDoubleTapActsAndASqueezeActsWhenItEnds() {
        #expect(ActionDecision.request(for: event(.doubleTap))?.action == .switchEraser)
        #expect(ActionDecision.request(for: event(.squeeze, phase: .ended, action: .showContextualPalette))?.action == .showContextualPalette)
        #expect(ActionDecision.request(for: event(.squeeze, phase: .began, action: nil)) == nil)
        #expect(ActionDecision.request(for: event(.squeeze, phase: .cancelled, action: nil)) == nil)
        #expect(ActionDecision.request(for: event(.doubleTap, action: .ignore)) == nil)
        #expect(ActionDecision.request(for: event(.doubleTap, action: .unknown("fromTheFuture"))) == nil)
        #expect(ActionDecision.request(for: event(.buttonDown)) == nil)
        // An event type a newer pencild adds, carrying an action: no gesture this version knows.
        #expect(ActionDecision.request(for: event(PencilEventType(rawValue: "tripleTap"), action: .switchEraser)) == nil)
        #expect(ActionDecision.subscribedEvents == InterfaceFile.names("gesture").map { PencilEventType(rawValue: $0) })
        #expect(ActionDecision.subscribedEvents.starts(with: [.doubleTap, .squeeze]))
    }

    @Test func aFallbackActsOnlyWhenNoAppHoldsFocus() {
        #expect(ActionDecision.request(for: event(.doubleTap, focus: .other)) == nil)
        #expect(ActionDecision.request(for: event(.doubleTap, focus: .this)) == nil)
        #expect(ActionDecision.request(for: event(.squeeze, phase: .ended, focus: .other)) == nil)
        #expect(ActionDecision.request(for: event(.doubleTap, focus: .unknown("someone"))) == nil)
        // pencild switched the pen's tool through its mirror: one performer per gesture.
        #expect(ActionDecision.request(for: event(.doubleTap, focus: .pen)) == nil)
        #expect(ActionDecision.request(for: event(.squeeze, phase: .ended, focus: .pen)) == nil)
        // A daemon that knows no focus: nobody can hold it.
        #expect(ActionDecision.request(for: event(.doubleTap, focus: nil)) != nil)
    }

    @Test func bindingsDecideWhatActingMeans() throws {
        let bindings = try ActionsConfig.parse("[switchEraser]\nkey = e\n[showColorPalette]\ncommand = true x", file: "f")
        #expect(ActionDecision.performance(of: .switchEraser, bindings: bindings) == .sendChord(KeyChord(modifiers: [], key: 18)))
        #expect(ActionDecision.performance(of: .showColorPalette, bindings: bindings) == .runCommand(["true", "x"]))
        #expect(ActionDecision.performance(of: .switchPrevious, bindings: bindings) == .unbound)
    }

    @Test func aCommandSeesTheEventInItsEnvironment() {
        let request = GestureRequest(action: .showContextualPalette, event: event(.squeeze, phase: .ended, action: .showContextualPalette))
        let environment = CommandEnvironment.environment(for: request, inherited: ["PATH=/usr/bin", "PENCIL_X=stale", "HOME=/home/a"])
        #expect(environment == [
            "PATH=/usr/bin", "HOME=/home/a",
            "PENCIL_ACTION=showContextualPalette", "PENCIL_GESTURE=squeeze", "PENCIL_TIME=123456",
            "PENCIL_PHASE=ended", "PENCIL_FOCUS=none", "PENCIL_DEVICE=event7", "PENCIL_TOOL=pen",
            "PENCIL_TOOL_SERIAL=9029", "PENCIL_X=0.25", "PENCIL_Y=0.5", "PENCIL_X_MM=54.5",
            "PENCIL_PRESSURE=0", "PENCIL_TILT_X=-12.5",
        ])
        let test = GestureRequest(action: .switchEraser, event: nil)
        #expect(CommandEnvironment.variables(for: test).map { "\($0.0)=\($0.1)" } == ["PENCIL_ACTION=switchEraser", "PENCIL_GESTURE=test"])
    }

    @Test("a command gets the daemon's text only in a shape it can trust: unknown tools and phases, and device ids that are not plain, are left out")
    func aCommandGetsOnlyPlainTextFromTheDaemon() {
        func variables(device: String?, tool: PencilToolType, phase: PencilPhase?) -> [String: String] {
            let event = PencilEvent(type: .doubleTap, time: 1, device: device, tool: PencilTool(type: tool, serial: 7),
                                    phase: phase, action: .switchEraser, focus: .nobody)
            return Dictionary(uniqueKeysWithValues: CommandEnvironment.variables(for: GestureRequest(action: .switchEraser, event: event)))
        }
        // What pencild sends: every variable is there.
        let plain = variables(device: "event7", tool: .eraser, phase: .ended)
        #expect(plain["PENCIL_DEVICE"] == "event7")
        #expect(plain["PENCIL_TOOL"] == "eraser")
        #expect(plain["PENCIL_PHASE"] == "ended")
        #expect(variables(device: "replay0.a_b-C", tool: .pen, phase: nil)["PENCIL_DEVICE"] == "replay0.a_b-C")
        #expect(variables(device: String(repeating: "d", count: 64), tool: .pen, phase: nil)["PENCIL_DEVICE"]?.count == 64)
        // A dash or a dot inside an id, or at its end, is plain; at its start it is not (below).
        for device in ["a-rf", "event7-", "0.", "7..", "x_"] {
            #expect(variables(device: device, tool: .pen, phase: nil)["PENCIL_DEVICE"] == device)
        }
        // A daemon's (or an impostor's) odd text: the variable is left out, the others stay.
        let huge = String(repeating: "x", count: 128 * 1024)
        // An id that begins with '-' would be an option to a command given it as an argument;
        // '.' and '..' would be directories; '_' leads nowhere pencild names.
        for device in [huge, String(repeating: "d", count: 65), "", "event7\n<0>forged", "$(rm -rf ~)", "évent", "a b",
                       "-rf", "--help", "-", ".", "..", "_x", ".hidden"] {
            let odd = variables(device: device, tool: .unknown(huge), phase: .unknown("ended\u{1B}[2J"))
            #expect(odd["PENCIL_DEVICE"] == nil, "\(device.prefix(20))")
            #expect(odd["PENCIL_TOOL"] == nil)
            #expect(odd["PENCIL_PHASE"] == nil)
            #expect(odd["PENCIL_TOOL_SERIAL"] == "7")
            #expect(odd["PENCIL_ACTION"] == "switchEraser")
        }
    }

    @Test("pencil-actions' log escapes control characters: a newline and <0> in the daemon's text cannot start a journal line")
    func theLogEscapesTheDaemonsText() {
        #expect(ActionsLog.line(priority: 4, "pencild at /run/pencild/pencild.sock: gone") == "<4>pencild at /run/pencild/pencild.sock: gone\n")
        let forged = ActionsLog.line(priority: 4, "NoSuchDevice(device: event7\n<0>root password changed\u{1B}[2J\u{202E})")
        #expect(forged == "<4>NoSuchDevice(device: event7\\x0a<0>root password changed\\x1b[2J\\u{202e})\n")
        #expect(forged.split(separator: "\n").count == 1)
    }

    @Test func optionsAreCheckedAndSaySo() {
        #expect(ActionsOptions.parse(["--key-interval", "25", "--socket", "/s", "-v"], defaultConfigPath: "/c") == .success(.run({
            var options = ActionsOptions(configPath: "/c", socketPath: "/s")
            options.keyInterval = 25_000
            options.verbose = true
            return options
        }())))
        #expect(ActionsOptions.parse(["--key-interval", "0"], defaultConfigPath: "/c")
                == .failure(UsageError("--key-interval: expected milliseconds from 1 to 1000, not '0'")))
        #expect(ActionsOptions.parse(["--config"], defaultConfigPath: "/c") == .failure(UsageError("--config needs a value")))
        #expect(ActionsOptions.parse(["--bogus"], defaultConfigPath: "/c") == .failure(UsageError("unknown option --bogus")))
        #expect(BindingsFile.defaultPath(environment: { ["XDG_CONFIG_HOME": "/x", "HOME": "/h"][$0] }) == "/x/pencild/actions.conf")
        #expect(BindingsFile.defaultPath(environment: { ["XDG_CONFIG_HOME": "relative", "HOME": "/h"][$0] }) == "/h/.config/pencild/actions.conf")
    }

    @Test func theGnomeExtensionRecordIsWrittenOnceInThePersonsStateDirectory() throws {
        #expect(GnomeExtensionRecord.defaultPath(environment: { ["XDG_STATE_HOME": "/s", "HOME": "/h"][$0] })
                == "/s/pencil-actions/gnome-extension-turned-on")
        #expect(GnomeExtensionRecord.defaultPath(environment: { ["XDG_STATE_HOME": "relative", "HOME": "/h"][$0] })
                == "/h/.local/state/pencil-actions/gnome-extension-turned-on")
        let scratch = try ScratchDirectory()
        let record = GnomeExtensionRecord(path: scratch.path + "/state/pencil-actions/gnome-extension-turned-on")
        #expect(!record.exists)
        try record.write(uuid: "pencil-actions-focus@pencild.org")
        #expect(record.exists)
        let text = try String(contentsOfFile: record.path, encoding: .utf8)
        #expect(text.contains("pencil-actions-focus@pencild.org"))
        // The directories it made are the person's alone.
        let attributes = try FileManager.default.attributesOfItem(atPath: scratch.path + "/state")
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
    }
}

/// A fresh directory under the temporary directory, removed at the end.
final class ScratchDirectory {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("pencil-actions-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes and closes at once (Foundation may close later), as an editor saving in place.
    func write(_ name: String, _ text: String) throws {
        let fd = try FileDescriptor.open(path + "/" + name, [.writeOnly, .create, .truncate, .closeOnExec])
        defer { fd.close() }
        try fd.writeAll(Array(text.utf8))
    }
}

/// Waits for `condition`, polling (no event exists for it), up to `seconds`.
func eventually(_ seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}

@Suite struct CommandAndFileTests {
    @Test func aCommandRunsWithoutAShellWithTheEventsEnvironmentAndIsReaped() throws {
        let scratch = try ScratchDirectory()
        var log: [String] = []
        let runner = CommandRunner(maximumRunning: 1) { log.append($0) }
        let output = scratch.path + "/out"
        // No shell: the metacharacters reach the program as they are.
        let pid = runner.start(["sh", "-c", "printf '%s|%s|%s' \"$PENCIL_ACTION\" \"$1\" \"$PENCIL_X\" > \"$0\"", output, "a;b $HOME"],
                               environment: ["PATH=/usr/bin:/bin", "PENCIL_ACTION=switchEraser", "PENCIL_X=0.25"], label: "test")
        #expect(pid != nil)
        #expect(runner.start(["true"], environment: [], label: "second") == nil, "at most one at once")
        #expect(log.last == "second: not run: 1 commands are still running (at most 1 at once)")
        #expect(eventually { runner.reap(); return runner.running.isEmpty })
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "switchEraser|a;b $HOME|0.25")
        runner.start(["sh", "-c", "exit 3"], environment: ["PATH=/usr/bin:/bin"], label: "failing")
        #expect(eventually { runner.reap(); return runner.running.isEmpty })
        #expect(log.last == "failing: the command exited with status 3")
        #expect(runner.start(["/nonexistent/program"], environment: [], label: "missing") == nil)
        #expect(log.last == "missing: cannot run /nonexistent/program: No such file or directory")
    }

    @Test func theBindingsFileIsReadAgainWhenItChangesAndAMistakeSaysWhere() throws {
        let scratch = try ScratchDirectory()
        let file = BindingsFile(path: scratch.path + "/pencild/actions.conf")
        #expect(try file.load().get() == nil, "a missing file is no bindings")
        _ = try file.watch()
        #expect(!file.takeChanges())
        try scratch.write("pencild/actions.conf", "[switchEraser]\nkey = e\n")
        #expect(file.takeChanges())
        #expect(try file.load().get()?[.switchEraser] == .key(KeyChord(modifiers: [], key: 18)))
        try scratch.write("pencild/other.conf", "x")
        #expect(!file.takeChanges(), "other files do not count")
        // Replaced by rename, as editors save.
        try scratch.write("pencild/new", "[switchEraser]\nkey = nosuchkey\n")
        try FileSystem.rename(scratch.path + "/pencild/new", to: file.path)
        #expect(file.takeChanges())
        guard case .failure(let error) = file.load() else {
            Issue.record("a bad file loaded")
            return
        }
        #expect(error.description.hasPrefix(file.path + ":2: key = nosuchkey: unknown key 'nosuchkey'"))
        try scratch.write("pencild/actions.conf", String(repeating: "#", count: ActionsConfig.maximumBytes + 1))
        guard case .failure(let large) = file.load() else {
            Issue.record("an oversized file loaded")
            return
        }
        #expect(large.description == "\(file.path): larger than 64 KiB: not a bindings file")
        try FileManager.default.removeItem(atPath: file.path)
        #expect(file.takeChanges())
    }
}

@Suite struct PerformerTests {
    @Test func withoutAKeyboardKeysAreOffAndCommandsStillRun() throws {
        let scratch = try ScratchDirectory()
        let performer = ActionPerformer(keyInterval: 10_000, maximumCommands: 2, log: ActionsLog(verbose: false),
                                        makeKeyboard: { _ throws(Errno) in throw Errno.permissionDenied })
        let output = scratch.path + "/ran"
        performer.use(try ActionsConfig.parse("""
            [switchEraser]
            key = ctrl+e
            [runSystemShortcut]
            command = sh -c 'printf "%s %s" "$PENCIL_ACTION" "$PENCIL_GESTURE" > "$0"' \(output)
            """, file: "f"))
        #expect(performer.keyboard == nil)
        #expect(performer.keyboardProblem?.hasPrefix("cannot open /dev/uinput (Permission denied): key bindings are off; command bindings still run.") == true)
        performer.perform(GestureRequest(action: .switchEraser, event: nil), now: 0)
        #expect(performer.player.isIdle, "no chord is played without a keyboard")
        performer.perform(GestureRequest(action: .runSystemShortcut, event: nil), now: 0)
        #expect(eventually { performer.commands.reap(); return performer.commands.running.isEmpty })
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "runSystemShortcut test")
        // Bindings without keys need no keyboard: the problem is gone.
        performer.use(try ActionsConfig.parse("[runSystemShortcut]\ncommand = true", file: "f"))
        #expect(performer.keyboardProblem == nil)
    }
}
