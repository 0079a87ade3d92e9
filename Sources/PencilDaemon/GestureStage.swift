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

/// GLUE (for the merge of GestureRecognizer): until it is in main, pens produce pen events
/// only. Once merged, make `GestureRecognizer` conform to `UserGestureStage` (its methods
/// already match; `update` calls `setPreferences`) and return
/// `try? GestureRecognizer(device: info, preferences: preferences, state: state)` here.
func makeGestureStage(info: DeviceInfo, preferences: Preferences, state: PenState) -> any UserGestureStage {
    PenEventsOnlyStage()
}

struct PenEventsOnlyStage: UserGestureStage {
    mutating func process(_ frame: PenFrame, gestures: inout [Event], replacedGestures: inout [Event]) {}
    var nextDeadline: Int64? { nil }
    mutating func advance(to time: Int64, into events: inout [Event]) {}
    func catchUpEvents(at time: Int64) -> [Event] { [] }
    mutating func update(_ preferences: Preferences, at time: Int64, into events: inout [Event]) {}
}
