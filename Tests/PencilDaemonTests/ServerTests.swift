import Foundation
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink

@Suite("The server, end to end", .serialized)
struct ServerTests {
    @Test("GetInfo names both interfaces and GetInterfaceDescription serves their text")
    func serviceInterface() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = try daemon.client()
        let info = try client.call("org.varlink.service.GetInfo")
        #expect(info["interfaces"] == .array([.string("org.varlink.service"), .string("org.pencild.Pen")]))
        #expect(info["version"]?.stringValue?.isEmpty == false)
        let pen = try client.call("org.varlink.service.GetInterfaceDescription", .object([("interface", .string("org.pencild.Pen"))]))
        #expect(pen["description"]?.stringValue?.contains("interface org.pencild.Pen") == true)
        #expect(pen["description"]?.stringValue?.contains("method Monitor(devices: ?[]string, events: ?[]string)") == true)
        let service = try client.call("org.varlink.service.GetInterfaceDescription", .object([("interface", .string("org.varlink.service"))]))
        #expect(service["description"]?.stringValue?.contains("interface org.varlink.service") == true)
        let missing = remoteError { _ = try client.call("org.varlink.service.GetInterfaceDescription", .object([("interface", .string("com.example.Nothing"))])) }
        #expect(missing?.name == "org.varlink.service.InterfaceNotFound")
    }

    @Test("wrong calls get the standard error that fits")
    func standardErrors() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = try daemon.client()
        #expect(remoteError { _ = try client.call("com.example.Thing.Do") }?.name == "org.varlink.service.InterfaceNotFound")
        #expect(remoteError { _ = try client.call("org.pencild.Pen.Fly") } == .methodNotFound("org.pencild.Pen.Fly"))
        #expect(remoteError { _ = try client.call("org.pencild.Pen.Monitor") } == .expectedMore)
        var stream = try client.stream("org.pencild.Pen.Monitor", .object([("devices", .array([.string("event99")]))]))
        #expect(remoteError { _ = try stream.next() } == VarlinkError(name: "org.pencild.Pen.NoSuchDevice", parameters: .object([("device", .string("event99"))])))
        var badEvents = try client.stream("org.pencild.Pen.Monitor", .object([("events", .array([.string("teleport")]))]))
        #expect(remoteError { _ = try badEvents.next() } == .invalidParameter("events"))
        #expect(remoteError { _ = try client.call("org.pencild.Pen.SetPreferences") } == .invalidParameter("preferences"))
        let invalid = remoteError { _ = try client.call("org.pencild.Pen.SetPreferences", .object([("preferences", .object([("tapMaxDuration", .string("fast"))]))])) }
        #expect(invalid?.name == "org.pencild.Pen.InvalidPreferences")
        #expect(invalid?.parameters["field"] == .string("tapMaxDuration"))
        // The connection is still good after all that.
        #expect(try client.call("org.pencild.Pen.ListDevices")["devices"] == .array([]))
    }

    @Test("a call split into single bytes, and calls pipelined in one write, are all answered in order")
    func partialAndPipelined() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = try daemon.client()
        for byte in VarlinkCall(method: "org.pencild.Pen.ListDevices").encoded {
            try client.sendRaw([byte])
        }
        #expect(try client.readReply().parameters["devices"] == .array([]))
        var batch: [UInt8] = []
        for _ in 0..<5 { batch += VarlinkCall(method: "org.pencild.Pen.GetPreferences").encoded }
        batch += VarlinkCall(method: "org.varlink.service.GetInfo").encoded
        try client.sendRaw(batch)
        for _ in 0..<5 { #expect(try client.readReply().parameters["preferences"]?["tapButton"] == .string("stylus")) }
        #expect(try client.readReply().parameters["product"] == .string("pencild"))
    }

    /// Bad input by name: the test's arguments are the names, so that a run's log stays short.
    static func badInput(_ name: String) -> [UInt8] {
        switch name {
        case "oversize": return [UInt8](repeating: UInt8(ascii: " "), count: 70_000)
        case "invalid JSON": return Array("{\"method\":".utf8) + [0]
        case "lone NUL": return [0]
        case "not an object": return Array("[1,2,3]".utf8) + [0]
        default: return []
        }
    }

    @Test("bad input closes only the connection that sent it",
          arguments: ["oversize", "invalid JSON", "lone NUL", "not an object"])
    func badInputIsolated(name: String) throws {
        let bytes = Self.badInput(name)
        #expect(!bytes.isEmpty)
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let bystander = try daemon.client()
        let offender = try daemon.client()
        try? offender.sendRaw(bytes)
        #expect(connectionCloses(offender), "\(name): the connection should be closed")
        #expect(try bystander.call("org.varlink.service.GetInfo")["product"] == .string("pencild"))
        #expect(daemon.log.contains("disconnecting"), "\(name): the reason is logged")
    }

    @Test("a missing or mistyped field of a call is InvalidParameter naming it")
    func mistypedFields() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = try daemon.client()
        try client.sendRaw(Array("{\"parameters\":{}}".utf8) + [0])
        #expect(try client.readReply().parameters["parameter"] == .string("method"))
        try client.sendRaw(Array("{\"method\":\"org.pencild.Pen.ListDevices\",\"more\":3}".utf8) + [0])
        #expect(try client.readReply().parameters["parameter"] == .string("more"))
    }

    // As root: the daemon keeps MaxClientsPerUser of its MaxClients places for root
    // (ClientTable.admit), so with MaxClients=2 another user gets no place at all.
    @Test("clients over the limit are refused politely (needs root: the daemon keeps places for root)", .requires(.root))
    func tooManyClients() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        let config = directory + "/pencild.conf"
        try "[Limits]\nMaxClients=2\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(["--config", config], directory: directory)
        defer { daemon.stop(); daemon.removeDirectory() }
        // The harness's readiness probe counts until the daemon has seen it leave: the first
        // two clients are the first two the daemon serves once it has.
        let first = try servedClient(daemon)
        let second = try servedClient(daemon)
        defer { second.close() }
        let third = try daemon.client()
        // The refusal comes at once, before the client says anything, and the connection closes.
        let refusal = try third.readReply()
        #expect(refusal.error == "org.pencild.Pen.TooManyClients")
        #expect(refusal.parameters["limit"] == .int(2))
        #expect(connectionCloses(third))
        first.close()
        // A place frees once the daemon sees the first client leave.
        let fourth = try servedClient(daemon)
        #expect(try fourth.call("org.pencild.Pen.ListDevices")["devices"] == .array([]))
    }

    @Test("an idle daemon does not wake up")
    func idleWakeUps() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = try daemon.client()
        _ = try client.call("org.pencild.Pen.ListDevices")
        #expect(daemon.waitUntilAsleep(), "the daemon never settled in epoll_wait")
        func switches() throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches") }
            return Int(line?.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? -1
        }
        let before = try switches()
        // The window: an idle daemon sleeps through it.
        usleep(1_500_000)
        let after = try switches()
        #expect(before >= 0 && after == before, "the daemon woke \(after - before) times while idle")
    }
}

/// A client the daemon serves: connects and calls ListDevices, again while the daemon still
/// refuses it as one too many (it has not yet seen an earlier client leave: the refusal, or
/// the connection closing before the call is written), up to 10 s.
private func servedClient(_ daemon: RunningDaemon) throws -> VarlinkClient {
    let deadline = Date().addingTimeInterval(10)
    var client = try daemon.client()
    while remoteError({ _ = try client.call("org.pencild.Pen.ListDevices") }) != nil, Date() < deadline {
        client.close()
        usleep(20_000)
        client = try daemon.client()
    }
    return client
}
