import Foundation
import PencilActions
import PencilClient
import PencilDevices
import PencilProtocol
import Testing

/// The system palette's cases (docs/gestures.md, "Which app acts: the system palette"): what
/// actions.conf says it holds, when it opens, and the request pencil-palette reads.
@Suite struct PaletteTests {
    func chord(_ text: String) throws -> KeyChord { try KeyChord.parse(text).get() }

    func squeezeEnded(_ action: PencilAction, x: Double = 0.25, y: Double = 0.5, pressure: Double = 0) -> GestureRequest {
        var pose = Pose()
        pose.x = x
        pose.y = y
        pose.pressure = pressure
        let event = PencilEvent(type: .squeeze, time: 1_000, device: "event7", tool: PencilTool(type: .pen, serial: 1), pose: pose,
                                phase: .ended, action: action, focus: .nobody)
        return ActionDecision.request(for: event)!
    }

    let gimpAndFallback = """
        [palette @*gimp*]
        undo = ctrl+z
        redo = ctrl+y
        color = Swap Colors: x
        ink = Brushes: ctrl+shift+b
        action = Search and Run a Command: slash
        color = Default Colors: d

        [palette]
        redo = ctrl+shift+z
        """

    @Test func aPaletteSectionListsItsItemsInTheFilesOrder() throws {
        let bindings = try ActionsConfigText.parse(gimpAndFallback)
        let gimp = try #require(bindings.palette(for: "gimp-2.10"))
        #expect(gimp.undo == (try chord("ctrl+z")))
        #expect(gimp.redo == (try chord("ctrl+y")))
        #expect(gimp.entries.map(\.label) == ["Swap Colors", "Brushes", "Search and Run a Command", "Default Colors"])
        #expect(gimp.entries.map(\.group) == [.color, .ink, .action, .color])
        #expect(gimp.entries.map(\.line) == [4, 5, 6, 7])
        #expect(bindings.palette(for: "org.inkscape.Inkscape")?.pattern == nil, "another app gets [palette]")
        #expect(bindings.palette(for: nil)?.line == 9, "an unknown app gets [palette]")
        #expect(bindings.keys.isSuperset(of: try chord("ctrl+shift+b").keys), "the palette's chords are keys the keyboard sends")
        #expect(bindings.appPatterns.map(\.text) == ["*gimp*"])
    }

    @Test("a mistake in a palette section is said with its line",
          arguments: [
              ("[palette]\ncolour = Red: r", 2, "unknown setting 'colour' in [palette] (expected undo, redo, color, ink or action)"),
              ("[palette]\ncolor = Red r", 2, "color = Red r: expected LABEL: CHORD, such as 'Swap Colors: x', not 'Red r'"),
              ("[palette]\ncolor = : r", 2, "color = : r: the item has no label before the colon"),
              ("[palette]\nink = Size: shift+nosuchkey", 2, "ink = Size: shift+nosuchkey: 'shift+nosuchkey': unknown key 'nosuchkey': use evdev key names without KEY_ (e, f5, space, leftbrace, ...) or ctrl, shift, alt, super"),
              ("[palette]\naction = Off: power", 2, "action = Off: power: no keyboard presses this chord: power: not a key of an app's shortcut: the keyboard sends only letters, digits, punctuation, editing and cursor keys, F1–F12, the keypad and modifiers"),
              ("[palette]\nundo = ctrl+z\nundo = ctrl+y", 3, "[palette] already has undo ="),
              ("[palette @*krita]\n[switchEraser]\nkey = e", 1, "[palette @*krita] binds nothing: give it undo, redo, color, ink or action lines"),
              ("[palette]\nundo = z\n[palette]\nredo = y", 3, "[palette] appears twice (first on line 1)"),
              ("[pallete]\nundo = z", 1, "unknown section [pallete] (expected palette or one of switchEraser, switchPrevious, showColorPalette, showInkAttributes, showContextualPalette, runSystemShortcut)"),
          ])
    func mistakes(text: String, line: Int, message: String) {
        let error = ActionsConfigText.failure(text)
        #expect(error?.line == line)
        #expect(error?.message == message)
    }

    @Test func aPaletteHoldsAtMostSixteenItemsOfAnAppsOwn() {
        let sixteen = (0..<16).map { "action = Item \($0): f\($0 % 12 + 1)" }.joined(separator: "\n")
        #expect(ActionsConfigText.failure("[palette]\n" + sixteen) == nil)
        let error = ActionsConfigText.failure("[palette]\n" + sixteen + "\naction = One Too Many: a")
        #expect(error?.line == 18)
        #expect(error?.message == "[palette] already holds 16 items, the most a palette shows")
    }

    @Test func aLabelIsPlainTextOfAMenuItemsLength() {
        #expect(ActionsConfigText.failure("[palette]\naction = <b>Bold</b> & Co.: b") == nil, "markup is text, shown as it is")
        #expect(ActionsConfigText.failure("[palette]\naction = Ratio 1:1: b") == nil, "a colon in a label: the chord is after the last")
        let long = String(repeating: "x", count: 49)
        #expect(ActionsConfigText.failure("[palette]\naction = \(long): b")?.message.hasSuffix("is longer than 48 characters") == true)
        #expect(ActionsConfigText.failure("[palette]\naction = a\u{1B}[2Jb: b")?.message.hasSuffix("the label holds a control character") == true)
    }

    // Case 1: when it opens.
    @Test func onlyAnUnboundPaletteActionOpensIt() throws {
        let bindings = try ActionsConfigText.parse(gimpAndFallback + "\n[showColorPalette @*krita]\nkey = shift+i\n")
        for action in [PencilAction.showContextualPalette, .showColorPalette, .showInkAttributes] {
            #expect(PalettePlan.opens(squeezeEnded(action), bindings: bindings, app: "gimp"), "\(action)")
        }
        #expect(!PalettePlan.opens(squeezeEnded(.showColorPalette), bindings: bindings, app: "krita"), "a person's binding wins")
        #expect(PalettePlan.opens(squeezeEnded(.showInkAttributes), bindings: bindings, app: "krita"), "the other palettes still open")
        #expect(!PalettePlan.opens(squeezeEnded(.switchEraser), bindings: bindings, app: "gimp"))
        #expect(!PalettePlan.opens(squeezeEnded(.runSystemShortcut), bindings: .empty, app: nil))
    }

    // Cases 2 to 4: where, what, and where the keyboard starts.
    @Test func itHoldsThePensToolsUndoRedoAndTheAppsOwnItems() throws {
        let bindings = try ActionsConfigText.parse(gimpAndFallback)
        let plan = PalettePlan(for: squeezeEnded(.showContextualPalette), bindings: bindings, app: "gimp", tipReportedAs: "eraser")
        #expect(plan.items.map(\.id) == ["tool.pen", "tool.eraser", "undo", "redo", "app.0", "app.1", "app.2", "app.3"])
        #expect(plan.items.map(\.label) == ["Pen", "Eraser", "Undo", "Redo", "Swap Colors", "Brushes", "Search and Run a Command", "Default Colors"])
        #expect(plan.items.map(\.checked) == [false, true, nil, nil, nil, nil, nil, nil], "the tool the tip is reported as is marked")
        #expect(plan.item(id: "tool.pen")?.choice == .tool("pen"))
        #expect(plan.item(id: "redo")?.choice == .chord(try chord("ctrl+y")))
        #expect(plan.item(id: "app.1")?.choice == .chord(try chord("ctrl+shift+b")))
        #expect(plan.item(id: "app.9") == nil)
        #expect(plan.openAt == nil)
        #expect(plan.pen?.x == 0.25 && plan.pen?.y == 0.5 && plan.hovering)
    }

    @Test func withoutAMirrorItHasNoToolsAndWithoutASectionTheDefaultUndoRedo() throws {
        let plan = PalettePlan(for: squeezeEnded(.showContextualPalette), bindings: .empty, app: nil, tipReportedAs: nil)
        #expect(plan.items.map(\.id) == ["undo", "redo"])
        #expect(plan.item(id: "undo")?.choice == .chord(try chord("ctrl+z")))
        #expect(plan.item(id: "redo")?.choice == .chord(try chord("ctrl+shift+z")))
        let fallback = PalettePlan(for: squeezeEnded(.showContextualPalette), bindings: try ActionsConfigText.parse(gimpAndFallback),
                                   app: "xournalpp", tipReportedAs: "pen")
        #expect(fallback.item(id: "undo")?.choice == .chord(try chord("ctrl+z")), "[palette] has no undo: the default")
        #expect(fallback.item(id: "redo")?.choice == .chord(try chord("ctrl+shift+z")))
        #expect(fallback.items.map(\.checked) == [true, false, nil, nil])
    }

    @Test func theColourAndInkPalettesOpenAtTheirGroupWhereTheAppHasOne() throws {
        let bindings = try ActionsConfigText.parse(gimpAndFallback)
        #expect(PalettePlan(for: squeezeEnded(.showColorPalette), bindings: bindings, app: "gimp", tipReportedAs: "pen").openAt == .color)
        #expect(PalettePlan(for: squeezeEnded(.showInkAttributes), bindings: bindings, app: "gimp", tipReportedAs: "pen").openAt == .ink)
        #expect(PalettePlan(for: squeezeEnded(.showColorPalette), bindings: bindings, app: "rnote", tipReportedAs: "pen").openAt == nil,
                "no colour item: the first item")
    }

    @Test func thePensPlaceIsOnTheScreenAndATouchIsNotAHover() {
        let outside = PalettePlan(for: squeezeEnded(.showContextualPalette, x: 1.5, y: -0.25, pressure: 0.4), bindings: .empty, app: nil, tipReportedAs: nil)
        #expect(outside.pen?.x == 1 && outside.pen?.y == 0)
        #expect(!outside.hovering)
    }

    @Test func theRequestIsTheOnePencilPaletteReads() throws {
        let bindings = try ActionsConfigText.parse(gimpAndFallback)
        let plan = PalettePlan(for: squeezeEnded(.showInkAttributes), bindings: bindings, app: "gimp", tipReportedAs: "pen")
        let request = plan.request
        #expect(request["version"]?.intValue == 1)
        #expect(request["app"]?.stringValue == "gimp")
        #expect(request["pen"]?["x"]?.doubleValue == 0.25 && request["pen"]?["y"]?.doubleValue == 0.5)
        #expect(request["hovering"]?.boolValue == true)
        #expect(request["open_at"]?.stringValue == "ink")
        let items = try #require(request["items"]?.arrayValue)
        #expect(items.count == 8)
        #expect(items[0].jsonText == #"{"id":"tool.pen","label":"Pen","group":"tools","checked":true}"#)
        #expect(items[5].jsonText == #"{"id":"app.1","label":"Brushes","group":"ink"}"#)
        let unknown = PalettePlan(for: GestureRequest(action: .showContextualPalette, event: nil), bindings: .empty, app: nil, tipReportedAs: nil)
        #expect(unknown.request["pen"]?.isNull == true && unknown.request["app"]?.isNull == true)
    }

    /// The bindings pencil-actions ships: they read, every app the palette names has a section,
    /// and no palette action is bound, so that the squeeze opens the system palette everywhere.
    @Test func theShippedBindingsGiveEveryNamedAppItsPalette() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../examples/actions.conf").standardized.path
        let bindings = try ActionsConfig.parse(try String(contentsOfFile: path, encoding: .utf8), file: path)
        for app in ["krita", "org.kde.krita", "gimp-2.10", "gimp", "com.github.xournalpp.xournalpp", "Xournalpp", "org.inkscape.Inkscape",
                    "com.github.flxzt.rnote", "org.mypaint.MyPaint", "Mypaint"] {
            let section = try #require(bindings.palette(for: app), "\(app)")
            #expect(section.pattern != nil, "\(app) has a section of its own")
            #expect(!section.entries.isEmpty, "\(app)")
            for action in PalettePlan.paletteActions {
                #expect(bindings.resolve(action, app: app).binding == nil, "\(app) \(action)")
            }
        }
        #expect(bindings.palette(for: "org.gnome.TextEditor")?.pattern == nil)
    }

    /// A person's actions.conf replaces the shipped bindings as a whole; without one the
    /// shipped ones apply; `--config` names a file of the person's and no shipped ones.
    @Test func aPersonsFileReplacesTheShippedOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("palette-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let shipped = folder + "/shipped.conf"
        let own = folder + "/actions.conf"
        try "[palette]\naction = Shipped: a\n[switchEraser]\nkey = e\n".write(toFile: shipped, atomically: true, encoding: .utf8)
        let file = BindingsFile(path: own, shippedPath: shipped)
        let before = try file.load().get()
        #expect(file.loadedPath == shipped)
        #expect(before?.palette(for: nil)?.entries.map(\.label) == ["Shipped"])
        try "[switchPrevious]\nkey = slash\n".write(toFile: own, atomically: true, encoding: .utf8)
        let after = try file.load().get()
        #expect(file.loadedPath == own)
        #expect(after?.palettes.isEmpty == true && after?[.switchEraser] == nil, "nothing of the shipped file is left")
        #expect(try BindingsFile(path: folder + "/none.conf").load().get() == nil)
        let options = ActionsOptions.parse(["--config", own], defaultConfigPath: "/d", shippedConfigPath: shipped)
        #expect(options == .success(.run(ActionsOptions(configPath: own, shippedConfigPath: nil))))
        let plain = ActionsOptions.parse([], defaultConfigPath: "/d", shippedConfigPath: shipped)
        #expect(plain == .success(.run(ActionsOptions(configPath: "/d", shippedConfigPath: shipped))))
    }

    @Test func aSlowMachineMayGiveThePaletteLongerToShow() throws {
        guard case .success(.run(let options)) = ActionsOptions.parse([], defaultConfigPath: "/d") else { throw Unexpected() }
        #expect(options.paletteWait == 5_000_000)
        guard case .success(.run(let slow)) = ActionsOptions.parse(["--palette-wait", "60"], defaultConfigPath: "/d") else {
            throw Unexpected()
        }
        #expect(slow.paletteWait == 60_000_000)
        for bad in ["0", "121", "five", "-3"] {
            guard case .failure(let error) = ActionsOptions.parse(["--palette-wait", bad], defaultConfigPath: "/d") else {
                Issue.record("--palette-wait \(bad) was taken")
                continue
            }
            #expect("\(error)".contains("--palette-wait: expected seconds from 1 to 120"), "\(error)")
        }
    }
}

private struct Unexpected: Error {}

/// What pencil-palette writes back, read as distrusted lines.
@Suite struct PaletteReplyTests {
    func parse(_ text: String) -> PaletteReply? { PaletteReply.parse(Array(text.utf8)) }

    @Test func eachReplyReads() {
        #expect(parse(#"{"shown": {"x": 280, "y": 340, "width": 80, "height": 120, "screen": {"width": 1280, "height": 800}, "route": "x11"}}"#)
                == .shown(x: 280, y: 340, width: 80, height: 120, route: "x11", items: []))
        #expect(parse(#"{"shown": {"x": 280, "y": 340, "width": 80, "height": 120, "route": "layer-shell", "items": "#
                      + #"{"tool.eraser": {"x": 320, "y": 350, "width": 40, "height": 32}, "undo": {"x": "left"}}}}"#)
                == .shown(x: 280, y: 340, width: 80, height: 120, route: "layer-shell",
                          items: [PaletteItemPlace(id: "tool.eraser", x: 320, y: 350, width: 40, height: 32)]))
        #expect(parse(#"{"chosen": "app.2"}"#) == .chosen("app.2"))
        #expect(parse(#"{"closed": "outside"}"#) == .closed("outside"))
        #expect(parse(#"{"error": "cannot open the palette: no display"}"#) == .error("cannot open the palette: no display"))
    }

    @Test func anythingElseIsNoReply() {
        for text in ["", "not json", #"{"shown": {"x": "left"}}"#, #"{"chosen": 3}"#, #"{"other": true}"#, "[1, 2]",
                     #"{"chosen": ""# + String(repeating: "x", count: 20_000) + #""}"#] {
            #expect(parse(text) == nil, "\(text.prefix(40))")
        }
    }
}
