import Foundation
import PencilTestSupport
import Testing

/// The system service on a machine with two seats (docs/protocol.md, "Who sees which pen"): a
/// pen's events, its place in ListDevices and its catch-up go to the user who holds its seat
/// and to root, never to the user of the other seat. logind's state files stand in a private
/// mount namespace for who holds which seat, as sd-login reads them.
@Suite("Seats: each seat's pen to its own user (needs root)", .serialized)
struct SeatReadersTests {
    static let needs = LocalAttackerTests.needs

    /// logind's state: each (seat, uid) pair is one active session of that user on that seat.
    static func writeSeats(in directory: String, _ holders: [(seat: String, uid: UInt32)]) throws {
        let files = try LogindFiles(in: directory)
        var sessionsByUser: [UInt32: [String]] = [:]
        for (seat, uid) in holders {
            let session = "\(seat)x\(uid)"
            sessionsByUser[uid, default: []].append(session)
            try files.session(session, uid: uid, seat: seat, isActive: true)
            try files.seat(seat, active: session, activeUID: uid, sessions: [session])
        }
        for (uid, sessions) in sessionsByUser {
            try files.user(uid, sessions: sessions, active: sessions)
        }
    }

    /// A client of another uid: ListDevices, then Monitor; each reply one line on its output
    /// ("devices ..." and "event TYPE DEVICE"), collected on a thread of its own.
    final class StreamingClient {
        let process: Process
        /// The lines so far, shared with the reading thread.
        private final class Lines: @unchecked Sendable {
            let lock = NSLock()
            var all: [String] = []
        }
        private let lines = Lines()
        private let arrived = DispatchSemaphore(value: 0)

        init(uid: UInt32, socket: String) throws {
            let script = """
            import json, socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            def replies():
                data = b""
                while True:
                    while b"\\0" not in data:
                        chunk = s.recv(65536)
                        if not chunk: return
                        data += chunk
                    message, data = data.split(b"\\0", 1)
                    yield json.loads(message)
            it = replies()
            s.sendall(b'{"method":"org.pencild.Pen.ListDevices"}\\0')
            reply = next(it)
            print("devices", " ".join(d["id"] for d in reply["parameters"]["devices"]), flush=True)
            s.sendall(b'{"method":"org.pencild.Pen.Monitor","more":true}\\0')
            for reply in it:
                if "error" in reply:
                    print("error", reply["error"], flush=True)
                    break
                event = reply["parameters"]["event"]
                print("event", event["type"], event.get("device", "-"), flush=True)
            """
            process = Process()
            process.executableURL = URL(fileURLWithPath: LocalAttackerTests.setpriv)
            process.arguments = ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", LocalAttackerTests.systemPython, "-c", script, socket]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let handle = output.fileHandleForReading
            let lines = self.lines, arrived = self.arrived
            Thread {
                var pending = ""
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    pending += String(decoding: data, as: UTF8.self)
                    while let newline = pending.firstIndex(of: "\n") {
                        let line = String(pending[..<newline])
                        pending = String(pending[pending.index(after: newline)...])
                        lines.lock.withLock { lines.all.append(line) }
                        arrived.signal()
                    }
                }
                arrived.signal()
            }.start()
        }

        var received: [String] { lines.lock.withLock { lines.all } }

        /// Waits until `condition` holds of the lines so far; false after `timeout` seconds.
        func wait(timeout: Double = 15, until condition: ([String]) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while !condition(received) {
                let left = deadline.timeIntervalSinceNow
                guard left > 0, arrived.wait(timeout: .now() + left) == .success else { return condition(received) }
            }
            return true
        }

        func stop() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    static func events(_ lines: [String], of device: String) -> [String] {
        lines.filter { $0.hasPrefix("event ") && $0.hasSuffix(" \(device)") }
    }

    @Test("a seat's pen goes only to the user who holds its seat and to root, and moves with the seat", .requires(needs))
    func eachSeatToItsUser() throws {
        // The demo pen is on seat0, held by 1000; 1001 holds seat1.
        let seats = try SeatedDaemon(seats: [("seat0", 1000), ("seat1", 1001)], arguments: ["--demo"])
        defer { seats.stop() }
        let daemon = seats.daemon

        let seated = try StreamingClient(uid: 1000, socket: daemon.socketPath)
        let other = try StreamingClient(uid: 1001, socket: daemon.socketPath)
        let root = try StreamingClient(uid: 0, socket: daemon.socketPath)
        defer { seated.stop(); other.stop(); root.stop() }

        // The positive control first: seat0's user lists the pen and streams it, root too.
        #expect(seated.wait { $0.contains("devices demo0") }, "\(seated.received)")
        #expect(seated.wait { Self.events($0, of: "demo0").count >= 30 }, "\(seated.received)")
        #expect(root.wait { Self.events($0, of: "demo0").count >= 30 }, "\(root.received)")
        // By then the other seat's user would have had the same events: it has none.
        #expect(other.wait { $0.contains { $0.hasPrefix("devices") } }, "\(other.received)")
        #expect(other.received.first == "devices ", "seat1's user lists seat0's pen: \(other.received)")
        #expect(Self.events(other.received, of: "demo0").isEmpty, "seat1's user read seat0's pen: \(other.received)")

        // The seats change hands: 1001 now holds seat0, 1000 seat1. Both keep a session, so both
        // keep their connections; the pen moves from one stream to the other.
        try Self.writeSeats(in: seats.sessions, [("seat0", 1001), ("seat1", 1000)])
        #expect(seated.wait { $0.contains("event deviceRemoved demo0") }, "\(seated.received)")
        #expect(other.wait { $0.contains("event deviceAdded demo0") }, "\(other.received)")
        let seatedBefore = Self.events(seated.received, of: "demo0").count
        #expect(other.wait { Self.events($0, of: "demo0").count >= 30 }, "\(other.received)")
        #expect(Self.events(seated.received, of: "demo0").count == seatedBefore,
                "1000 read seat0's pen after giving it up: \(seated.received.suffix(10))")
        // Its stream closed what it had open before deviceRemoved, and ended nothing else.
        let lost = Self.events(seated.received, of: "demo0")
        if let removed = lost.lastIndex(of: "event deviceRemoved demo0"), let lastIn = lost.lastIndex(of: "event proximityIn demo0"), lastIn < removed {
            #expect(lost[lastIn..<removed].contains("event proximityOut demo0"), "\(lost.suffix(12))")
        }
        #expect(!seated.received.contains { $0.hasPrefix("error") }, "\(seated.received.suffix(5))")
        // Root reads on throughout.
        let rootBefore = Self.events(root.received, of: "demo0").count
        #expect(root.wait { Self.events($0, of: "demo0").count >= rootBefore + 10 }, "\(root.received.suffix(5))")
    }

    @Test("a pen of another seat is NoSuchDevice to Monitor and PressChord; the seat's own user is served", .requires(needs))
    func namedDeviceOfAnotherSeat() throws {
        let seated = try SeatedDaemon(seats: [("seat0", 1000), ("seat1", 1001)], arguments: ["--demo"])
        defer { seated.stop() }
        let daemon = seated.daemon
        func call(_ message: String, as uid: UInt32) throws -> String {
            try runProgram(LocalAttackerTests.setpriv, ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", LocalAttackerTests.systemPython, "-c", """
                import socket, sys
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(sys.argv[1])
                s.sendall(sys.argv[2].encode() + b"\\0")
                reply = b""
                while not reply.endswith(b"\\0"):
                    chunk = s.recv(65536)
                    if not chunk: break
                    reply += chunk
                print(reply.split(b"\\0")[0].decode())
                """, daemon.socketPath, message]).output
        }
        let monitor = #"{"method":"org.pencild.Pen.Monitor","more":true,"parameters":{"devices":["demo0"]}}"#
        let chord = #"{"method":"org.pencild.Pen.PressChord","parameters":{"device":"demo0","keys":["e"]}}"#
        #expect(try call(monitor, as: 1001).contains("org.pencild.Pen.NoSuchDevice"))
        #expect(try call(monitor, as: 1000).contains("\"deviceAdded\""))
        #expect(try call(chord, as: 1001).contains("org.pencild.Pen.NoSuchDevice"))
        // The seat's user gets past the device to the keyboard (which this machine may lack).
        #expect(!(try call(chord, as: 1000).contains("NoSuchDevice")))
    }
}
