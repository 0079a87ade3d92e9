import GestureRecognizer
import PencilInput
import PencilProtocol
import Testing

/// Preferences are validated (an out-of-range value names its field and is never clamped),
/// and a change of preferences mid-gesture does what docs/gestures.md says.
@Suite struct PreferencesTests {
    @Test(arguments: [
        ("tapMaxDuration", preferences { $0.tapMaxDuration = 0 }),
        ("doubleTapInterval", preferences { $0.doubleTapInterval = 10_001 }),
        ("longPressDuration", preferences { $0.longPressDuration = -5 }),
        ("doubleTapSlop", preferences { $0.doubleTapSlop = -0.1 }),
        ("doubleTapSlop", preferences { $0.doubleTapSlop = .nan }),
        ("squeezeButton", preferences { $0.tapButton = .stylus2; $0.squeezeButton = .stylus2 }),
        ("squeezeButton", preferences { $0.tapButton = .none; $0.squeezeButton = .longPress }),
    ])
    func anInvalidPreferenceIsRefusedByName(field: String, bad: Preferences) throws {
        let error = #expect(throws: InvalidPreferences.self) {
            _ = try GestureRecognizer(device: FrameHarness.twoButtons, preferences: bad)
        }
        #expect(error?.field == field)
        var recognizer = try GestureRecognizer(device: FrameHarness.twoButtons)
        var events: [Event] = []
        #expect(throws: InvalidPreferences.self) { try recognizer.setPreferences(bad, at: 0, into: &events) }
        #expect(recognizer.preferences == .defaults, "a refused change leaves the old preferences")
    }

    @Test func outOfRangeJSONIsRefusedNotClamped() throws {
        let json = try JSONReader.parse(Array(#"{"longPressDuration": 20000}"#.utf8))
        let error = #expect(throws: InvalidPreferences.self) { try Preferences.defaults.merging(json) }
        #expect(error?.field == "longPressDuration")
        let edge = try Preferences.defaults.merging(JSONReader.parse(Array(#"{"longPressDuration": 10000, "doubleTapSlop": 0}"#.utf8)))
        #expect(edge.longPressDuration == 10000)
        #expect(edge.doubleTapSlop == 0)
    }

    @Test func theDefaultsAreTheContracts() {
        let defaults = Preferences.defaults
        #expect(defaults.tapButton == .stylus)
        #expect(defaults.squeezeButton == .stylus2)
        #expect(defaults.tapMaxDuration == 300)
        #expect(defaults.doubleTapInterval == 400)
        #expect(defaults.doubleTapSlop == 4)
        #expect(defaults.longPressDuration == 500)
        #expect(defaults.doubleTapAction == .switchEraser)
        #expect(defaults.squeezeAction == .showContextualPalette)
    }

    @Test func aSlopOfZeroNeedsTheSamePosition() throws {
        var pen = try FrameHarness(preferences: preferences { $0.doubleTapSlop = 0 })
        pen.approach()
        pen.click(.stylus)
        pen.press(.stylus)  // the very same place
        pen.release(.stylus)
        pen.wait(ms: 500)
        pen.click(.stylus)
        pen.move(byMillimetersX: 0.01)
        pen.press(.stylus)  // a hundredth of a millimetre away
        #expect(pen.summary == ["doubleTap switchEraser"])
    }

    @Test func newActionsApplyToTheSqueezeInProgress() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.press(.stylus2)
        var events: [Event] = []
        try pen.recognizer.setPreferences(preferences { $0.squeezeAction = .runSystemShortcut }, at: pen.time, into: &events)
        #expect(events.isEmpty)
        pen.release(.stylus2)
        #expect(pen.summary == ["squeeze began", "squeeze ended runSystemShortcut"])
    }

    @Test func newButtonsCancelTheSqueezeAndTheHeldButtonWaitsForRelease() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.press(.stylus2)
        var events: [Event] = []
        let change = pen.time + 5
        try pen.recognizer.setPreferences(preferences { $0.tapButton = .stylus2; $0.squeezeButton = .stylus }, at: change, into: &events)
        #expect(events.map(\.summary) == ["squeeze cancelled"])
        #expect(events.first?.time == change)
        pen.release(.stylus2)  // was held across the change: no click
        pen.press(.stylus2)
        #expect(pen.summary == ["squeeze began"], "no double-tap from a press made before the change")
        #expect(pen.recognizer.bugs.isEmpty)
    }

    @Test func newThresholdsForgetAPendingDoubleTap() throws {
        var pen = try FrameHarness()
        pen.approach()
        pen.click(.stylus)
        var events: [Event] = []
        try pen.recognizer.setPreferences(preferences { $0.doubleTapInterval = 600 }, at: pen.time, into: &events)
        pen.press(.stylus)
        #expect(pen.summary == [])
        #expect(events.isEmpty)
    }
}
