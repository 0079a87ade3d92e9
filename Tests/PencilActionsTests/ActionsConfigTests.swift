import Foundation
import PencilActions
import PencilDevices
import PencilProtocol
import Testing

@Suite struct ActionsConfigTests {
    func parse(_ text: String) throws(ActionsConfigError) -> ActionBindings { try ActionsConfigText.parse(text) }
    func failure(_ text: String) -> ActionsConfigError? { ActionsConfigText.failure(text) }

    @Test func keysAndCommandsBindTheirActions() throws {
        let bindings = try parse("""
            # comment
            ; another

            [switchEraser]
            key = shift+e
            [showColorPalette]
              key=ctrl+alt+K
            [runSystemShortcut]
            command = notify-send "two words" 'single $X' plain\\ space
            """)
        #expect(bindings[.switchEraser] == .key(KeyChord(modifiers: [42], key: 18)))
        #expect(bindings[.showColorPalette] == .key(KeyChord(modifiers: [29, 56], key: 37)))
        #expect(bindings[.runSystemShortcut] == .command(["notify-send", "two words", "single $X", "plain space"]))
        #expect(bindings[.switchPrevious] == nil)
        #expect(bindings.lines[.switchEraser] == 4)
        #expect(bindings.lines[.runSystemShortcut] == 8)
        #expect(bindings.keys == [42, 18, 29, 56, 37])
    }

    @Test("a chord the seat's keyboard refuses is a mistake of the file, on its line, in any section; the chord next to each loads",
          arguments: [("power", "f5"), ("alt+f2", "f2"), ("ctrl+alt+f1", "ctrl+alt+e"), ("ctrl+alt+delete", "ctrl+shift+delete"),
                      ("ctrl+alt+backspace", "ctrl+backspace"), ("alt+left", "ctrl+left"), ("sysrq", "slash"), ("capslock", "shift")])
    func refusedChordsAreRefusedAtLoad(refused: String, neighbour: String) throws {
        for header in ["[switchEraser]", "[switchEraser @*krita*]"] {
            let error = failure("\(header)\nkey = \(refused)\n")
            #expect(error?.line == 2, "\(header) \(refused)")
            let policy = ChordPolicy.refusal(of: try KeyChord.parse(refused).get())
            #expect(policy != nil)
            #expect(error?.message == "key = \(refused): no keyboard presses this chord, neither pencild's nor pencil-actions' own: \(policy?.description ?? "")")
            let allowed = try parse("\(header)\nkey = \(neighbour)\n")
            #expect(allowed.resolve(.switchEraser, app: "org.kde.krita").binding == .key(try KeyChord.parse(neighbour).get()))
        }
    }

    @Test("the keys a keyboard is made for leave out every key the policy refuses, even from bindings made in code")
    func keyboardKeysFollowThePolicy() throws {
        let power = try KeyChord.parse("power").get()
        let altF2 = try KeyChord.parse("alt+f2").get()
        let bindings = ActionBindings(bindings: [.switchEraser: .key(power), .switchPrevious: .key(altF2)])
        // Alt and F2 are keys of their own (Alt+F2 is refused as a chord), Power is none.
        #expect(bindings.keys == [56, 60])
    }

    @Test func anEmptyFileBindsNothing() throws {
        #expect(try parse("") == .empty)
        #expect(try parse("\n# nothing\n").bindings.isEmpty)
    }

    @Test(arguments: [
        ("[switchEraser\nkey = e", 1, "a section header must end with ']'"),
        ("[eraser]\nkey = e", 1, "unknown section [eraser] (expected palette or one of switchEraser, switchPrevious, showColorPalette, showInkAttributes, showContextualPalette, runSystemShortcut)"),
        ("[ignore]\nkey = e", 1, "[ignore] means do nothing: it cannot be bound"),
        ("[switchEraser]\nkey = e\n\n[switchEraser]\nkey = f", 4, "[switchEraser] appears twice (first on line 1)"),
        ("key = e", 1, "key = must be inside a section naming an action, such as [switchEraser], or [palette]"),
        ("[switchEraser]\njust words", 2, "expected SETTING = VALUE, such as key = CHORD or command = PROGRAM, not 'just words'"),
        ("[switchEraser]\nkeys = e", 2, "unknown setting 'keys' in [switchEraser] (expected key or command)"),
        ("[switchEraser]\nkey = e\ncommand = true", 3, "[switchEraser] already has a binding: one key or one command per action"),
        ("[switchEraser]\nkey =", 2, "key = needs a value"),
        ("[switchEraser]\n\n[switchPrevious]\nkey = e", 1, "[switchEraser] binds nothing: give it key = CHORD or command = PROGRAM"),
        ("[switchEraser]\n# only a comment", 1, "[switchEraser] binds nothing: give it key = CHORD or command = PROGRAM"),
        ("[switchEraser]\nkey = shift+nokey", 2, "key = shift+nokey: unknown key 'nokey': use evdev key names without KEY_ (e, f5, space, leftbrace, ...) or ctrl, shift, alt, super"),
        ("[switchEraser]\nkey = ctrl++", 2, "key = ctrl++: 'ctrl++' has an empty key name (keys are joined by +, e.g. ctrl+shift+z)"),
        ("[switchEraser]\nkey = shift+shift+e", 2, "key = shift+shift+e: 'shift' appears twice in the chord"),
        ("[switchEraser]\nkey = e+f", 2, "key = e+f: only modifiers (ctrl, shift, alt, super, left or right) may come before the last key, not 'e'"),
        ("[switchEraser]\nkey = a+b+c+d+e+f+g+h+i", 2, "key = a+b+c+d+e+f+g+h+i: 'a+b+c+d+e+f+g+h+i' has more than 8 keys"),
        ("[runSystemShortcut]\ncommand = echo 'open", 2, "command = echo 'open: a ' quote is not closed"),
        ("[runSystemShortcut]\ncommand = echo \"open", 2, "command = echo \"open: a \" quote is not closed"),
        ("[runSystemShortcut]\ncommand = echo end\\", 2, "command = echo end\\: it ends with a lone backslash"),
    ])
    func everyMistakeNamesItsLine(text: String, line: Int, message: String) {
        let error = failure(text)
        #expect(error?.line == line)
        #expect(error?.message == message)
        #expect(error?.description == "actions.conf:\(line): \(message)")
    }

    @Test func theShippedExampleParses() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/actions.conf").standardized.path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let bindings = try ActionsConfig.parse(text, file: path)
        // Krita's defaults (krita.action), and a command for runSystemShortcut.
        #expect(bindings[.switchEraser]?.description == "key e")
        #expect(bindings[.switchPrevious]?.description == "key slash")
        // The palettes are left to the system palette (PaletteTests).
        #expect(bindings[.showColorPalette] == nil && bindings[.showInkAttributes] == nil && bindings[.showContextualPalette] == nil)
        guard case .command(let words)? = bindings[.runSystemShortcut] else {
            Issue.record("runSystemShortcut is not a command")
            return
        }
        #expect(words.first == "sh" && words.count == 3)
        // Each of the five apps binds the two tool actions under its own pattern, matching both
        // its X11 class and its Wayland app id; MyPaint, which has no previous tool, the eraser.
        let apps = [("krita", "org.kde.krita"), ("Gimp-2.10", "gimp"), ("Xournalpp", "com.github.xournalpp.xournalpp"),
                    ("Inkscape", "org.inkscape.Inkscape"), ("com.github.flxzt.rnote", "com.github.flxzt.rnote"), ("Mypaint", "org.mypaint.MyPaint")]
        #expect(bindings.appPatterns.count == apps.count)
        for (x11, wayland) in apps {
            for action in x11 == "Mypaint" ? [PreferredAction.switchEraser] : [.switchEraser, .switchPrevious] {
                let resolved = bindings.resolve(action, app: x11)
                #expect(resolved.pattern != nil, "\(action.rawValue) has no section for \(x11)")
                #expect(bindings.resolve(action, app: wayland) == resolved, "\(action.rawValue): \(x11) and \(wayland) differ")
            }
        }
        #expect(bindings.resolve(.switchEraser, app: "Xournalpp").binding?.description == "key leftctrl+leftshift+e")
        #expect(bindings.resolve(.switchEraser, app: "com.github.flxzt.rnote").binding?.description == "key leftctrl+4")
        #expect(bindings.resolve(.switchEraser, app: "org.gnome.TextEditor").pattern == nil)
        // Every app section says where its keys come from, above it.
        #expect(text.contains("krita/krita.action") && text.contains("app/actions/dialogs-actions.c")
                && text.contains("ui/main.glade") && text.contains("share/keys/inkscape.xml") && text.contains("crates/rnote-ui/src/appwindow/")
                && text.contains("gui/resources.xml"))
        #expect(text.contains("integrations/krita"))
    }

    @Test func commandWordsRoundTripThroughQuoting() throws {
        let words = ["sh", "-c", "echo \"$PENCIL_X\" it's", "", "a\\b"]
        let text = CommandWords.quoted(words)
        #expect(try CommandWords.split(text).get() == words)
        #expect(try CommandWords.split("  a   b\t c ").get() == ["a", "b", "c"])
        #expect(try CommandWords.split("\"a\\\"b\\\\c\\d\"").get() == ["a\"b\\c\\d"])
        #expect(try CommandWords.split("''").get() == [""])
    }
}
