import PencilActions
import PencilDevices
import PencilProtocol
import Testing

@Suite struct PerAppBindingsTests {
    static let text = """
        [switchEraser]
        key = e

        [switchEraser @*xournalpp*]
        key = ctrl+shift+e

        [switchEraser @GIMP*]
        key = shift+e

        [showColorPalette @inkscape]
        command = true inkscape
        """

    func parse(_ text: String = Self.text) throws(ActionsConfigError) -> ActionBindings { try ActionsConfigText.parse(text) }
    func failure(_ text: String) -> ActionsConfigError? { ActionsConfigText.failure(text) }

    @Test func appSectionsAreReadInOrderWithTheirLines() throws {
        let bindings = try parse()
        #expect(bindings[.switchEraser] == .key(KeyChord(modifiers: [], key: 18)))
        #expect(bindings.perApp.map(\.pattern.text) == ["*xournalpp*", "GIMP*", "inkscape"])
        #expect(bindings.perApp.map(\.line) == [4, 7, 10])
        #expect(bindings.perApp[0].binding == .key(KeyChord(modifiers: [29, 42], key: 18)))
        #expect(bindings.keys == [18, 29, 42])
    }

    @Test func eachAppGetsItsOwnSectionAndOthersTheFallback() throws {
        let bindings = try parse()
        let xournal = bindings.resolve(.switchEraser, app: "com.github.xournalpp.xournalpp")
        #expect(xournal.binding == .key(KeyChord(modifiers: [29, 42], key: 18)))
        #expect(xournal.section(of: .switchEraser) == "[switchEraser @*xournalpp*], line 4")
        #expect(bindings.resolve(.switchEraser, app: "Xournalpp").pattern?.text == "*xournalpp*")
        #expect(bindings.resolve(.switchEraser, app: "gimp-2.10").binding == .key(KeyChord(modifiers: [42], key: 18)))
        // Positive control beside the negatives: krita matches no app section, so the fallback.
        let krita = bindings.resolve(.switchEraser, app: "krita")
        #expect(krita.binding == .key(KeyChord(modifiers: [], key: 18)))
        #expect(krita.pattern == nil)
        #expect(krita.section(of: .switchEraser) == "[switchEraser], line 1")
        // No app known (no provider, or it died): the fallback, never an app's chord.
        #expect(bindings.resolve(.switchEraser, app: nil) == krita)
        // An app section binds only its action: inkscape's eraser is the fallback.
        #expect(bindings.resolve(.switchEraser, app: "inkscape") == krita)
        #expect(bindings.resolve(.showColorPalette, app: "inkscape").binding == .command(["true", "inkscape"]))
        #expect(bindings.resolve(.showColorPalette, app: "krita").binding == nil)
        #expect(ActionDecision.performance(of: .showColorPalette, bindings: bindings, app: "krita") == .unbound)
        #expect(ActionDecision.performance(of: .showColorPalette, bindings: bindings, app: "Inkscape") == .runCommand(["true", "inkscape"]))
    }

    @Test func theFirstMatchingSectionWins() throws {
        let bindings = try parse("""
            [switchEraser @org.kde.*]
            key = a
            [switchEraser @org.kde.krita]
            key = b
            """)
        #expect(bindings.resolve(.switchEraser, app: "org.kde.krita").line == 1)
        #expect(bindings.resolve(.switchEraser, app: "org.gnome.x").binding == nil)
    }

    @Test(arguments: [
        ("krita", "krita", true), ("krita", "KRITA", true), ("Krita", "krita", true),
        ("krita", "krita2", false), ("krita", "krit", false), ("kri?a", "krixa", true), ("kri?a", "kria", false),
        ("*", "", true), ("*", "anything", true), ("org.*.krita", "org.kde.krita", true),
        ("org.*.krita", "org.kde.kritax", false), ("*x*y*", "aaxbbycc", true), ("*x*y*", "aaybbxcc", false),
        ("a*a*a*a*b", String(repeating: "a", count: 200), false), ("*.desktop", "gimp.desktop", true),
    ])
    func globsMatchCaseInsensitively(pattern: String, app: String, expected: Bool) throws {
        let parsed = try #require(AppPattern(pattern))
        #expect(parsed.matches(app) == expected)
    }

    @Test func patternsAreBounded() {
        #expect(AppPattern(String(repeating: "a", count: 255)) != nil)
        #expect(AppPattern(String(repeating: "a", count: 256)) == nil)
        #expect(AppPattern("") == nil)
        #expect(AppPattern("a\u{1}b") == nil)
    }

    @Test(arguments: [
        ("[switchEraser @]\nkey = e", 1, "expected [switchEraser] or [switchEraser @APP], where APP is an app id or a glob such as *xournalpp*, not [switchEraser @]"),
        ("[switchEraser krita]\nkey = e", 1, "expected [switchEraser] or [switchEraser @APP], where APP is an app id or a glob such as *xournalpp*, not [switchEraser krita]"),
        ("[switchEraser @a @b]\nkey = e", 1, "expected [switchEraser] or [switchEraser @APP], where APP is an app id or a glob such as *xournalpp*, not [switchEraser @a @b]"),
        ("[eraser @krita]\nkey = e", 1, "unknown section [eraser] (expected palette or one of switchEraser, switchPrevious, showColorPalette, showInkAttributes, showContextualPalette, runSystemShortcut)"),
        ("[switchEraser @krita]\nkey = e\n\n[switchEraser @KRITA]\nkey = f", 4, "[switchEraser @KRITA] appears twice (first on line 1)"),
        ("[switchEraser @krita]\n# nothing\n[switchEraser]\nkey = e", 1, "[switchEraser @krita] binds nothing: give it key = CHORD or command = PROGRAM"),
        ("[switchEraser @krita]\nkey = e\nkey = f", 3, "[switchEraser @krita] already has a binding: one key or one command per action"),
        ("[switchEraser @krita]\nkey = ctrl+nosuchkey", 2, nil),
        ("[switchEraser @krita]\nsetting = 1", 2, "unknown setting 'setting' in [switchEraser @krita] (expected key or command)"),
        ("[switchEraser @" + String(repeating: "k", count: 256) + "]\nkey = e", 1,
         "the app pattern @" + String(repeating: "k", count: 256) + " is longer than 255 bytes or holds a control character or a bracket"),
    ] as [(String, Int, String?)])
    func mistakesInAppSectionsGiveTheirLine(text: String, line: Int, message: String?) {
        let error = failure(text)
        #expect(error?.line == line)
        if let message { #expect(error?.message == message) }
        #expect(error?.description.hasPrefix("actions.conf:\(line): ") == true)
    }

    /// Positive control for the mistakes above: the same sections written right parse.
    @Test func theSameSectionsWrittenRightParse() throws {
        let bindings = try parse("[switchEraser @krita]\nkey = e\n[switchEraser @gimp]\nkey = shift+e\n[switchEraser]\nkey = f")
        #expect(bindings.perApp.count == 2)
        #expect(bindings[.switchEraser] != nil)
    }
}
