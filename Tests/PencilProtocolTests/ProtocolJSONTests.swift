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
