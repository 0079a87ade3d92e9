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

    /// The longest click a double-tap is played with, and its press-to-press interval, when
    /// the preferences allow them; shorter preferences get half of what they allow.
    static let clickHold: Int64 = 80_000
    static let clickInterval: Int64 = 200_000
    /// How long a dedicated squeeze button is held; a long press is held this much past
    /// longPressDuration.
    static let squeezeHold: Int64 = 600_000

    public static func script(for gesture: Gesture, preferences: Preferences, device: DeviceInfo) -> Result<Script, Unplayable> {
        let settings = GestureSettings(preferences: preferences, device: device)
        switch gesture {
        case .doubleTap:
            guard let tap = settings.tapButton else { return .failure(.switchedOff(preference: "tapButton")) }
            guard device.buttons.contains(tap) else { return .failure(.missingButton(tap, preference: "tapButton")) }
            // The second press within doubleTapInterval of the first; each click released
            // before the next press, shorter than tapMaxDuration, and (under longPress)
            // released long before it would become a squeeze.
            let interval = min(clickInterval, settings.doubleTapInterval / 2)
            var hold = min(clickHold, settings.tapMaxDuration / 2, interval / 2)
            if settings.longPress { hold = min(hold, settings.longPressDuration / 2) }
            return .success(Script(changes: [
                ButtonChange(offset: 0, button: tap, down: true),
                ButtonChange(offset: hold, button: tap, down: false),
                ButtonChange(offset: interval, button: tap, down: true),
                ButtonChange(offset: interval + hold, button: tap, down: false),
            ]))
        case .squeeze:
            if let squeeze = settings.squeezeButton {
                return .success(Script(changes: [
                    ButtonChange(offset: 0, button: squeeze, down: true),
                    ButtonChange(offset: squeezeHold, button: squeeze, down: false),
                ]))
            }
            guard settings.longPress, let tap = settings.tapButton else { return .failure(.switchedOff(preference: "squeezeButton")) }
            guard device.buttons.contains(tap) else { return .failure(.missingButton(tap, preference: "tapButton")) }
            return .success(Script(changes: [
                ButtonChange(offset: 0, button: tap, down: true),
                ButtonChange(offset: settings.longPressDuration + squeezeHold, button: tap, down: false),
            ]))
        }
    }
}
