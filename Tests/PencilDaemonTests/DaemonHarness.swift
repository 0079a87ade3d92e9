import Foundation
import PencilProtocol
import PencilSystem
import Testing
import Varlink

/// A real `pencild` process on a socket in a fresh temporary directory, for end-to-end tests.
final class RunningDaemon {
    let directory: String
    let socketPath: String
    let stateDirectory: String
    let process: Process
    let logPath: String

    /// The pencild binary beside the test bundle (both are products of `swift build`), or
    /// $PENCILD_BINARY.
    static var binaryPath: String {
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

    static func makeTemporaryDirectory() -> String {
        var template = Array("/tmp/pencild-test-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        // Clients running as another user (the refused-uid test) must reach the socket.
        chmod(path, 0o755)
        return path
    }

    /// Starts pencild with `arguments` (socket and state directory are added) and waits until it answers.
    init(_ arguments: [String] = [], stateDirectory: String? = nil, directory: String? = nil,
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

    func waitForSocket(timeout: Double = 10) throws {
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

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    func client(timeoutMilliseconds: Int = 5_000) throws -> VarlinkClient {
        try VarlinkClient(path: socketPath, timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Whether a test has already checked how this daemon ended.
    private var exitChecked = false

    /// SIGTERM, then waits for the exit, and checks it: a clean exit (status 0) with no
    /// sanitizer report in the log, so that an ASan or TSan report from the daemon fails the
    /// test that ran it. Returns the exit status. Checks once: a second call only returns it.
    @discardableResult
    func stop(sourceLocation: SourceLocation = #_sourceLocation) -> Int32 {
        if process.isRunning { process.terminate() }
        return waitForExit(expecting: 0, sourceLocation: sourceLocation)
    }

    /// Waits for the daemon to end by itself (or kills it after `timeout`, an issue) and checks
    /// the end: exit status `expecting`, or any end when nil (a test that killed it); never a
    /// sanitizer report.
    @discardableResult
    func waitForExit(timeout: Double = 10, expecting expected: Int32? = 0,
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
    static func sanitizerReport(in log: String) -> String? {
        for marker in ["ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "WARNING: ThreadSanitizer", "ERROR: ThreadSanitizer",
                       "runtime error:", "ERROR: UndefinedBehaviorSanitizer"] {
            if let range = log.range(of: marker) {
                return String(log[range.lowerBound...].prefix(4000))
            }
        }
        return nil
    }

    deinit {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }

    func removeDirectory() { try? FileManager.default.removeItem(atPath: directory) }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The remote error of a failed call, for `#expect`.
func remoteError(_ body: () throws -> Void) -> VarlinkError? {
    do {
        try body()
        return nil
    } catch let VarlinkClientError.remote(error) {
        return error
    } catch {
        return VarlinkError(name: "not a remote error: \(error)")
    }
}

/// Runs a program and returns its exit status and output.
func runProgram(_ path: String, _ arguments: [String], environment: [String: String] = [:], timeout: Double = 20) throws -> (status: Int32, output: String) {
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

/// True when the daemon closes the connection (rather than answering or going silent).
func connectionCloses(_ client: VarlinkClient) -> Bool {
    let result = Result { () throws(VarlinkClientError) -> JSONValue in try client.readMessage() }
    switch result {
    case .success: return false
    case .failure(let error):
        switch error {
        case .closed, .io: return true
        default: return false
        }
    }
}
