import Testing
import PencilProtocol

@Suite("The protocol's JSON")
struct ProtocolJSONTests {
    @Test func eventsRoundTrip() throws {
        var pose = Pose()
        pose.x = 0.25
        pose.pressure = 0.5
        pose.tiltX = -12.5
        let event = Event(type: .squeeze, time: 1_234_567, device: "event7", tool: Tool(type: .pen, serial: 4_000_000_000, id: 2),
                          pose: pose, phase: .ended, action: .showContextualPalette)
        let text = event.jsonText
        #expect(text.hasPrefix(#"{"type":"squeeze","time":1234567,"device":"event7","tool":{"type":"pen","serial":4000000000,"id":2}"#))
        #expect(!text.contains("zOffset"), "absent optional axes are left out")
        #expect(try Event(json: JSONReader.parse(text)) == event)
    }

    /// The writer lays names out as constant text: each must be the type's own name.
    @Test(arguments: EventType.allCases)
    func everyEventTypeAndToolIsWrittenByItsName(_ type: EventType) throws {
        for tool in ToolType.allCases {
            let event = Event(type: type, time: 7, device: "replay0", tool: Tool(type: tool, serial: 1, id: 2), pose: Pose())
            let text = event.jsonText
            #expect(text.hasPrefix(#"{"type":"\#(type.rawValue)","time":7,"device":"replay0","tool":{"type":"\#(tool.rawValue)","serial":1,"id":2}"#))
            #expect(try Event(json: JSONReader.parse(text)) == event)
        }
    }

    @Test func everyPoseMemberIsWrittenAtItsPrecisionAndValuesInAnArrayAreSeparated() throws {
        var pose = Pose()
        (pose.x, pose.y, pose.pressure) = (0.1234567, 1, 0.5)
        (pose.xMillimeters, pose.yMillimeters, pose.zOffset) = (12.34567, -0.0004, 0.25)
        (pose.tiltX, pose.tiltY, pose.azimuth, pose.altitude) = (-4.545, 16.63, 1.830384, 1.27107)
        (pose.roll, pose.slider, pose.wheel) = (-3.141593, 0.000001, -0.75)
        let event = Event(type: .motion, time: 1, pose: pose)
        var writer = JSONWriter()
        writer.beginArray()
        writer.write(event)
        writer.write(event)
        writer.endArray()
        let member = #"{"type":"motion","time":1,"pose":{"x":0.123457,"y":1,"xMillimeters":12.346,"yMillimeters":0,"pressure":0.5,"#
            + #""zOffset":0.25,"tiltX":-4.54,"tiltY":16.63,"azimuth":1.83038,"altitude":1.27107,"roll":-3.14159,"slider":0.000001,"wheel":-0.75}}"#
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[\(member),\(member)]")
    }
}

@Suite("Preferences")
struct PreferencesTests {
    @Test func defaultsFollowTheContract() throws {
        let p = Preferences.defaults
        #expect(p.tapButton == .stylus && p.squeezeButton == .stylus2)
        #expect(p.tapMaxDuration == 300 && p.doubleTapInterval == 400 && p.longPressDuration == 500 && p.doubleTapSlop == 4)
        #expect(p.doubleTapAction == .switchEraser && p.squeezeAction == .showContextualPalette)
        try p.validate()
    }

    @Test func mergingKeepsFieldsLeftOut() throws {
        let merged = try Preferences.defaults.merging(JSONReader.parse(#"{"doubleTapAction": "ignore", "tapMaxDuration": 250}"#))
        #expect(merged.doubleTapAction == .ignore && merged.tapMaxDuration == 250 && merged.squeezeButton == .stylus2)
        #expect(try Preferences.defaults.merging(merged.jsonValue) == merged)
    }

    @Test(arguments: [
        (#"{"tapMaxDuration": 0}"#, "tapMaxDuration"),
        (#"{"tapMaxDuration": 20000}"#, "tapMaxDuration"),
        (#"{"tapMaxDuration": 1.5}"#, "tapMaxDuration"),
        (#"{"doubleTapInterval": "400"}"#, "doubleTapInterval"),
        (#"{"doubleTapSlop": -1}"#, "doubleTapSlop"),
        (#"{"doubleTapAction": "explode"}"#, "doubleTapAction"),
        (#"{"tapButton": "stylus2"}"#, "squeezeButton"),
        (#"{"tapButton": "none", "squeezeButton": "longPress"}"#, "squeezeButton"),
        (#"{"colour": "red"}"#, "colour"),
        (#"[]"#, "preferences"),
    ])
    func invalidValuesNameTheirFieldAndAreNeverClamped(_ json: String, _ field: String) throws {
        let value = try JSONReader.parse(json)
        #expect(throws: InvalidPreferences.self) { try Preferences.defaults.merging(value) }
        do { _ = try Preferences.defaults.merging(value) } catch { #expect(error.field == field) }
    }
}
