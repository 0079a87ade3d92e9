import GestureRecognizer
import PencilInput
import PencilProtocol

/// What the daemon needs from one user's gesture recogniser on one device: the API of
/// GestureRecognizer (process, nextDeadline, advance, catchUpEvents, setPreferences).
protocol UserGestureStage {
    mutating func process(_ frame: PenFrame, gestures: inout [Event], replacedGestures: inout [Event])
    var nextDeadline: Int64? { get }
    mutating func advance(to time: Int64, into events: inout [Event])
    func catchUpEvents(at time: Int64) -> [Event]
    mutating func update(_ preferences: Preferences, at time: Int64, into events: inout [Event])
}

/// A user's recogniser for one device; preferences were validated when they were stored, so
/// a failure here is a bug worth logging, and the pen still streams its own events.
func makeGestureStage(info: DeviceInfo, preferences: Preferences, state: PenState) -> any UserGestureStage {
    (try? GestureRecognizer(device: info, preferences: preferences, state: state)) ?? PenEventsOnlyStage()
}

extension GestureRecognizer: UserGestureStage {
    mutating func update(_ preferences: Preferences, at time: Int64, into events: inout [Event]) {
        try? setPreferences(preferences, at: time, into: &events)
    }
}

/// Pen events without gestures.
struct PenEventsOnlyStage: UserGestureStage {
    mutating func process(_ frame: PenFrame, gestures: inout [Event], replacedGestures: inout [Event]) {}
    var nextDeadline: Int64? { nil }
    mutating func advance(to time: Int64, into events: inout [Event]) {}
    func catchUpEvents(at time: Int64) -> [Event] { [] }
    mutating func update(_ preferences: Preferences, at time: Int64, into events: inout [Event]) {}
}
