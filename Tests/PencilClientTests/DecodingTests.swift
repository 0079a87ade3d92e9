import PencilProtocol
import PencilTestSupport
import Testing
@testable import PencilClient

@Suite("Decoding the daemon's values")
struct DecodingTests {
    @Test("names a newer daemon may add are kept as unknown, never an error")
    func unknownNames() throws {
        let json = try JSONReader.parse("""
            {"type":"pinch","time":12,"device":"event3","tool":{"type":"finger","serial":7,"id":1},
             "pose":{"x":0.5,"y":0.25,"pressure":0.125},"button":"stylus4","phase":"wobbled",
             "action":"summonDragon","focus":"elsewhere","newField":[1,2,3]}
            """)
        let event = try PencilEvent(json: json)
        #expect(event.type == .unknown("pinch"))
        #expect(event.type.rawValue == "pinch")
        #expect(!event.type.isKnown)
        #expect(event.tool == PencilTool(type: .unknown("finger"), serial: 7, id: 1))
        #expect(event.button == .unknown("stylus4"))
        #expect(event.phase == .unknown("wobbled"))
        #expect(event.action == .unknown("summonDragon"))
        #expect(event.focus == .unknown("elsewhere"))
        #expect(event.pose?.y == 0.25)
    }

    @Test("an event keeps the names it does not know through copies and changes, and forgets one that becomes known")
    func unknownNamesThroughChanges() {
        var event = PencilEvent(type: .unknown("pinch"), time: 1, tool: PencilTool(type: .unknown("finger"), serial: 3),
                                button: .unknown("stylus4"), phase: .began, focus: .unknown("elsewhere"))
        let copy = event
        event.phase = .unknown("wobbled")
        event.action = .unknown("summonDragon")
        #expect(copy.phase == .began && copy.action == nil, "a copy keeps its own names")
        #expect(event.phase == .unknown("wobbled") && event.action == .unknown("summonDragon"))
        #expect(event.type == .unknown("pinch") && event.button == .unknown("stylus4") && event.focus == .unknown("elsewhere"))
        #expect(event.tool == PencilTool(type: .unknown("finger"), serial: 3))
        #expect(event != copy)

        // A known name replaces the unknown one; the others stay.
        event.type = .motion
        event.tool?.type = .pen
        event.focus = .this
        #expect(event.type == .motion && event.tool == PencilTool(type: .pen, serial: 3) && event.focus == .this)
        #expect(event.button == .unknown("stylus4") && event.phase == .unknown("wobbled"))
        event.button = .stylus
        event.phase = nil
        event.action = .switchEraser
        #expect(event == PencilEvent(type: .motion, time: 1, tool: PencilTool(type: .pen, serial: 3), button: .stylus,
                                     action: .switchEraser, focus: .this),
                "with every name known again, it equals the event made with them")
    }

    @Test("every known name reads back as its case", arguments: PencilEventType.known)
    func knownEventTypes(type: PencilEventType) {
        #expect(PencilEventType(rawValue: type.rawValue) == type)
        #expect(type.isKnown)
        // The client knows every name the package's own protocol types know.
        #expect(EventType(rawValue: type.rawValue) != nil)
    }

    @Test("the client's names cover the protocol's")
    func namesCoverProtocol() {
        #expect(EventType.allCases.allSatisfy { PencilEventType(rawValue: $0.rawValue).isKnown })
        #expect(ToolType.allCases.allSatisfy { PencilToolType(rawValue: $0.rawValue).isKnown })
        #expect(AxisName.allCases.allSatisfy { PencilAxis(rawValue: $0.rawValue).isKnown })
        #expect(PenButton.allCases.allSatisfy { PencilButton(rawValue: $0.rawValue).isKnown })
        #expect(Phase.allCases.allSatisfy { PencilPhase(rawValue: $0.rawValue).isKnown })
        #expect(PreferredAction.allCases.allSatisfy { PencilAction(rawValue: $0.rawValue).isKnown })
        #expect(TapButton.allCases.allSatisfy { PencilTapButton(rawValue: $0.rawValue).isKnown })
        #expect(SqueezeButton.allCases.allSatisfy { PencilSqueezeButton(rawValue: $0.rawValue).isKnown })
        #expect(EraserButtonMode.allCases.allSatisfy { PencilEraserButtonMode(rawValue: $0.rawValue).isKnown })
        #expect(StylusKind.allCases.allSatisfy { PencilStylusKind(rawValue: $0.rawValue).isKnown })
        #expect(EraserKind.allCases.allSatisfy { PencilEraserKind(rawValue: $0.rawValue).isKnown })
        #expect(PencilStylusKind(rawValue: "unknown") == .unknownKind)
        #expect(PencilFocus(rawValue: "none") == .nobody)
        #expect(PencilFocus.nobody.rawValue == "none")
    }

    @Test("a proximityIn's stylus, a device's model and styli, and the four new preferences are read")
    func stylusModelAndPreferences() throws {
        let event = try PencilEvent(json: try JSONReader.parse(#"""
            {"type":"proximityIn","time":5,"device":"event7","tool":{"type":"pen","serial":9,"id":2050},
             "stylus":{"name":"Grip Pen","kind":"general","buttons":2,"eraser":"invert","weight":3}}
            """#))
        #expect(event.stylus == PencilStylus(name: "Grip Pen", kind: .general, buttons: 2, eraser: .invert))
        let device = try PencilDevice(json: try JSONReader.parse(#"""
            {"id":"event7","name":"Wacom Cintiq 22HDT Pen","model":"Wacom Cintiq 22HD touch","mirror":"event12",
             "styli":[{"name":"Grip Pen","kind":"general","buttons":2,"eraser":"invert"},{"name":"Odd","kind":"quill","buttons":1,"eraser":"sponge"}]}
            """#))
        #expect(device.model == "Wacom Cintiq 22HD touch")
        #expect(device.mirror == "event12")
        // A pen that is not grabbed has none.
        #expect(try PencilDevice(json: try JSONReader.parse(#"{"id":"event7","name":"Pen"}"#)).mirror == nil)
        #expect(device.styli.map(\.name) == ["Grip Pen", "Odd"])
        #expect(device.styli[1].kind == .unknown("quill"))
        #expect(device.styli[1].eraser == .unknown("sponge"))
        let preferences = try PencilPreferences(json: try JSONReader.parse(#"""
            {"withholdGestureClicks":true,"eraserButton":"button","prefersPencilOnlyDrawing":true,"prefersHoverToolPreview":false}
            """#))
        #expect(preferences.withholdGestureClicks)
        #expect(preferences.eraserButton == .button)
        #expect(preferences.prefersPencilOnlyDrawing)
        #expect(!preferences.prefersHoverToolPreview)
        // Left out, each keeps the daemon's default.
        let defaults = try PencilPreferences(json: try JSONReader.parse("{}"))
        #expect(defaults.withholdGestureClicks && defaults.eraserButton == .eraser && !defaults.prefersPencilOnlyDrawing
                && defaults.prefersHoverToolPreview && defaults.mirrorSwitchesTool)
    }

    @Test("an event without a type or a time is refused")
    func missingFields() throws {
        #expect(throws: EventDecodingError.self) { try PencilEvent(json: try JSONReader.parse(#"{"time":1}"#)) }
        #expect(throws: EventDecodingError.self) { try PencilEvent(json: try JSONReader.parse(#"{"type":"motion"}"#)) }
    }

    @Test("preferences read as the package's own writer writes them")
    func preferencesRoundTrip() throws {
        var preferences = Preferences.defaults
        preferences.doubleTapAction = .showColorPalette
        preferences.squeezeButton = .longPress
        preferences.doubleTapSlop = 2.5
        #expect(try PencilPreferences(json: preferences.jsonValue) == PencilPreferences(preferences))
        #expect(PencilPreferences() == PencilPreferences(Preferences.defaults))
        // A change carries only what is set.
        let change = PencilPreferences.Change(tapMaxDuration: 250)
        #expect(change.jsonValue.jsonText == #"{"tapMaxDuration":250}"#)
    }

    @Test("the package's own events read back through the client's values unchanged (pencilctl prints them so)")
    func protocolEventRoundTrip() throws {
        var pose = Pose()
        pose.x = 0.25; pose.y = 0.75; pose.pressure = 0.5; pose.tiltX = 12.5; pose.azimuth = 1.25; pose.xMillimeters = 10
        let tool = Tool(type: .eraser, serial: 0x1234, id: 7)
        let info = DeviceInfo(id: "event7", name: "Pen", bus: 3, vendor: 0x56a, product: 0x27, direct: true,
                              widthMillimeters: 216, heightMillimeters: 135, tools: [.pen, .eraser],
                              axes: [.pressure, .tilt], buttons: [.stylus, .stylus2])
        var preferences = Preferences.defaults
        preferences.squeezeButton = .longPress
        let events = [
            Event(type: .deviceAdded, time: 1, device: "event7", deviceInfo: info),
            Event(type: .buttonDown, time: 2, device: "event7", tool: tool, pose: pose, button: .stylus2),
            Event(type: .squeeze, time: 3, device: "event7", tool: tool, pose: pose, phase: .ended, action: .showColorPalette),
            Event(type: .preferencesChanged, time: 4, preferences: preferences),
        ]
        for event in events {
            let decoded = try PencilEvent(json: try JSONReader.parse(event.jsonText))
            #expect(decoded.protocolEvent == event)
        }
        // A name the package does not know: left out rather than misread.
        let newer = try PencilEvent(json: try JSONReader.parse(#"{"type":"motion","time":5,"tool":{"type":"finger","serial":0,"id":0}}"#))
        #expect(newer.protocolEvent == nil)
        #expect(try PencilEvent(json: try JSONReader.parse(#"{"type":"pinch","time":5}"#)).protocolEvent == nil)
    }
}

@Suite("The client's gestures")
struct ClientGestureTests {
    @Test("the client knows each gesture's event, phases and action; a gesture it does not know is none")
    func gestures() {
        #expect(PencilGesture.known.map(\.rawValue) == InterfaceFile.names("gesture"))
        #expect(PencilGesture.known.starts(with: [.doubleTap, .squeeze]))
        #expect(PencilGesture(PencilEventType.doubleTap) == .doubleTap)
        #expect(PencilGesture(PencilEventType.squeeze)?.isPhased == true)
        #expect(PencilGesture(PencilEventType.doubleTap)?.isPhased == false)
        #expect(PencilGesture(PencilEventType.motion) == nil)
        #expect(PencilGesture(PencilEventType(rawValue: "tripleTap")) == nil, "an event type from a newer daemon is not acted on")
        var preferences = PencilPreferences()
        preferences.squeezeAction = .switchPrevious
        #expect(preferences.action(for: .squeeze) == .switchPrevious)
        #expect(preferences.action(for: .doubleTap) == .switchEraser)
        #expect(preferences.action(for: .unknown("tripleTap")) == nil)
        #expect(PencilGesture.doubleTap.actionField == "doubleTapAction")
    }
}
