import Foundation
@testable import PencilDaemon
import PencilInput
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing

/// The half of "an idle daemon does not wake up" that the service decides: the deadline it
/// asks the loop to arm. (ServerTests counts the real daemon's wake-ups.)
@Suite("Idle, in virtual time")
struct IdleTests {
    @Test("with no pen and only a stream open, the service asks for no wake-up at all")
    func noDeadlineWhenNothingHappens() throws {
        let daemon = try EmbeddedDaemon()
        let watcher = try daemon.client()
        watcher.call("org.pencild.Pen.Monitor", more: true)
        #expect(daemon.nextDeadline() == nil)
        daemon.advance(by: 24 * 3_600_000_000)
        #expect(!watcher.closed)
        #expect(daemon.nextDeadline() == nil)
    }

    @Test("a silent connection that does not stream is the only deadline: its idle timeout")
    func idleTimeoutIsTheOnlyDeadline() throws {
        var limits = Limits()
        limits.idleTimeout = 60_000_000
        let daemon = try EmbeddedDaemon(limits: limits)
        let start = daemon.now
        let caller = try daemon.client()
        caller.call("org.varlink.service.GetInfo")
        #expect(daemon.nextDeadline() == start + limits.idleTimeout)
        daemon.advance(by: limits.idleTimeout)
        #expect(caller.closed)
        #expect(daemon.nextDeadline() == nil)
    }

    @Test("a replay asks for a wake-up per frame or timer, never one in the past, and none once it has ended")
    func replayDeadlinesEnd() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let session = penSession()
        let path = directory + "/session.events"
        try EvemuWriter.recording(session.device, session.events).write(toFile: path, atomically: true, encoding: .utf8)
        let daemon = try EmbeddedDaemon(replays: [.init(path: path)], speed: 1)
        let watcher = try daemon.client()
        watcher.call("org.pencild.Pen.Monitor", more: true)
        var wakeUps = 0
        while let next = daemon.nextDeadline(), wakeUps < 10_000 {
            #expect(next >= daemon.now)
            daemon.advance(by: next - daemon.now)
            wakeUps += 1
        }
        #expect(watcher.eventValues.last?["type"] == .string("deviceRemoved"))
        // One wake-up per frame at most, plus the timers (the session has about 260 frames).
        let frames = session.events.filter(\.isSynReport).count
        #expect(wakeUps > 10 && wakeUps <= frames + 10, "\(wakeUps) wake-ups for \(frames) frames")
        #expect(daemon.nextDeadline() == nil)
        #expect(!watcher.closed)
    }
}
