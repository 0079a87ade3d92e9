@testable import PencilDaemon
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink

/// Who may use pencild and how much of it, on the daemon's service in virtual time: what a
/// local user who tries to lock the others out, or to read someone else's pen, can do.
@Suite("Access and limits, in virtual time")
struct AccessAndLimitsTests {
    static let denied = PenInterface.ErrorName.permissionDenied.qualifiedName
    static let tooMany = PenInterface.ErrorName.tooManyClients.qualifiedName

    @Test("a peer without access is told PermissionDenied at once, without a call, and takes no place")
    func refusedAtOnce() throws {
        let daemon = try EmbeddedDaemon(access: TestAccess(allowed: [0]))
        for _ in 0..<300 {
            guard case .failure(let refused) = daemon.connect(uid: 65534) else {
                Issue.record("uid 65534 was admitted")
                return
            }
            #expect(refused.reply["error"] == .string(Self.denied))
        }
        #expect(daemon.service.clientCount == 0)
        // Root is served as if nothing had happened.
        let root = try daemon.client(uid: 0)
        root.call("org.varlink.service.GetInfo")
        #expect(root.messages.last?["parameters"]?["version"] == .string(Daemon.version))
    }

    @Test("one user's clients cannot starve another's: a cap per uid, and the total keeps room for root")
    func perUserCap() throws {
        var limits = Limits()
        limits.maximumClients = 64
        limits.maximumClientsPerUser = 16
        let daemon = try EmbeddedDaemon(access: TestAccess(allowed: [0, 1000, 1001, 1002, 1003, 1004]), limits: limits)
        var held: [EmbeddedClient] = []
        for _ in 0..<16 { held.append(try daemon.client(uid: 1000)) }
        guard case .failure(let refused) = daemon.connect(uid: 1000) else {
            Issue.record("a 17th client of uid 1000 was admitted")
            return
        }
        #expect(refused.reply["error"] == .string(Self.tooMany))
        #expect(refused.reply["parameters"]?["perUser"] == .bool(true))
        // Another user still gets in, until everyone but root has used 64 - 16 places.
        for uid in UInt32(1001)...1002 { for _ in 0..<16 { held.append(try daemon.client(uid: uid)) } }
        guard case .failure(let full) = daemon.connect(uid: 1003) else {
            Issue.record("the places kept for root were given away")
            return
        }
        #expect(full.reply["parameters"]?["perUser"] == .bool(false))
        // Root has its own places, and its own cap.
        for _ in 0..<16 { held.append(try daemon.client(uid: 0)) }
        if case .success = daemon.connect(uid: 0) { Issue.record("root is exempt from its per-uid cap") }
        // A place comes free when a client leaves.
        held.removeFirst().hangUp()
        #expect((try? daemon.connect(uid: 1000).get()) != nil)
    }

    @Test("an idle connection is closed after the idle timeout; a stream and the focus holder's are not")
    func idleTimeout() throws {
        var limits = Limits()
        limits.idleTimeout = 2_000_000
        let daemon = try EmbeddedDaemon(demo: true, limits: limits)
        let idle = try daemon.client(uid: 1000, pid: 1)
        let streaming = try daemon.client(uid: 1000, pid: 2)
        streaming.call("org.pencild.Pen.Monitor", more: true)
        let focused = try daemon.client(uid: 1001, pid: 3)
        focused.call("org.pencild.Pen.SetFocus", .object([("focused", .bool(true))]))
        let talking = try daemon.client(uid: 1001, pid: 4)
        for _ in 0..<3 {
            daemon.advance(by: 1_500_000)
            talking.call("org.varlink.service.GetInfo")
        }
        #expect(idle.closed)
        #expect(!streaming.closed)
        #expect(!focused.closed)
        #expect(!talking.closed)
        #expect(!streaming.events.isEmpty)
    }

    @Test("access is decided at every call: a user who lost access is refused on an old connection")
    func accessAtEveryCall() throws {
        let access = TestAccess(allowed: [0, 1000])
        let daemon = try EmbeddedDaemon(demo: true, access: access)
        let old = try daemon.client(uid: 1000)
        old.call("org.pencild.Pen.ListDevices")
        #expect(old.errors.isEmpty)
        // The seat goes to another user; no session monitor tells the daemon.
        access.allowed = [0, 1001]
        old.call("org.pencild.Pen.Monitor", more: true)
        #expect(old.errors == [Self.denied])
        #expect(old.events.isEmpty)
        #expect(old.closed)
    }

    @Test("a session change closes every connection that lost access, streaming or idle")
    func sessionChangeRechecksAll() throws {
        let access = TestAccess(allowed: [0, 1000])
        let daemon = try EmbeddedDaemon(demo: true, access: access)
        let idle = try daemon.client(uid: 1000, pid: 10)
        let stream = try daemon.client(uid: 1000, pid: 11)
        stream.call("org.pencild.Pen.Monitor", more: true)
        let root = try daemon.client(uid: 0)
        root.call("org.pencild.Pen.Monitor", more: true)
        daemon.advance(by: 100_000)
        access.allowed = [0, 1001]
        daemon.service.sessionsChanged(now: daemon.now)
        daemon.pump()
        #expect(idle.closed && idle.errors == [Self.denied])
        #expect(stream.closed && stream.errors == [Self.denied])
        let before = root.events.count
        daemon.advance(by: 100_000)
        #expect(!root.closed && root.events.count > before)
    }

    @Test("a flood of oneway calls from one client: at most 8 of its calls a turn, and another client is answered in the same turn")
    func onewayFloodIsBounded() throws {
        let daemon = try EmbeddedDaemon()
        let flooder = try daemon.client(uid: 1000, pid: 1)
        let other = try daemon.client(uid: 1001, pid: 2)
        var flood: [UInt8] = []
        for index in 0..<2000 {
            let value = index % 2 == 0 ? "switchEraser" : "showColorPalette"
            flood += VarlinkCall(method: "org.pencild.Pen.SetPreferences",
                                 parameters: .object([("preferences", .object([("doubleTapAction", .string(value))]))]),
                                 oneway: true).encoded
        }
        flood.withUnsafeBytes { daemon.service.received($0, on: flooder.connection, now: daemon.now) }
        #expect(daemon.service.hasBacklog)
        // The other client's call is handled at its own turn, not after 2000 calls.
        other.call("org.varlink.service.GetInfo")
        #expect(other.messages.count == 1)
        let turns = daemon.turnsUntilIdle()
        #expect(turns >= 2000 / Limits().connection.callsPerTurn - 2)
        // Writes were coalesced: at most one now and one per interval since.
        daemon.advance(by: 1_000_000)
        #expect(daemon.service.preferences.writeCount <= 2)
        #expect(daemon.service.preferences.preferences(for: 1000).doubleTapAction == .showColorPalette)
    }

    @Test("SetPreferences that changes nothing writes nothing; quick changes are written together, last value wins")
    func preferencesWritesCoalesce() throws {
        let daemon = try EmbeddedDaemon()
        let client = try daemon.client(uid: 1000)
        func set(_ action: String) {
            client.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([("squeezeAction", .string(action))]))]))
        }
        set("showContextualPalette") // the default: nothing to write
        #expect(daemon.service.preferences.writeCount == 0)
        #expect(client.messages.count == 1)
        set("showColorPalette")
        #expect(daemon.service.preferences.writeCount == 1)
        set("switchEraser") // within the interval: waits for the coalesced write
        #expect(client.messages.count == 2)
        daemon.advance(by: PenService.preferencesWriteInterval)
        #expect(daemon.service.preferences.writeCount == 2)
        #expect(client.messages.count == 3)
        #expect(client.messages.last?["parameters"]?["preferences"]?["squeezeAction"] == .string("switchEraser"))
    }

    @Test("connection slots are reused: a million connections leave the table as small as the most at once")
    func slotsAreReused() throws {
        var table = ClientTable()
        let peer = PeerCredentials(pid: 1, uid: 1000, gid: 1000)
        var seen = Set<UInt64>()
        for _ in 0..<1_000 {
            let a = table.insert(peer: peer, limits: Limits().connection, now: HostTime(microseconds: 0))
            let b = table.insert(peer: peer, limits: Limits().connection, now: HostTime(microseconds: 0))
            seen.insert(UInt64(a.generation) << 16 | UInt64(a.slot))
            table.remove(a)
            table.remove(b)
        }
        #expect(table.slots.count == 2)
        // Generations tell the reused slot's connections apart.
        #expect(seen.count == 1_000)
    }
}

@Suite("Log lines from outside")
struct LogLineTests {
    @Test("control characters cannot start a journal line of their own")
    func escaping() {
        let lines = LineCollector()
        let logger = Logger(level: .debug, sink: { lines.append($0) })
        logger.warning("Monitor\n<0>forged\r\u{7f}end")
        #expect(lines.last == "<4>Monitor\\x0a<0>forged\\x0d\\x7fend\n")
    }

    @Test("the log escapes C1 and the bidirectional controls as pencilctl does; accents and other marks are logged as they are")
    func escapingC1AndBidi() {
        let lines = LineCollector()
        let logger = Logger(level: .debug, sink: { lines.append($0) })
        // A device named with CSI as one C1 byte (U+009B) and a right-to-left override.
        let hostile = "device \u{9B}2J\u{85}pen\u{202E}txt.exe\u{2066}\u{200F}\u{061C}"
        logger.info("added \(hostile)")
        #expect(lines.last == "<6>added device \\x9b2J\\x85pen\\u{202e}txt.exe\\u{2066}\\u{200f}\\u{61c}\n")
        #expect(lines.last == "<6>added \(hostile.escapedForTerminal)\n", "the one escaping, shared with pencilctl")
        // Neighbours of the escaped code points stay: no-break space, é, U+202F, U+2065, U+061B.
        let plain = "Stylet à pointe\u{A0}fine\u{202F}\u{2065}\u{061B} ✏️"
        logger.info(plain)
        #expect(lines.last == "<6>\(plain)\n")
    }

    @Test("a user's flood of log lines is cut after its burst, and the count is logged when the window ends")
    func rateLimitPerUID() {
        let lines = LineCollector()
        var log = ClientLog(logger: Logger(level: .debug, sink: { lines.append($0) }), burst: 5, window: 10_000_000)
        for index in 0..<1000 { log.log(.warning, uid: 65534, now: HostTime(microseconds: Int64(index)), "bad message \(index)") }
        log.log(.warning, uid: 1000, now: HostTime(microseconds: 2000), "another user")
        #expect(lines.count == 6)
        #expect(log.nextDeadline == HostTime(microseconds: 10_000_000))
        log.fireDue(now: HostTime(microseconds: 10_000_000))
        #expect(lines.last?.contains("995 more log lines") == true)
    }
}

final class LineCollector: @unchecked Sendable {
    private(set) var lines: [String] = []
    var count: Int { lines.count }
    var last: String? { lines.last }
    func append(_ bytes: [UInt8]) { lines.append(String(decoding: bytes, as: UTF8.self)) }
}
