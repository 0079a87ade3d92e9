import Foundation
import PencilInput
import PencilProtocol
import PencilSystem
#if canImport(Testing)
// On the search path when tests are built (see Prerequisite.swift).
import Testing
#endif

// Running the real programs in tests: pencild on a socket of its own, pencilctl, and
// recordings written for them. Shared by every test target that talks to a daemon.

/// A real `pencild` process on a socket in a fresh temporary directory, for end-to-end tests.
public final class RunningDaemon {
    public let directory: String
    public let socketPath: String
    public let stateDirectory: String
    public let process: Process
    public let logPath: String

    /// The pencild binary beside the test bundle (both are products of `swift build`), or
    /// $PENCILD_BINARY.
    public static var binaryPath: String {
        if let path = ProcessInfo.processInfo.environment["PENCILD_BINARY"] { return path }
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // swift test runs <bin>/pencildPackageTests.xctest; some runners pass a path inside it.
        while !directory.path.isEmpty, directory.path != "/" {
            let candidate = directory.appendingPathComponent("pencild").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return testBinary.deletingLastPathComponent().appendingPathComponent("pencild").path
    }

    public static func makeTemporaryDirectory() -> String {
        var template = Array("/tmp/pencild-test-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        // Clients running as another user (the refused-uid test) must reach the socket.
        chmod(path, 0o755)
        return path
    }

    /// Starts pencild with `arguments` (socket and state directory are added) and waits until it answers.
    public init(_ arguments: [String] = [], stateDirectory: String? = nil, directory: String? = nil,
         environment: [String: String] = [:], launcher: [String] = [], waitForSocket: Bool = true) throws {
        self.directory = directory ?? Self.makeTemporaryDirectory()
        socketPath = self.directory + "/pencild.sock"
        self.stateDirectory = stateDirectory ?? self.directory + "/state"
        logPath = self.directory + "/pencild.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let binary = Self.binaryPath
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw HarnessError("pencild is not built at \(binary): run `swift build` first")
        }
        process = Process()
        var all = launcher.isEmpty ? [] : Array(launcher.dropFirst())
        all += [binary, "--socket", socketPath, "--state-dir", self.stateDirectory, "--no-udev", "--log-level", "debug"] + arguments
        process.executableURL = URL(fileURLWithPath: launcher.first ?? binary)
        process.arguments = launcher.isEmpty ? Array(all.dropFirst()) : all
        var env = ProcessInfo.processInfo.environment
        env["NOTIFY_SOCKET"] = nil
        env["PENCILD_SOCKET"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardError = FileHandle(forWritingAtPath: logPath)
        try process.run()
        if waitForSocket { try self.waitForSocket() }
    }

    public func waitForSocket(timeout: Double = 10) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let fd = try? UnixSocket.connect(to: socketPath) {
                fd.close()
                return
            }
            guard process.isRunning else { throw HarnessError("pencild exited with \(process.terminationStatus):\n\(log)") }
            usleep(20_000)
        }
        throw HarnessError("pencild did not listen on \(socketPath) in time:\n\(log)")
    }

    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }


    /// Whether a test has already checked how this daemon ended.
    private var exitChecked = false

#if canImport(Testing)
    /// SIGTERM, then waits for the exit, and checks it: a clean exit (status 0) with no
    /// sanitizer report in the log, so that an ASan or TSan report from the daemon fails the
    /// test that ran it. Returns the exit status. Checks once: a second call only returns it.
    @discardableResult
    public func stop(sourceLocation: SourceLocation = #_sourceLocation) -> Int32 {
        if process.isRunning { process.terminate() }
        return waitForExit(expecting: 0, sourceLocation: sourceLocation)
    }

    /// Waits for the daemon to end by itself (or kills it after `timeout`, an issue) and checks
    /// the end: exit status `expecting`, or any end when nil (a test that killed it); never a
    /// sanitizer report.
    @discardableResult
    public func waitForExit(timeout: Double = 10, expecting expected: Int32? = 0,
                     sourceLocation: SourceLocation = #_sourceLocation) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        var killed = false
        if process.isRunning {
            killed = true
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let status = process.terminationStatus
        guard !exitChecked else { return status }
        exitChecked = true
        if killed {
            Issue.record("pencild did not exit within \(timeout) s and was killed:\n\(log)", sourceLocation: sourceLocation)
        }
        if let expected {
            let clean = process.terminationReason == .exit && status == expected
            if !clean {
                let how = process.terminationReason == .exit ? "exited with status \(status)" : "was killed by signal \(status)"
                Issue.record("pencild \(how), not status \(expected):\n\(log)", sourceLocation: sourceLocation)
            }
        }
        if let report = Self.sanitizerReport(in: log) {
            Issue.record("pencild's log holds a sanitizer report:\n\(report)", sourceLocation: sourceLocation)
        }
        return status
    }

    /// The first sanitizer report in `log`, from its first line on.
    public static func sanitizerReport(in log: String) -> String? {
        for marker in ["ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "WARNING: ThreadSanitizer", "ERROR: ThreadSanitizer",
                       "runtime error:", "ERROR: UndefinedBehaviorSanitizer"] {
            if let range = log.range(of: marker) {
                return String(log[range.lowerBound...].prefix(4000))
            }
        }
        return nil
    }

#endif

    deinit {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }

    public func removeDirectory() { try? FileManager.default.removeItem(atPath: directory) }
}

public struct HarnessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Runs a program and returns its exit status and output.
public func runProgram(_ path: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 20) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning, Date() < deadline { usleep(10_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// What `pencilctl events` prints for a recording, one JSON object per line.
public func pencilctlEvents(_ recording: String, description: String? = nil, preferences: String? = nil) throws -> [JSONValue] {
    let binary = FileSystem.directoryName(of: RunningDaemon.binaryPath) + "/pencilctl"
    var arguments = ["events", recording]
    if let description { arguments += ["--desc", description] }
    if let preferences { arguments += ["--preferences", preferences] }
    let result = try runProgram(binary, arguments, timeout: 120)
    guard result.status == 0 else { throw HarnessError("pencilctl events exited \(result.status): \(result.output.prefix(500))") }
    return try result.output.split(separator: "\n").map { line in try JSONReader.parse(String(line)) }
}

/// A person's few seconds with an Intuos5 pen: hover, a stroke, a double-click of the lower
/// button, a squeeze of the upper one, a long hold of the lower one, a still hover long enough
/// for the forced proximity-out, and leaving. Enough for every timer and gesture.
public func penSession(strokeMs: Int = 300) -> (device: DeviceDescription, events: [InputEvent]) {
    var pen = PenScript(device: TestDevice.intuos5Pen.description)
    pen.approach(x: 0.3, y: 0.3)
    pen.move(toX: 0.35, y: 0.32, overMs: 100, steps: 10)
    pen.wait(ms: 10)
    pen.touchDown(pressure: 0.4)
    pen.move(toX: 0.5, y: 0.4, overMs: strokeMs, steps: max(strokeMs / 10, 1))
    pen.wait(ms: 10)
    pen.lift()
    pen.wait(ms: 20)
    pen.click(.stylus, holdingMs: 60)
    pen.wait(ms: 100)
    pen.click(.stylus, holdingMs: 60)
    pen.wait(ms: 50)
    pen.press(.stylus2)
    pen.move(toX: 0.52, y: 0.41, overMs: 200, steps: 20)
    pen.wait(ms: 10)
    pen.release(.stylus2)
    pen.wait(ms: 30)
    pen.press(.stylus)
    pen.wait(ms: 700)
    pen.release(.stylus)
    pen.wait(ms: 20)
    pen.move(toX: 0.55, y: 0.45)
    pen.wait(ms: 700)
    pen.move(toX: 0.6, y: 0.5)
    pen.wait(ms: 20)
    pen.leave()
    return (pen.device, pen.events)
}
