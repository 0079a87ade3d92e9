import Foundation
import PencilClient
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing

@Suite("PencilClient's calls against a real pencild", .timeLimit(.minutes(10)))
struct CallTests {
    @Test("preferences round-trip: a change keeps the other fields, reads back, and reaches subscribers")
    func preferencesRoundTrip() async throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = PencilClient(socketPath: daemon.socketPath)
        #expect(try await client.preferences() == PencilPreferences())

        var expected = PencilPreferences()
        expected.doubleTapAction = .showColorPalette
        expected.squeezeButton = .longPress
        expected.tapMaxDuration = 250
        expected.doubleTapSlop = 2.5
        let result = try await client.setPreferences(.init(doubleTapAction: .showColorPalette, squeezeButton: .longPress,
                                                           tapMaxDuration: 250, doubleTapSlop: 2.5))
        #expect(result == expected)
        #expect(try await client.preferences() == expected)

        // The whole set replaces every field.
        var all = PencilPreferences()
        all.squeezeAction = .switchPrevious
        #expect(try await client.setPreferences(all) == all)
        #expect(try await client.preferences() == all)
    }

    @Test("the four preferences of stylus identity and the mirror round-trip, and a restart keeps them")
    func newPreferencesRoundTrip() async throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = PencilClient(socketPath: daemon.socketPath)
        let defaults = try await client.preferences()
        #expect(defaults.withholdGestureClicks && defaults.eraserButton == .eraser && !defaults.prefersPencilOnlyDrawing
                && defaults.prefersHoverToolPreview && defaults.mirrorSwitchesTool)
        let result = try await client.setPreferences(.init(withholdGestureClicks: false, eraserButton: .button,
                                                           prefersPencilOnlyDrawing: true, prefersHoverToolPreview: false,
                                                           mirrorSwitchesTool: false))
        #expect(!result.withholdGestureClicks && result.eraserButton == .button && result.prefersPencilOnlyDrawing
                && !result.prefersHoverToolPreview && !result.mirrorSwitchesTool)
        #expect(result.doubleTapAction == defaults.doubleTapAction, "the other fields are kept")
        #expect(try await client.preferences() == result)
        // The eraser button as the tap button, by name.
        #expect(try await client.setPreferences(.init(tapButton: .eraser)).tapButton == .eraser)
        daemon.stop()
        let again = try RunningDaemon(stateDirectory: daemon.stateDirectory)
        defer { again.stop(); again.removeDirectory() }
        let stored = try await PencilClient(socketPath: again.socketPath).preferences()
        #expect(stored.eraserButton == .button && !stored.prefersHoverToolPreview && stored.tapButton == .eraser
                && !stored.withholdGestureClicks && !stored.mirrorSwitchesTool)
    }

    @Test("a preferencesChanged event carries the new preferences")
    func preferencesChangedEvent() async throws {
        let daemon = try sessionDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = PencilClient(socketPath: daemon.socketPath)
        var events = client.events(types: [.deviceAdded, .preferencesChanged]).makeAsyncIterator()
        // The stream opens with the attached device: the subscription is in place.
        #expect(try await events.next()?.type == .deviceAdded)
        let result = try await client.setPreferences(.init(squeezeAction: .showInkAttributes, longPressDuration: 800))
        let event = try await events.next()
        #expect(event?.type == .preferencesChanged)
        #expect(event?.preferences == result)
        #expect(result.squeezeAction == .showInkAttributes && result.longPressDuration == 800)
    }

    @Test("invalid preferences: the daemon's InvalidPreferences as a typed error with field and reason, and nothing changes",
          arguments: [
              (PencilPreferences.Change(tapMaxDuration: 0), "tapMaxDuration"),
              (PencilPreferences.Change(doubleTapAction: .unknown("summonDragon")), "doubleTapAction"),
              (PencilPreferences.Change(tapButton: .stylus2, squeezeButton: .stylus2), "squeezeButton"),
          ])
    func invalidPreferences(change: PencilPreferences.Change, field: String) async throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = PencilClient(socketPath: daemon.socketPath)
        do {
            try await client.setPreferences(change)
            Issue.record("accepted \(change)")
        } catch {
            guard case .invalidPreferences(let badField, let reason) = error else {
                Issue.record("expected .invalidPreferences, got \(error)")
                return
            }
            #expect(badField == field)
            #expect(!reason.isEmpty)
        }
        #expect(try await client.preferences() == PencilPreferences())
    }

    @Test("devices lists what the daemon has, typed")
    func devices() async throws {
        let daemon = try sessionDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = PencilClient(socketPath: daemon.socketPath)
        let devices = try await client.devices()
        let device = try #require(devices.first)
        #expect(devices.count == 1)
        #expect(device.id == "replay0")
        #expect(device.tools.contains(.pen))
        #expect(device.buttons == [.stylus, .stylus2])
        #expect(device.tools.allSatisfy(\.isKnown) && device.axes.allSatisfy(\.isKnown))
    }

    @Test("the socket is found as pencilctl finds it: PENCILD_SOCKET, the user's, the system's")
    func socketLookUp() {
        let none: (String) -> String? = { _ in nil }
        #expect(DaemonSocket.path(environment: none, exists: { _ in true }) == DaemonSocket.systemPath)
        let user: (String) -> String? = { $0 == "XDG_RUNTIME_DIR" ? "/run/user/1000" : nil }
        #expect(DaemonSocket.path(environment: user, exists: { $0 == "/run/user/1000/pencild.sock" }) == "/run/user/1000/pencild.sock")
        #expect(DaemonSocket.path(environment: user, exists: { _ in false }) == DaemonSocket.systemPath)
        let explicit: (String) -> String? = { $0 == "PENCILD_SOCKET" ? "/somewhere/p.sock" : "/run/user/1000" }
        #expect(DaemonSocket.path(environment: explicit, exists: { _ in true }) == "/somewhere/p.sock")
        #expect(PencilClient(socketPath: "/somewhere/p.sock").socketPath == "/somewhere/p.sock")
    }

    @Test("a Monitor of a device that is not attached ends the sequence with noSuchDevice, whatever the policy")
    func noSuchDevice() async throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = PencilClient(socketPath: daemon.socketPath)
        do {
            for try await event in client.events(devices: ["event99"]) { Issue.record("an event: \(event)") }
            Issue.record("the sequence ended without an error")
        } catch {
            #expect(error == .noSuchDevice("event99"))
        }
    }

    static let setpriv = "/usr/bin/setpriv"

    @Test("a user pencild refuses gets permissionDenied, typed (the example run as nobody; needs root)",
          .requires(.root, .program(setpriv, package: "util-linux")))
    func permissionDenied() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        // A copy nobody can reach, in the daemon's directory (mode 755).
        let example = daemon.directory + "/pencil-gestures-example"
        try FileManager.default.copyItem(atPath: FileSystem.directoryName(of: RunningDaemon.binaryPath) + "/pencil-gestures-example", toPath: example)
        let result = try runProgram(Self.setpriv, ["--reuid=65534", "--regid=65534", "--clear-groups", example],
                                    environment: ["PENCILD_SOCKET": daemon.socketPath], timeout: 30)
        #expect(result.status == 0, "\(result.output)")
        let refusal = PencilClientError.permissionDenied.description
        #expect(result.output.contains("no focus claim: \(refusal)"), "\(result.output)")
        #expect(result.output.contains("pencild: \(refusal)"), "\(result.output)")
    }
}
