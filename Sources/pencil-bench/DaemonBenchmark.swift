import CommandLineOptions
import PencilInput
import PencilSystem
import PencilTestDevices
#if canImport(Glibc)
import Glibc
#endif

/// `pencil-bench daemon [--seconds S] [--clients 1,16,64] [--pencild PATH]`: the real pencild
/// replaying a 1 kHz pen at real-time speed to 1, 16 and 64 monitoring clients.
///
/// Latency is measured from the moment a frame was due on the host clock to its receipt by
/// each client. pencild logs the host time (CLOCK_MONOTONIC) at which the recording's first
/// event plays; a frame recorded at t is due at that time + (t − first event's time). The
/// clients stamp CLOCK_MONOTONIC as each read returns. So the figure includes the timer's
/// wake-up, pen tracking, gestures, encoding, one write per client, and the client's own
/// wake-up: everything between the pen and the app, except the kernel's input path.
///
/// Also printed: the daemon's CPU time per frame, its resident memory idle and while streaming
/// to the most clients, and its wake-ups while idle.
enum DaemonBenchmark {
    static let frameInterval: Int64 = 1_000

    struct Options {
        var seconds = 5
        var clientCounts = [1, 16, 64]
        var pencild = siblingExecutable("pencild")
    }

    static let parser = OptionParser<Options>(command: "pencil-bench daemon", options: [
        .value("--seconds", valueName: "S", help: ["how long each replay lasts (default: 5)"]) { options, text throws(UsageError) in
            guard let number = Int(text), number > 0 else { throw UsageError("--seconds needs a positive number") }
            options.seconds = number
        },
        .value("--clients", valueName: "1,16,64", help: ["how many clients monitor, one run each (from 1 to 120)"]) { options, text throws(UsageError) in
            let counts = text.split(separator: ",").compactMap { Int($0) }
            guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 && $0 <= 120 }) else { throw UsageError("--clients: counts from 1 to 120") }
            options.clientCounts = counts
        },
        .value("--pencild", valueName: "PATH", help: ["the pencild to measure (default: the one beside pencil-bench)"]) { $0.pencild = $1 },
    ])

    static func run(_ arguments: [String]) -> Int32 {
        if parser.asksForHelp(arguments) {
            print(parser.help(about: ["The real pencild replaying a 1 kHz pen to 1, 16 and 64 monitoring clients: latency, CPU, memory."]), terminator: "")
            return 0
        }
        let options: Options
        switch parser.parse(arguments, into: Options()) {
        case .success(let parsed): options = parsed
        case .failure(let problem): return usage(problem.message)
        }
        let (seconds, clientCounts, pencild) = (options.seconds, options.clientCounts, options.pencild)
        guard access(pencild, X_OK) == 0 else {
            return failure("no pencild at \(pencild): build it first (swift build -c release)")
        }
        let directory = makeDirectory()
        defer { removeTree(directory) }
        let recording = directory + "/pen-1khz.events"
        let frames = seconds * 1_000
        do {
            try writeRecording(to: recording, frames: frames)
        } catch {
            return failure("cannot write \(recording): \(error)")
        }
        print("pencild:           \(pencild)")
        print("replay:            \(frames) frames at 1 kHz, real-time speed, every frame a motion event")

        // Idle: memory and wake-ups of a daemon with nothing to do.
        do {
            let daemon = try DaemonProcess(pencild: pencild, directory: directory + "/idle", extra: [])
            defer { daemon.stop() }
            usleep(300_000)
            let before = ProcessFigures(pid: daemon.pid)
            usleep(2_000_000)
            let after = ProcessFigures(pid: daemon.pid)
            print("idle:              RSS \(kibibytes(after.residentKiB)), PSS \(kibibytes(after.proportionalKiB)), private \(kibibytes(after.privateKiB)); \(after.voluntarySwitches - before.voluntarySwitches) wake-ups in 2 s")
        } catch {
            return failure("\(error)")
        }

        for count in clientCounts {
            do {
                let result = try measure(pencild: pencild, recording: recording, directory: directory + "/run\(count)", clients: count, frames: frames)
                print(result)
            } catch {
                return failure("\(count) clients: \(error)")
            }
        }
        return 0
    }

    /// One run: `clients` monitors of the replay; returns the line of figures.
    static func measure(pencild: String, recording: String, directory: String, clients count: Int, frames: Int) throws(BenchmarkError) -> String {
        // Every client is the same user here: the per-user cap (32 by default) must admit them
        // all, and the readiness probe the daemon may not yet have seen leave.
        do { try FileSystem.createDirectories(directory, permissions: 0o755) } catch { throw BenchmarkError("cannot create \(directory): \(error)") }
        let config = directory + "/clients.conf"
        do {
            try FileSystem.writeAtomically(config, Array("[Limits]\nMaxClientsPerUser=\(max(count + 8, 32))\n".utf8))
        } catch {
            throw BenchmarkError("cannot write \(config): \(error)")
        }
        let daemon = try DaemonProcess(pencild: pencild, directory: directory,
                                       extra: ["--config", config, "--replay", recording, "--speed", "1", "--wait-monitors", "\(count)"])
        defer { daemon.stop() }
        let epoll: Epoll
        do { epoll = try Epoll(capacity: 128) } catch { throw BenchmarkError("epoll: \(error)") }
        var clients: [MonitorClient] = []
        for number in 0..<count {
            let client = try MonitorClient(path: daemon.socketPath)
            do { try epoll.add(client.descriptor, events: .readable, token: UInt64(number)) } catch { throw BenchmarkError("epoll: \(error)") }
            clients.append(client)
        }
        let start = ProcessFigures(pid: daemon.pid)
        let (hostStart, recordedStart) = try daemon.waitForPlaybackStart()
        var latencies: [Int64] = []
        latencies.reserveCapacity(frames * count + 16)
        var finished = 0
        var streaming: ProcessFigures?
        let deadline = MonotonicClock.now() + Int64(frames) * frameInterval + 30_000_000
        while finished < count {
            guard MonotonicClock.now() < deadline else { throw BenchmarkError("the replay did not end in time") }
            do {
                try epoll.wait(timeoutMilliseconds: 1_000) { token, _ in
                    let client = clients[Int(token)]
                    let received = client.receive { eventTime in latencies.append(eventTime) }
                    let now = MonotonicClock.now()
                    // The times just appended are event times: turn them into latencies.
                    for position in (latencies.count - received.events)..<latencies.count {
                        latencies[position] = now - (hostStart + latencies[position] - recordedStart)
                    }
                    if received.ended { finished += 1; epoll.remove(client.descriptor) }
                }
            } catch {
                throw BenchmarkError("epoll_wait: \(error)")
            }
            if streaming == nil, latencies.count > frames * count / 2 { streaming = ProcessFigures(pid: daemon.pid) }
        }
        let end = ProcessFigures(pid: daemon.pid)
        latencies.sort()
        func percentile(_ fraction: Double) -> Int64 {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))]
        }
        let cpuMicroseconds = (end.cpuTicks - start.cpuTicks) * 1_000_000 / Int(sysconf(Int32(_SC_CLK_TCK)))
        let memory = streaming ?? end
        let clientsText = "\(count) client\(count == 1 ? "" : "s"):".padding(18)
        return clientsText + "latency p50 \(microseconds(percentile(0.5))), p99 \(microseconds(percentile(0.99))), max \(microseconds(latencies.last ?? 0)) (\(latencies.count) receipts); "
            + "CPU \(cpuMicroseconds / max(frames, 1)) µs per frame; RSS \(kibibytes(memory.residentKiB)), private \(kibibytes(memory.privateKiB)) while streaming"
    }

    // MARK: The recording

    /// A pen that comes in, draws circles with changing pressure for `frames` ms, and leaves:
    /// an AES pen of the tests' device table, written by the project's evemu writer.
    static func writeRecording(to path: String, frames: Int) throws(Errno) {
        var events: [InputEvent] = []
        events.reserveCapacity(frames * 4 + 8)
        var time: Int64 = 1_000_000
        func add(_ type: UInt16, _ code: UInt16, _ value: Int) {
            events.append(InputEvent(time: time, type: type, code: code, value: Int32(value)))
        }
        func frameEnd() { add(EventCode.EV_SYN, EventCode.SYN_REPORT, 0) }
        add(EventCode.EV_KEY, EventCode.BTN_TOOL_PEN, 1); add(EventCode.EV_ABS, EventCode.ABS_X, 10_000)
        add(EventCode.EV_ABS, EventCode.ABS_Y, 6_000); frameEnd()
        for frame in 0..<frames {
            time += frameInterval
            let angle = Double(frame) / 500 * Double.pi
            add(EventCode.EV_ABS, EventCode.ABS_X, 10_000 + Int(4_000 * cos(angle)))
            add(EventCode.EV_ABS, EventCode.ABS_Y, 6_000 + Int(4_000 * sin(angle)))
            add(EventCode.EV_ABS, EventCode.ABS_PRESSURE, 600 + (frame % 800))
            frameEnd()
        }
        time += frameInterval
        add(EventCode.EV_ABS, EventCode.ABS_PRESSURE, 0); frameEnd()
        time += frameInterval
        add(EventCode.EV_KEY, EventCode.BTN_TOOL_PEN, 0); frameEnd()
        let text = EvemuWriter.recording(TestDevice.hid4800Pen.description, events)
        let fd = try FileDescriptor.open(path, [.writeOnly, .create, .truncate, .closeOnExec])
        defer { fd.close() }
        try fd.writeAll(Array(text.utf8))
    }

    // MARK: Helpers

    static func usage(_ message: String) -> Int32 {
        failure("\(message)\nusage: \(parser.usage)", status: 64)
    }

    static func failure(_ message: String, status: Int32 = 1) -> Int32 {
        try? FileDescriptor(rawValue: 2).writeAll(Array("pencil-bench daemon: \(message)\n".utf8))
        return status
    }

    static func siblingExecutable(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return name }
        let own = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return FileSystem.directoryName(of: own) + "/" + name
    }

    static func makeDirectory() -> String {
        var template = Array("/tmp/pencil-bench-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    static func removeTree(_ path: String) {
        _ = system("rm -rf -- '\(path)'")
    }

    static func microseconds(_ value: Int64) -> String { "\(value) µs" }
    static func kibibytes(_ value: Int) -> String {
        let tenths = (value * 10 + 512) / 1024
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self + " " : self + String(repeating: " ", count: width - count) }
}

/// Figures of a process from /proc.
struct ProcessFigures {
    var residentKiB = 0
    var proportionalKiB = 0
    var privateKiB = 0
    var voluntarySwitches = 0
    var cpuTicks = 0

    init(pid: Int32) {
        for line in readText("/proc/\(pid)/status").split(separator: "\n") {
            if line.hasPrefix("VmRSS:") { residentKiB = number(in: line) }
            if line.hasPrefix("voluntary_ctxt_switches:") { voluntarySwitches = number(in: line) }
        }
        for line in readText("/proc/\(pid)/smaps_rollup").split(separator: "\n") {
            if line.hasPrefix("Pss:") { proportionalKiB = number(in: line) }
            if line.hasPrefix("Private_Clean:") || line.hasPrefix("Private_Dirty:") { privateKiB += number(in: line) }
        }
        let stat = readText("/proc/\(pid)/stat")
        if let close = stat.lastIndex(of: ")") {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 12 { cpuTicks = (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) }
        }
    }

    private func number(in line: Substring) -> Int {
        Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
    }
}

func readText(_ path: String) -> String {
    guard let bytes = try? FileSystem.readFile(path, maximumBytes: 1 << 20) else { return "" }
    return String(decoding: bytes, as: UTF8.self)
}

/// pencild started for one run, its log in a file.
final class DaemonProcess {
    let pid: pid_t
    let socketPath: String
    let logPath: String

    init(pencild: String, directory: String, extra: [String]) throws(BenchmarkError) {
        do { try FileSystem.createDirectories(directory, permissions: 0o755) } catch { throw BenchmarkError("cannot create \(directory): \(error)") }
        socketPath = directory + "/pencild.sock"
        logPath = directory + "/pencild.log"
        let arguments = [pencild, "--socket", socketPath, "--state-dir", directory + "/state", "--no-udev", "--log-level", "info"] + extra
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, pencild, &actions, nil, &argv, environ)
        guard status == 0 else { throw BenchmarkError("cannot start \(pencild): \(Errno(rawValue: status))") }
        pid = child
        for _ in 0..<500 {
            if let probe = try? UnixSocket.connect(to: socketPath) {
                probe.close()
                return
            }
            usleep(10_000)
        }
        stop()
        throw BenchmarkError("pencild did not listen in time:\n\(readText(logPath))")
    }

    /// Host time and recorded time at which the replay started, from the log.
    func waitForPlaybackStart() throws(BenchmarkError) -> (host: Int64, recorded: Int64) {
        for _ in 0..<1_000 {
            for line in readText(logPath).split(separator: "\n") where line.contains(" plays: recorded time ") {
                let words = line.split(separator: " ")
                if let recordedAt = words.firstIndex(of: "time"), let hostAt = words.lastIndex(of: "time"),
                   recordedAt + 1 < words.count, hostAt + 1 < words.count,
                   let recorded = Int64(words[recordedAt + 1]), let host = Int64(words[hostAt + 1]) {
                    return (host, recorded)
                }
            }
            usleep(2_000)
        }
        throw BenchmarkError("pencild did not say when the replay started:\n\(readText(logPath))")
    }

    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }
}

/// A raw Monitor client: reads messages and picks each event's time out of them, without a
/// JSON parser, so that reading stays cheaper than what is measured.
final class MonitorClient {
    let descriptor: FileDescriptor
    private var buffer = [UInt8](repeating: 0, count: 256 * 1024)
    private var partial: [UInt8] = []
    private var sawFirst = false

    init(path: String) throws(BenchmarkError) {
        do {
            descriptor = try UnixSocket.connect(to: path)
            let call = Array(#"{"method":"org.pencild.Pen.Monitor","more":true}"#.utf8) + [0]
            _ = try call.withUnsafeBytes { raw in try UnixSocket.send(descriptor, raw) }
            try descriptor.setNonBlocking()
        } catch {
            throw BenchmarkError("cannot monitor \(path): \(error)")
        }
    }

    deinit { descriptor.close() }

    /// Reads what is there; calls `eventTime` with the time of each event but the catch-up
    /// deviceAdded. `ended`: deviceRemoved came, or the daemon closed.
    func receive(_ eventTime: (Int64) -> Void) -> (events: Int, ended: Bool) {
        var events = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in (try? UnixSocket.receive(descriptor, into: raw)) ?? -1 }
            if count == 0 { return (events, true) }
            if count < 0 { return (events, false) }
            partial.append(contentsOf: buffer[0..<count])
            var start = 0
            while let end = partial[start...].firstIndex(of: 0) {
                let message = partial[start..<end]
                start = end + 1
                if !sawFirst {
                    sawFirst = true
                    continue
                }
                if let time = Self.time(in: message) {
                    eventTime(time)
                    events += 1
                }
                if Self.contains(message, "\"deviceRemoved\"") {
                    partial.removeAll()
                    return (events, true)
                }
            }
            partial.removeSubrange(0..<start)
        }
    }

    private static let timeKey = Array("\"time\":".utf8)

    static func time(in message: ArraySlice<UInt8>) -> Int64? {
        guard let at = find(timeKey, in: message) else { return nil }
        var value: Int64 = 0
        var index = at + timeKey.count
        while index < message.endIndex, message[index] >= 48, message[index] <= 57 {
            value = value * 10 + Int64(message[index] - 48)
            index += 1
        }
        return value
    }

    static func contains(_ message: ArraySlice<UInt8>, _ text: String) -> Bool { find(Array(text.utf8), in: message) != nil }

    static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count, let first = needle.first else { return nil }
        var index = haystack.startIndex
        while index <= haystack.endIndex - needle.count {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
