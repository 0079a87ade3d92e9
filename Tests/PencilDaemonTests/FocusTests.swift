@testable import PencilDaemon
import PencilProtocol
import PencilTestSupport
import Testing

/// docs/protocol.md "Which app acts (focus)", on the daemon's service in virtual time with the demo
/// pen, made to double-tap and squeeze (PlayGesture): two apps of one user, then another user.
@Suite("Focus claims, in virtual time")
struct FocusTests {
    /// One demo loop (about 4 s), and a little more.
    static let loop: Int64 = 6_000_000

    /// The demo pen double-taps, then squeezes (asked by a process of its own), within a loop.
    static func playGestures(_ daemon: EmbeddedDaemon) throws {
        let player = try daemon.client(uid: 0, pid: 999)
        for gesture in ["doubleTap", "squeeze"] {
            player.call("org.pencild.Pen.PlayGesture", .object([("gesture", .string(gesture))]))
        }
        #expect(player.errors.isEmpty, "\(player.messages)")
    }

    static func claim(_ client: EmbeddedClient, _ focused: Bool = true) {
        client.call("org.pencild.Pen.SetFocus", .object([("focused", .bool(focused))]))
    }

    static func monitor(_ client: EmbeddedClient) {
        client.call("org.pencild.Pen.Monitor", .object([("events", .array([.string("doubleTap"), .string("squeeze")]))]), more: true)
    }

    /// Two apps of user 1000 (processes 100 and 200), each monitoring.
    static func twoMonitoringApps(_ daemon: EmbeddedDaemon) throws -> (EmbeddedClient, EmbeddedClient) {
        let apps = (try daemon.client(uid: 1000, pid: 100), try daemon.client(uid: 1000, pid: 200))
        monitor(apps.0)
        monitor(apps.1)
        return apps
    }

    /// The focus of each gesture a client has seen, from index `from` on.
    static func focuses(_ client: EmbeddedClient, from: Int = 0) -> [Focus?] {
        client.events.dropFirst(from).map(\.focus)
    }

    @Test("the app that claims sees this, the other app of its user other; when it exits, everyone sees none; another claim takes it")
    func claimsOfOneUser() throws {
        let daemon = try EmbeddedDaemon(demo: true)
        let (a, b) = try Self.twoMonitoringApps(daemon)
        // A claims on a second connection of its process: the claim is the process's.
        let aControl = try daemon.client(uid: 1000, pid: 100)
        Self.claim(aControl)
        #expect(aControl.errors.isEmpty && aControl.messages.count == 1)
        try Self.playGestures(daemon)
        daemon.advance(by: Self.loop)
        let aSeen = Self.focuses(a), bSeen = Self.focuses(b)
        #expect(!aSeen.isEmpty && aSeen.allSatisfy { $0 == .this }, "\(aSeen)")
        #expect(bSeen.count == aSeen.count && bSeen.allSatisfy { $0 == .other }, "\(bSeen)")
        #expect(a.events.contains { $0.type == .doubleTap } && a.events.contains { $0.type == .squeeze && $0.phase == .ended })

        // A's process exits: its last connection closes, and the claim with it.
        a.hangUp()
        #expect(daemon.service.focus.holder(of: 1000) == 100, "the claim outlived only one of A's connections")
        aControl.hangUp()
        #expect(daemon.service.focus.holder(of: 1000) == nil)
        // A squeeze under way keeps the focus it began with: judge from the next loop on.
        daemon.advance(by: Self.loop)
        var from = b.events.count
        try Self.playGestures(daemon)
        daemon.advance(by: Self.loop)
        #expect(Self.focuses(b, from: from).allSatisfy { $0 == Focus.none } && b.events.count > from)

        // B claims and takes it; SetFocus(false) gives it up.
        Self.claim(try daemon.client(uid: 1000, pid: 200))
        daemon.advance(by: Self.loop)
        from = b.events.count
        try Self.playGestures(daemon)
        daemon.advance(by: Self.loop)
        #expect(Self.focuses(b, from: from).allSatisfy { $0 == .this } && b.events.count > from)
        let bControl = try daemon.client(uid: 1000, pid: 200)
        Self.claim(bControl, false)
        #expect(daemon.service.focus.holder(of: 1000) == nil)
    }

    @Test("a squeeze that began under one app ends under it, even when another claims midway")
    func squeezeKeepsItsFocus() throws {
        let daemon = try EmbeddedDaemon(demo: true)
        let (a, b) = try Self.twoMonitoringApps(daemon)
        Self.claim(try daemon.client(uid: 1000, pid: 100))
        // Step until the squeeze begins, then B claims before it ends.
        try Self.playGestures(daemon)
        var steps = 0
        while !a.events.contains(where: { $0.type == .squeeze && $0.phase == .began }), steps < 3_000 {
            daemon.advance(by: 10_000)
            steps += 1
        }
        #expect(a.events.contains { $0.type == .squeeze && $0.phase == .began })
        #expect(!a.events.contains { $0.type == .squeeze && $0.phase == .ended })
        Self.claim(try daemon.client(uid: 1000, pid: 200))
        while !a.events.contains(where: { $0.type == .squeeze && $0.phase == .ended }), steps < 6_000 {
            daemon.advance(by: 10_000)
            steps += 1
        }
        let aSqueeze = a.events.filter { $0.type == .squeeze }, bSqueeze = b.events.filter { $0.type == .squeeze }
        #expect(aSqueeze.first?.phase == .began && aSqueeze.last?.phase == .ended)
        #expect(aSqueeze.dropFirst().dropLast().allSatisfy { $0.phase == .changed })
        #expect(aSqueeze.allSatisfy { $0.focus == .this }, "\(aSqueeze.map(\.focus))")
        #expect(bSqueeze.allSatisfy { $0.focus == .other }, "\(bSqueeze.map(\.focus))")
        // The gestures that begin from now on are B's.
        let from = b.events.count
        try Self.playGestures(daemon)
        daemon.advance(by: Self.loop)
        #expect(Self.focuses(b, from: from).allSatisfy { $0 == .this } && b.events.count > from)
    }

    @Test("two users' claims do not interfere, and a process that lost access cannot claim")
    func usersAreApart() throws {
        let access = TestAccess(allowed: [0, 1000, 1001])
        let daemon = try EmbeddedDaemon(demo: true, access: access)
        let mine = try daemon.client(uid: 1000, pid: 100)
        let theirs = try daemon.client(uid: 1001, pid: 300)
        Self.monitor(mine)
        Self.monitor(theirs)
        Self.claim(try daemon.client(uid: 1000, pid: 100))
        Self.claim(try daemon.client(uid: 1001, pid: 300))
        try Self.playGestures(daemon)
        daemon.advance(by: Self.loop)
        #expect(!mine.events.isEmpty && Self.focuses(mine).allSatisfy { $0 == .this })
        #expect(!theirs.events.isEmpty && Self.focuses(theirs).allSatisfy { $0 == .this })

        let intruder = try daemon.client(uid: 1002 - 1, pid: 400)
        access.allowed = [0, 1000]
        Self.claim(intruder)
        #expect(intruder.errors == [PenInterface.ErrorName.permissionDenied.qualifiedName])
        #expect(daemon.service.focus.holder(of: 1001) == 300)
    }
}
