import Foundation
@testable import PencilActions
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct FocusProviderTests {
    @Test func theProviderIsChosenFromTheSession() {
        func choose(_ variables: [String: String], requested: String = "auto") -> FocusChoice {
            FocusChoice.choose(requested: requested) { variables[$0] }
        }
        #expect(choose(["XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0"]) == .kde)
        #expect(choose(["XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "DISPLAY": ":0"]) == .gnome)
        #expect(choose(["XDG_CURRENT_DESKTOP": "sway", "WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"]) == .wlroots(display: "wayland-1"))
        #expect(choose(["DISPLAY": ":0"]) == .x11(display: ":0"))
        guard case .none(let reason) = choose([:]) else {
            Issue.record("no session, yet a provider")
            return
        }
        #expect(reason.hasPrefix("neither WAYLAND_DISPLAY nor DISPLAY is set"))
        // --focus names one; one that cannot start says why.
        #expect(choose(["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":3"], requested: "x11") == .x11(display: ":3"))
        #expect(choose([:], requested: "wlroots") == .none("--focus wlroots, but WAYLAND_DISPLAY is not set"))
        #expect(choose(["DISPLAY": ":0"], requested: "none") == .none("--focus none: every app gets the fallback sections"))
    }

    @Test func appIDsAreBoundedAndPlain() {
        #expect(AppID.sanitized("org.kde.krita") == "org.kde.krita")
        #expect(AppID.sanitized(String(repeating: "a", count: 255)) != nil)
        #expect(AppID.sanitized(String(repeating: "a", count: 256)) == nil)
        #expect(AppID.sanitized("") == nil)
        #expect(AppID.sanitized("krita\n<0>") == nil)
        #expect(AppID.sanitized([0x6B, 0xFF, 0x6B]) == nil, "not UTF-8")
    }

    @Test("a count a peer drives (refused calls, forged signals) is logged at 1, 2, 4...: a million in steps of one is twenty lines")
    func refusalsAreLoggedAtDoublings() {
        var report = DoublingReport()
        // Which of these counts, seen one after the other, are logged.
        var logged: [UInt] = []
        for count: UInt in [0, 1, 1, 2, 3, 100, 127, 128] where report.isDue(count) { logged.append(count) }
        // The first is said at once; a turn that refused many at once says them in one line,
        // and the next line is due at the doubling above.
        #expect(logged == [1, 2, 100, 128])
        #expect(report.next == 256)
        var flood = DoublingReport()
        var lines = 0
        for count in 1...1_000_000 where flood.isDue(UInt(count)) { lines += 1 }
        #expect(lines == 20)
    }

    @Test func theClassIsWMClassSecondString() {
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        #expect(X11FocusProvider.className(fromWMClass: bytes("krita\0krita\0"), complete: true) == "krita")
        #expect(X11FocusProvider.className(fromWMClass: bytes("gimp-2.10\0Gimp-2.10\0"), complete: true) == "Gimp-2.10")
        // Without its last NUL, the class counts only when the property was read whole.
        #expect(X11FocusProvider.className(fromWMClass: bytes("xournalpp\0Xournalpp"), complete: true) == "Xournalpp")
        #expect(X11FocusProvider.className(fromWMClass: bytes("xournalpp\0Xourn"), complete: false) == nil)
        #expect(X11FocusProvider.className(fromWMClass: bytes("onlyinstance"), complete: true) == nil)
        #expect(X11FocusProvider.className(fromWMClass: bytes("a\0\u{1B}[2J\0"), complete: true) == nil)
    }

    /// Providers that cannot reach their desktop leave the fallback, and say why.
    @Test func aProviderWithoutItsDesktopIsTheFallback() {
        let x11 = X11FocusProvider(display: ":9876")
        #expect(x11.state.app == nil)
        #expect(x11.descriptor == nil)
        #expect(x11.state == .unavailable("cannot connect to the X server at DISPLAY=:9876"))
        let wayland = WlrootsFocusProvider(display: "/nonexistent-dir/wayland-9")
        #expect(wayland.state.app == nil)
        #expect(wayland.descriptor == nil)
        guard case .unavailable(let reason) = wayland.state else {
            Issue.record("a Wayland provider followed a compositor that is not there")
            return
        }
        #expect(reason.hasPrefix("cannot connect to the Wayland compositor at /nonexistent-dir/wayland-9"))
        #expect(NoFocusProvider(reason: "r").state.app == nil)
    }

    /// The positive control of the test above: with an X server and a window manager, the
    /// provider follows the active window's class, without polling (it reads only when the
    /// server writes), and when the server goes it falls back.
    @Test(.requires(.program("/usr/bin/Xvfb", package: "xvfb"), .program("/usr/bin/openbox", package: "openbox"),
                    .program("/usr/bin/xdotool", package: "xdotool"),
                    Prerequisite("Tk for the system's Python", remedy: "apt-get install python3-tk") {
                        system("/usr/bin/python3 -c 'import tkinter' >/dev/null 2>&1") == 0
                    }))
    func theX11ProviderFollowsTheActiveWindowAndFallsBackWhenTheServerGoes() throws {
        var processes: [Process] = []
        // SIGKILL: the test process blocks SIGTERM (pencil-actions' signalfd tests), and its
        // children inherit the mask.
        func end(_ process: Process) {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        defer {
            for process in processes.reversed() { end(process) }
        }
        func start(_ program: String, _ arguments: [String], display: String? = nil, stdout: Pipe? = nil) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            if let display { process.environment = ["PATH": "/usr/bin:/bin", "DISPLAY": display, "HOME": NSTemporaryDirectory()] }
            process.standardInput = Pipe()
            process.standardOutput = stdout ?? FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            processes.append(process)
            return process
        }
        // Xvfb writes its display number to -displayfd once it accepts clients.
        let numberPipe = Pipe()
        let server = try start("/usr/bin/Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"], stdout: numberPipe)
        var number = ""
        while !number.hasSuffix("\n") {
            let byte = numberPipe.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { break }
            number += String(decoding: byte, as: UTF8.self)
        }
        let display = ":" + number.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(display.count > 1, "Xvfb did not start")

        let provider = X11FocusProvider(display: display)
        func wait(for expected: FocusState, seconds: Int32 = 30) -> Bool {
            let deadline = MonotonicClock.now() + Int64(seconds) * 1_000_000
            while provider.state != expected {
                guard let descriptor = provider.descriptor else { return false }
                let left = (deadline - MonotonicClock.now()) / 1_000
                guard left > 0 else { return false }
                var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
                if poll(&entry, 1, Int32(left)) > 0 { provider.handleEvents() }
            }
            return true
        }
        // No window manager yet: nothing says which window is active.
        #expect(provider.state == .unavailable("the window manager does not set _NET_ACTIVE_WINDOW (no window manager, or one without EWMH)"))
        _ = try start("/usr/bin/openbox", ["--sm-disable"], display: display)
        let window = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../tests/focus/x11_window.py").standardized.path
        for app in ["Sketcher", "Notebook"] {
            _ = try start("/usr/bin/python3", [window, app], display: display)
        }
        for app in ["Sketcher", "Notebook", "Sketcher"] {
            let activate = try start("/usr/bin/xdotool", ["search", "--sync", "--class", "^\(app)$", "windowactivate", "--sync"], display: display)
            #expect(wait(for: .following(app: app)), "the provider saw \(provider.state), not \(app)")
            activate.waitUntilExit()
        }
        end(server)
        #expect(wait(for: .unavailable("the X server closed the connection")), "after the server went: \(provider.state)")
        #expect(provider.descriptor == nil)
        #expect(provider.state.app == nil)
    }

    @Test func theStatusFileRoundTripsAndIsOnlyBelievedFromThisUser() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path + "/pencil-actions.status"
        for focus in [FocusState.following(app: "org.kde.krita"), .following(app: nil), .unavailable("the X server closed the connection")] {
            let status = ActionsStatus(pid: 42, config: "/c/actions.conf", provider: "x11", focus: focus)
            try status.write(to: path)
            #expect(ActionsStatus.read(from: path) == .success(status))
        }
        // Why the palette could not open, read back with its control characters escaped.
        let problem = ActionsStatus(pid: 42, config: "/c", provider: "x11", focus: .following(app: nil), paletteProblem: "no display\u{1B}[2J")
        try problem.write(to: path)
        #expect((try? ActionsStatus.read(from: path).get())?.paletteProblem == "no display\u{1B}[2J".escapedForTerminal)
        #expect("no display\u{1B}[2J".escapedForTerminal != "no display\u{1B}[2J")
        #expect(ActionsStatus.read(from: path, uid: ProcessIdentity.userID &+ 1) == .failure(.unreadable("\(FileSystem.notOwned)")))
        #expect(ActionsStatus.read(from: scratch.path + "/absent") == .failure(.absent))
        // An app id in the file is distrusted like one from the desktop.
        try Data(#"{"pid":1,"config":"c","provider":"x11","focus":{"following":true,"app":"a\u001b[2J"}}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(ActionsStatus.read(from: path) == .failure(.unreadable("not a status pencil-actions wrote")))
    }

    /// The performer takes the app it is given: each app's own binding, the fallback for an
    /// unknown app or none (no provider, or one that died), never another app's.
    @Test func eachAppGetsItsOwnBindingAndNoneTheFallback() throws {
        let scratch = try ScratchDirectory()
        let output = scratch.path + "/ran"
        let performer = ActionPerformer(keyInterval: 10_000, maximumCommands: 1, log: ActionsLog(verbose: false),
                                        makeKeyboard: { _ throws(Errno) in throw Errno.permissionDenied })
        func record(_ word: String) -> String { "command = sh -c 'echo \(word) >> \"$0\"' \(output)" }
        performer.use(try ActionsConfig.parse("""
            [runSystemShortcut]
            \(record("fallback"))
            [runSystemShortcut @sketch*]
            \(record("sketcher"))
            [runSystemShortcut @notebook]
            \(record("notebook"))
            """, file: "f"))
        for app in ["Sketcher", "notebook", nil, "other", "NOTEBOOK"] as [String?] {
            performer.perform(GestureRequest(action: .runSystemShortcut, event: nil), app: app, now: 0)
            #expect(eventually { performer.commands.reap(); return performer.commands.running.isEmpty })
        }
        let ran = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(ran == ["sketcher", "notebook", "fallback", "fallback", "notebook"])
    }
}
