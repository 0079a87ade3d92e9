import Testing
import PencilProtocol
import PencilTestSupport

/// The gestures as the interface lists them: what every part that acts on gestures goes through.
@Suite("The gestures' table")
struct GestureTableTests {
    @Test("a double-tap comes once and a squeeze has phases; each is its own event type, and no other event is a gesture")
    func gesturesAndTheirEvents() {
        let listed = InterfaceFile.entries("gesture")
        #expect(listed.count >= 2, "the interface's gesture line was not read")
        #expect(Gesture.allCases.map(\.rawValue) == listed.map(\.name))
        for (name, note) in listed { #expect(Gesture(rawValue: name)?.isPhased == note.hasPrefix("phased"), "\(name)") }
        #expect(Gesture.doubleTap.isPhased == false)
        #expect(Gesture.squeeze.isPhased == true)
        for gesture in Gesture.allCases {
            #expect(gesture.eventType.rawValue == gesture.rawValue)
            #expect(Gesture(gesture.eventType) == gesture)
        }
        let others = EventType.allCases.filter { type in !Gesture.allCases.contains { $0.eventType == type } }
        #expect(others.count == EventType.allCases.count - Gesture.allCases.count)
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
