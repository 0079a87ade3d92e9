import GestureRecognizer
import PencilInput
import PencilProtocol
import PencilTestSupport
import Testing

/// The gestures the demo pen plays on request: whatever the user's preferences, the recogniser
/// under those preferences sees the gesture asked for, once, and no other.
@Suite("A gesture as a person makes it, under any preferences")
struct DemonstrationTests {
    /// What the recogniser makes of `gesture` played on `device` under `preferences`: a pen
    /// that comes into range, waits, makes the gesture held still, waits and leaves.
    static func recognised(_ gesture: Gesture, on device: DeviceDescription, _ preferences: Preferences) throws -> [String]? {
        guard case .success(let script) = GestureDemonstration.script(for: gesture, preferences: preferences,
                                                                       device: device.penDeviceInfo(id: "event7")) else { return nil }
        var pen = PenScript(device: device)
        pen.play(script, thenWaitMs: 100)
        return try gestures(pen, preferences)
    }

    /// Every duration from the contract's smallest to its largest, and a few between.
    static let durations = [1, 2, 5, 30, 100, 300, 400, 500, 1000, 10_000]

    @Test("a double-tap is one doubleTap, for every tapMaxDuration and doubleTapInterval, with and without longPress")
    func doubleTap() throws {
        for tapMax in Self.durations {
            for interval in Self.durations {
                for longPress in [nil, 1, 500] as [Int?] {
                    var preferences = Preferences.defaults
                    preferences.tapMaxDuration = tapMax
                    preferences.doubleTapInterval = interval
                    preferences.doubleTapAction = .showColorPalette
                    preferences.doubleTapSlop = 0
                    if let longPress {
                        preferences.squeezeButton = .longPress
                        preferences.longPressDuration = longPress
                    }
                    let seen = try Self.recognised(.doubleTap, on: TestPens.cintiqLike, preferences)
                    #expect(seen == ["doubleTap showColorPalette"], "tapMax \(tapMax) interval \(interval) longPress \(String(describing: longPress))")
                }
            }
        }
    }

    @Test("a squeeze is one squeeze that begins and ends: the dedicated button, or a long press where the device lacks it or the user chose it")
    func squeeze() throws {
        for (device, squeezeButton) in [(TestPens.cintiqLike, SqueezeButton.stylus2), (TestPens.cintiqLike, .longPress), (TestPens.oneButton, .stylus2)] {
            for longPress in Self.durations {
                var preferences = Preferences.defaults
                preferences.squeezeButton = squeezeButton
                preferences.longPressDuration = longPress
                preferences.squeezeAction = .switchPrevious
                let seen = try #require(try Self.recognised(.squeeze, on: device, preferences))
                #expect(seen.first == "squeeze began" && seen.last == "squeeze ended switchPrevious", "\(device.name) \(squeezeButton) \(longPress): \(seen)")
                #expect(seen.dropFirst().dropLast().allSatisfy { $0 == "squeeze changed" }, "\(seen)")
            }
        }
    }

    @Test("every gesture, played under the defaults on a pen with every button, is that gesture alone, with its action",
          arguments: Gesture.allCases)
    func everyGesture(_ gesture: Gesture) throws {
        let action = Preferences.defaults.action(for: gesture).rawValue
        let seen = try #require(try Self.recognised(gesture, on: TestPens.threeButtons, .defaults), "\(gesture) cannot be played")
        if gesture.isPhased {
            #expect(seen.first == "\(gesture.rawValue) began" && seen.last == "\(gesture.rawValue) ended \(action)", "\(seen)")
            #expect(seen.dropFirst().dropLast().allSatisfy { $0 == "\(gesture.rawValue) changed" }, "\(seen)")
        } else {
            #expect(seen == ["\(gesture.rawValue) \(action)"])
        }
    }

    @Test("a gesture switched off, or on a button the device lacks, cannot be played; its neighbour can")
    func unplayable() throws {
        let info = TestPens.cintiqLike.penDeviceInfo(id: "event7")
        var off = Preferences.defaults
        off.tapButton = .none
        off.squeezeButton = .none
        #expect(GestureDemonstration.script(for: .doubleTap, preferences: off, device: info) == .failure(.switchedOff(preference: "tapButton")))
        #expect(GestureDemonstration.script(for: .squeeze, preferences: off, device: info) == .failure(.switchedOff(preference: "squeezeButton")))
        var third = Preferences.defaults
        third.tapButton = .stylus3
        #expect(GestureDemonstration.script(for: .doubleTap, preferences: third, device: info) == .failure(.missingButton(.stylus3, preference: "tapButton")))
        // The neighbours: the default buttons, which the pen has.
        #expect(try Self.recognised(.doubleTap, on: TestPens.cintiqLike, .defaults) == ["doubleTap switchEraser"])
        #expect(try Self.recognised(.squeeze, on: TestPens.cintiqLike, .defaults)?.last == "squeeze ended showContextualPalette")
    }
}
