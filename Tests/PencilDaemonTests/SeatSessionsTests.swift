import Foundation
import JSON
@testable import PencilDaemon
import PencilProtocol
import Testing

/// The system service with the seats a test gives it (`TestSeatSessions`), on the embedded
/// daemon: who reads the seat's pens and who may have keys pressed follow the seat's active
/// user (docs/protocol.md, "Who sees which pen" and "Key chords"). SeatReadersTests and
/// PressChordTests prove the same with logind's own state files and sd-login, as root.
@Suite("Seats as the test seats its users")
struct SeatSessionsTests {
    static let demoDevice = "demo0"

    static func deviceEvents(_ client: EmbeddedClient) -> [EventType] {
        client.events.filter { $0.device == demoDevice }.map(\.type)
    }

    @Test("the seat's pen streams to the user at the seat and to root, not to another user; at a switch it changes hands")
    func pensFollowTheSeat() throws {
        let seats = TestSeatSessions(holders: ["seat0": 1000])
        let daemon = try EmbeddedDaemon(demo: true, access: TestAccess(allowed: [0, 1000, 1001], everySeat: [0]),
                                        mode: .system, seatSessions: seats)
        let seated = try daemon.client(uid: 1000, pid: 10)
        let other = try daemon.client(uid: 1001, pid: 11)
        let root = try daemon.client(uid: 0, pid: 12)
        for client in [seated, other, root] { client.call("org.pencild.Pen.Monitor", more: true) }
        daemon.advance(by: 500_000)
        #expect(Self.deviceEvents(seated).first == .deviceAdded)
        #expect(Self.deviceEvents(root).first == .deviceAdded)
        #expect(Self.deviceEvents(other).isEmpty)

        // The seat goes to uid 1001: logind's monitor would wake the daemon.
        seats.holders["seat0"] = 1001
        daemon.service.sessionsChanged(now: daemon.now)
        daemon.pump()
        let seatedBefore = Self.deviceEvents(seated).count
        daemon.advance(by: 500_000)
        #expect(Self.deviceEvents(seated).last == .deviceRemoved)
        #expect(Self.deviceEvents(seated).count == seatedBefore, "the old user read the pen after the switch")
        #expect(Self.deviceEvents(other).first == .deviceAdded)
        #expect(Self.deviceEvents(other).count > 1, "the new user's stream has the pen's events")
        #expect(!root.closed && !seated.closed && !other.closed)
    }

    @Test("where logind keeps no seats, the system service streams every pen to everyone it admits")
    func untrackedSeatsRestrictNobody() throws {
        let seats = TestSeatSessions(holders: ["seat0": 1000])
        seats.areTracked = false
        let daemon = try EmbeddedDaemon(demo: true, access: TestAccess(allowed: [0, 1000, 1001], everySeat: [0]),
                                        mode: .system, seatSessions: seats)
        let other = try daemon.client(uid: 1001)
        other.call("org.pencild.Pen.Monitor", more: true)
        daemon.advance(by: 500_000)
        #expect(Self.deviceEvents(other).first == .deviceAdded)
    }

    @Test("keys are pressed only for the seat's active user; nobody's where logind keeps no seats, nor by a user's pencild")
    func keyAccessFollowsTheSeat() throws {
        let seats = TestSeatSessions(holders: ["seat0": 1000])
        let daemon = try EmbeddedDaemon(mode: .system, seatSessions: seats)
        #expect(daemon.service.keyAccess(uid: 1000) == .allowed)
        #expect(daemon.service.keyAccess(uid: 1001) == .denied)
        seats.holders["seat0"] = 1001
        #expect(daemon.service.keyAccess(uid: 1000) == .denied)
        #expect(daemon.service.keyAccess(uid: 1001) == .allowed)
        seats.areTracked = false
        if case .noKeyboard = daemon.service.keyAccess(uid: 1001) {} else { Issue.record("a keyboard where logind keeps no seats") }

        let userDaemon = try EmbeddedDaemon(seatSessions: TestSeatSessions(holders: ["seat0": 1000]))
        if case .noKeyboard = userDaemon.service.keyAccess(uid: 1000) {} else { Issue.record("a user's pencild has a keyboard") }
    }

    @Test("the seat's user from outside the session (an SSH login) is refused a chord; another user is refused as well")
    func chordFromOutsideTheSession() throws {
        let seats = TestSeatSessions(holders: ["seat0": 1000])
        let daemon = try EmbeddedDaemon(demo: true, mode: .system, seatSessions: seats)
        let chord: JSONValue = .object([("device", .string(Self.demoDevice)), ("keys", .array([.string("e")]))])
        let remote = try daemon.client(uid: 1000, pid: 20)
        remote.call("org.pencild.Pen.PressChord", chord)
        #expect(remote.errors == ["org.pencild.Pen.PermissionDenied"])
        let other = try daemon.client(uid: 1001, pid: 21)
        other.call("org.pencild.Pen.PressChord", chord)
        #expect(other.errors == ["org.pencild.Pen.PermissionDenied"])
        #expect(daemon.log.contains { $0.contains("pid 20 is neither in seat0's active session") })
        #expect(daemon.log.contains { $0.contains("uid 1001 does not hold seat0") })
    }
}
