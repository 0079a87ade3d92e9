import Foundation
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink
#if canImport(Glibc)
import Glibc
#endif

/// Parts of the protocol seen only from outside: the real pencild binary on a real socket.
@Suite("The protocol, end to end")
struct ProtocolBehaviourTests {
    private func event(_ parameters: JSONValue?) throws -> Event {
        try Event(json: try #require(parameters?["event"]))
    }

    @Test("a user's monitors get preferencesChanged with the preferences just set")
    func preferencesChangedReachesMonitors() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let watcher = try daemon.client()
        var stream = try watcher.stream("org.pencild.Pen.Monitor")
        // Monitor answers once subscribed; a call on another connection comes after it.
        let setter = try daemon.client()
        _ = try setter.call("org.varlink.service.GetInfo")
        let set = try setter.call("org.pencild.Pen.SetPreferences",
                                  .object([("preferences", .object([("squeezeAction", .string("ignore")), ("doubleTapSlop", .double(2.5))]))]))
        #expect(set["preferences"]?["squeezeAction"] == .string("ignore"))
        let changed = try event(stream.next())
        #expect(changed.type == .preferencesChanged)
        #expect(changed.preferences?.squeezeAction == .ignore)
        #expect(changed.preferences?.doubleTapSlop == 2.5)
        #expect(changed.device == nil && changed.pose == nil)
    }

    @Test("a oneway call gets no reply, and what it asked for happens")
    func onewayCalls() throws {
        let daemon = try RunningDaemon()
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = try daemon.client()
        try client.callOneway("org.pencild.Pen.SetPreferences", .object([("preferences", .object([("tapMaxDuration", .int(250))]))]))
        // Had the oneway call been answered, that answer (preferences) would come first.
        let info = try client.call("org.varlink.service.GetInfo")
        #expect(info["product"] == .string("pencild"))
        #expect(info["preferences"] == nil)
        let stored = try client.call("org.pencild.Pen.GetPreferences")
        #expect(stored["preferences"]?["tapMaxDuration"] == .int(250))
    }

    @Test("Monitor filtered to a device that exists streams that device's events")
    func monitorOneDevice() throws {
        let daemon = try RunningDaemon(["--demo"])
        defer { daemon.stop(); daemon.removeDirectory() }
        let client = try daemon.client()
        let devices = try client.call("org.pencild.Pen.ListDevices")["devices"]?.arrayValue ?? []
        let id = try #require(devices.first?["id"]?.stringValue)
        var stream = try daemon.client().stream("org.pencild.Pen.Monitor", .object([("devices", .array([.string(id)]))]))
        let added = try event(stream.next())
        #expect(added.type == .deviceAdded)
        #expect(added.deviceInfo?.id == id)
        var types: Set<EventType> = []
        for _ in 0..<40 {
            let next = try event(stream.next())
            #expect(next.device == id)
            types.insert(next.type)
        }
        #expect(types.contains(.motion) || types.contains(.hover), "the demo pen moves: \(types)")
    }

    @Test("a client that does not read its replies is read no further; others are served; it is read again once it reads")
    func queuedRequestsStopReading() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        let config = directory + "/pencild.conf"
        try "[Limits]\nMaxQueuedRequests=2\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try RunningDaemon(["--config", config], directory: directory)
        defer { daemon.stop(); daemon.removeDirectory() }
        // Each request asks for the interface description, a reply many times the request's
        // size: the replies fill the socket, the daemon's queue reaches its limit, and the
        // daemon must stop reading, so that the requests back up until writing would block.
        let greedy = try UnixSocket.connect(to: daemon.socketPath)
        defer { greedy.close() }
        _ = fcntl(greedy.rawValue, F_SETFL, fcntl(greedy.rawValue, F_GETFL) | O_NONBLOCK)
        let request = Array(#"{"method":"org.varlink.service.GetInterfaceDescription","parameters":{"interface":"org.pencild.Pen"}}"#.utf8) + [0]
        var written = 0
        var blocked = false
        var pendingTail: [UInt8] = []
        let limit = 100_000
        while written < limit, !blocked {
            let result = request.withUnsafeBytes { raw in Result { () throws(Errno) -> Int in try UnixSocket.send(greedy, raw) } }
            switch result {
            case .success(let count) where count == request.count: written += 1
            case .success(let count):
                // Half a request went in: send the rest once the daemon reads again.
                written += 1
                pendingTail = Array(request[count...])
                blocked = true
            case .failure(let error):
                #expect(error == .wouldBlock, "\(error)")
                blocked = true
            }
        }
        #expect(blocked, "the daemon read all \(limit) requests although no reply was read")
        // Another client is served while the greedy one is stuck.
        let bystander = try daemon.client()
        #expect(try bystander.call("org.varlink.service.GetInfo")["product"] == .string("pencild"))
        // The greedy client reads: every request it wrote is answered, in full.
        _ = fcntl(greedy.rawValue, F_SETFL, fcntl(greedy.rawValue, F_GETFL) & ~O_NONBLOCK)
        if !pendingTail.isEmpty {
            _ = try pendingTail.withUnsafeBytes { raw in Result { () throws(Errno) -> Int in try UnixSocket.send(greedy, raw) } }.get()
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(greedy.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var replies = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var tail: [UInt8] = []
        while replies < written {
            let count = try buffer.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) -> Int in try UnixSocket.receive(greedy, into: raw) }
            }.get()
            guard count > 0 else { break }
            for byte in buffer[0..<count] {
                if byte == 0 {
                    let reply = try JSONReader.parse(tail)
                    #expect(reply["parameters"]?["description"]?.stringValue?.contains("interface org.pencild.Pen") == true)
                    replies += 1
                    tail.removeAll(keepingCapacity: true)
                } else {
                    tail.append(byte)
                }
            }
        }
        #expect(replies == written, "\(written) requests, \(replies) replies")
    }

    @Test("Python's json reads the demo pen's floats as docs/protocol.md writes them: plain decimals, at most each field's places",
          .requires(.program("/usr/bin/python3", package: "python3")))
    func pythonReadsTheWireNumbers() throws {
        let daemon = try RunningDaemon(["--demo"])
        defer { daemon.stop(); daemon.removeDirectory() }
        // Each float keeps its text (parse_float), checked against its member's name.
        let script = """
        import json, socket, sys
        PLACES = {"x": 6, "y": 6, "pressure": 6, "zOffset": 6, "slider": 6, "wheel": 6, "xMillimeters": 3,
                  "yMillimeters": 3, "tiltX": 2, "tiltY": 2, "azimuth": 5, "altitude": 5, "roll": 5}
        class Number(float):
            pass
        def number(text):
            value = Number(float(text))
            value.text = text
            return value
        bad, checked = [], 0
        def members(items):
            global checked
            for key, value in items:
                if key in PLACES and isinstance(value, Number):
                    checked += 1
                    text = value.text
                    decimals = len(text.split(".")[1]) if "." in text else 0
                    if "e" in text.lower() or decimals > PLACES[key] or text.endswith("0") and decimals \
                            or round(float(value), PLACES[key]) != float(value):
                        bad.append((key, text))
            return dict(items)
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect(sys.argv[1])
        s.sendall(b'{"method":"org.pencild.Pen.Monitor","more":true}\\0')
        data, messages = b"", 0
        while messages < 200:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
            # A chunk may end past the 200th message: those after it are not counted.
            while b"\\0" in data and messages < 200:
                message, data = data.split(b"\\0", 1)
                json.loads(message, parse_float=number, object_pairs_hook=members)
                messages += 1
        print("messages", messages, "checked", checked, "bad", bad[:5])
        """
        let result = try runProgram("/usr/bin/python3", ["-c", script, daemon.socketPath])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("messages 200 "), "\(result.output)")
        #expect(result.output.hasSuffix("bad []\n"), "\(result.output)")
        let checked = result.output.split(separator: " ").drop { $0 != "checked" }.dropFirst().first.flatMap { Int($0) } ?? 0
        #expect(checked > 200, "floats checked: \(result.output)")
    }
}
