import Foundation
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink

/// Counters of a process from /proc: how often it slept voluntarily, and its CPU time.
struct ProcessCounters {
    var voluntarySwitches: Int
    /// utime + stime, in clock ticks.
    var cpuTicks: Int

    init(pid: Int32) throws {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches") }
        voluntarySwitches = Int(line?.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? -1
        // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.range(of: ")", options: .backwards)!.upperBound...].split(separator: " ")
        cpuTicks = (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }
}

/// How late a thread's 200 ms sleeps wake, measured until `stop()`: the machine's own
/// scheduling delay at that moment, the control for a timer's figures.
final class SleepLateness: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var lates: [Double] = []

    init() {
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                let start = Date()
                usleep(200_000)
                let late = Date().timeIntervalSince(start) * 1000 - 200
                lock.withLock { lates.append(late) }
            }
        }
    }

    /// The mean and the largest lateness so far, in ms; the thread ends after its sleep.
    func stop() -> (mean: Double, most: Double) {
        lock.withLock {
            running = false
            guard !lates.isEmpty else { return (0, 0) }
            return (lates.reduce(0, +) / Double(lates.count), lates.max() ?? 0)
        }
    }
}

@Suite("The watchdog and running out of descriptors", .serialized)
struct WatchdogAndDescriptorTests {
    @Test("WATCHDOG=1 arrives about every half interval, and nothing else wakes the daemon")
    func watchdog() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notifyPath = directory + "/notify.sock"
        let receiver = try UnixSocket.bindDatagram(at: notifyPath)
        defer { receiver.close() }
        try UnixSocket.setReceiveTimeout(receiver, milliseconds: 2_000)
        let interval = 400_000 // µs: pings expected every 200 ms
        let daemon = try RunningDaemon(directory: directory, environment: ["NOTIFY_SOCKET": notifyPath, "WATCHDOG_USEC": "\(interval)"],
                                       waitForSocket: false)
        defer { daemon.stop() }
        var buffer = [UInt8](repeating: 0, count: 4096)
        func nextMessage() throws -> String {
            let count = try buffer.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) -> Int in try UnixSocket.receive(receiver, into: raw) }
            }.get()
            return String(decoding: buffer[0..<count], as: UTF8.self)
        }
        #expect(try nextMessage().contains("READY=1"))
        let before = try ProcessCounters(pid: daemon.process.processIdentifier)
        // The control, in the same run: how late a 200 ms sleep of this process wakes on this
        // machine now, loaded or not. The daemon's timer is allowed that lateness, no more.
        let lateness = SleepLateness()
        var pings: [Date] = []
        while pings.count < 8 {
            let message = try nextMessage()
            if message == "WATCHDOG=1" { pings.append(Date()) }
        }
        let (meanLate, mostLate) = lateness.stop()
        let after = try ProcessCounters(pid: daemon.process.processIdentifier)
        let gaps = zip(pings.dropFirst(), pings).map { $0.timeIntervalSince($1) * 1000 }
        let mean = gaps.reduce(0, +) / Double(gaps.count)
        let late = "a 200 ms sleep woke \(meanLate) ms late on average, \(mostLate) ms at most"
        #expect(mean > 170 && mean < 240 + meanLate, "mean gap \(mean) ms, gaps \(gaps); \(late)")
        #expect(gaps.allSatisfy { $0 > 100 && $0 < 350 + mostLate }, "gaps \(gaps); \(late)")
        // One wake-up per ping (the daemon sleeps in epoll_wait between them), with a little slack
        // for the first ping that was in flight when counting started.
        let wakeUps = after.voluntarySwitches - before.voluntarySwitches
        #expect(wakeUps <= pings.count + 2, "\(wakeUps) wake-ups for \(pings.count) pings")
    }

    static let prlimit = "/usr/bin/prlimit"

    @Test("out of descriptors: existing clients are served, the daemon does not spin, and it accepts again once clients leave",
          .requires(.program(prlimit, package: "util-linux")))
    func outOfDescriptors() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        // 24 descriptors: stdio, epoll, timer, signals and the listener leave room for ~17 clients.
        let daemon = try RunningDaemon(directory: directory, launcher: [Self.prlimit, "--nofile=24:24"])
        defer { daemon.stop(); daemon.removeDirectory() }
        #expect(daemon.waitUntilAsleep(), "the daemon never settled in epoll_wait")
        var clients: [VarlinkClient] = []
        for _ in 0..<30 { clients.append(try daemon.client(timeoutMilliseconds: 500)) }
        // The first clients are served; later ones wait in the listen backlog.
        #expect(try clients[0].call("org.pencild.Pen.ListDevices")["devices"] == .array([]))
        var waiting: [Int] = []
        for index in clients.indices.reversed().prefix(5) {
            if case .failure(.timedOut) = Result(catching: { () throws(VarlinkClientError) in try clients[index].call("org.varlink.service.GetInfo") }) {
                waiting.append(index)
            }
        }
        #expect(!waiting.isEmpty, "every client was accepted: the descriptor limit did not bite")
        #expect(daemon.log.contains("out of file descriptors"))
        // While it cannot accept, it wakes only for the back-off: little CPU, few wake-ups.
        let before = try ProcessCounters(pid: daemon.process.processIdentifier)
        // The window: a daemon out of descriptors wakes only for its back-off in it.
        usleep(1_000_000)
        let after = try ProcessCounters(pid: daemon.process.processIdentifier)
        let ticksPerSecond = Int(sysconf(Int32(_SC_CLK_TCK)))
        #expect(after.cpuTicks - before.cpuTicks <= ticksPerSecond / 20, "\(after.cpuTicks - before.cpuTicks) ticks of CPU in 1 s")
        #expect(after.voluntarySwitches - before.voluntarySwitches < 20, "\(after.voluntarySwitches - before.voluntarySwitches) wake-ups in 1 s")
        // An existing client is still served.
        #expect(try clients[1].call("org.pencild.Pen.GetPreferences")["preferences"]?["tapButton"] == .string("stylus"))
        // Clients leave, enough for every waiting one: those are accepted and answered.
        for index in 0..<20 { clients[index].close() }
        for index in waiting {
            let client = clients[index]
            // The call sent earlier is answered first, then a new one.
            let pending = try client.readReply()
            #expect(pending.parameters["product"] == .string("pencild"))
            #expect(try client.call("org.pencild.Pen.ListDevices")["devices"] == .array([]))
        }
    }
}
