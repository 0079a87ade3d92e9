import Testing
import PencilProtocol

/// The gestures as the interface lists them: what every part that acts on gestures goes through.
@Suite("The gestures' table")
struct GestureTableTests {
    @Test("a double-tap comes once and a squeeze has phases; each is its own event type, and no other event is a gesture")
    func gesturesAndTheirEvents() {
        #expect(Gesture.allCases == [.doubleTap, .squeeze])
        #expect(Gesture.doubleTap.isPhased == false)
        #expect(Gesture.squeeze.isPhased == true)
        for gesture in Gesture.allCases {
            #expect(gesture.eventType.rawValue == gesture.rawValue)
            #expect(Gesture(gesture.eventType) == gesture)
        }
        let others = EventType.allCases.filter { type in !Gesture.allCases.contains { $0.eventType == type } }
        #expect(others.count == EventType.allCases.count - 2)
        #expect(others.allSatisfy { Gesture($0) == nil })
    }

    @Test("each gesture's action is the preference named after it, whatever the user chose")
    func actionsAreTheirPreferences() {
        var preferences = Preferences.defaults
        #expect(preferences.action(for: .doubleTap) == .switchEraser)
        #expect(preferences.action(for: .squeeze) == .showContextualPalette)
        preferences.doubleTapAction = .showColorPalette
        preferences.squeezeAction = .ignore
        #expect(preferences.action(for: .doubleTap) == .showColorPalette)
        #expect(preferences.action(for: .squeeze) == .ignore)
        for gesture in Gesture.allCases {
            #expect(Preferences.fields.contains { $0.name == gesture.rawValue + "Action" })
        }
    }
}
