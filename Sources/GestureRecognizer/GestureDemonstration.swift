import PencilProtocol

/// How a person makes one gesture under a user's preferences, with a pen held still in
/// proximity: which button goes down and up, and when. The demo pen plays it on request
/// (`PlayGesture`, `pencilctl try`). The buttons are those the recogniser resolves for the
/// device (`GestureSettings`: a squeezeButton the device lacks is a long press of tapButton),
/// and every duration sits well inside the preferences' limits, so that the recogniser sees
/// that gesture and no other whatever durations the user chose.
public enum GestureDemonstration {
    public struct ButtonChange: Equatable, Sendable {
        /// Microseconds from the start of the gesture.
        public var offset: Int64
        public var button: PenButton
        public var down: Bool

    }

    public struct Script: Equatable, Sendable {
        /// In the order they happen; the last one ends the gesture.
        public var changes: [ButtonChange]
        /// When the last change comes: the gesture is over.
        public var duration: Int64 { changes.last?.offset ?? 0 }
    }

    /// Why a gesture cannot be made.
    public enum Unplayable: Error, Equatable, Sendable, CustomStringConvertible {
        /// The user switched the gesture off.
        case switchedOff(preference: String)
        /// The gesture needs a button the device does not have.
        case missingButton(PenButton, preference: String)

        public var description: String {
            switch self {
            case .switchedOff(let preference):
                return "\(preference) is none: the gesture is switched off"
            case .missingButton(let button, let preference):
                return "\(preference) is \(button.rawValue), a button the device does not have"
            }
        }
    }

    /// How long a button is held for a gesture of holding it (a dedicated squeeze button); a
    /// long press is held this much past longPressDuration.
    static let buttonHold: Int64 = 600_000

    /// The script of the machine that makes `gesture` under these preferences (each machine
    /// knows how it is played: `GestureMachine.demonstration`).
    public static func script(for gesture: Gesture, preferences: Preferences, device: DeviceInfo) -> Result<Script, Unplayable> {
        var finder = Finder(gesture: gesture, settings: GestureSettings(preferences: preferences, device: device), device: device)
        GestureMachines.visitTypes(&finder)
        return finder.script ?? .failure(.switchedOff(preference: gesture.rawValue))
    }

    private struct Finder: GestureMachineTypeVisitor {
        let gesture: Gesture
        let settings: GestureSettings
        let device: DeviceInfo
        var script: Result<Script, Unplayable>?

        mutating func visit<Machine: GestureMachine>(_: Machine.Type) {
            if script == nil { script = Machine.demonstration(of: gesture, settings: settings, device: device) }
        }
    }
}
