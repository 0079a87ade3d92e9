import Foundation
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink

extension RunningDaemon {
    func client(timeoutMilliseconds: Int = 5_000) throws -> VarlinkClient {
        try VarlinkClient(path: socketPath, timeoutMilliseconds: timeoutMilliseconds)
    }
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

extension RunningDaemon {
    /// Waits until the daemon sleeps in epoll_wait with nothing left to do, as the kernel
    /// reports it (/proc/PID/wchan), up to 10 s: the start of a window in which an idle daemon
    /// must not wake. False when it never got there.
    func waitUntilAsleep() -> Bool {
        let deadline = Date().addingTimeInterval(10)
        let path = "/proc/\(process.processIdentifier)/wchan"
        while Date() < deadline {
            let channel = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            // A kernel that hides wait channels shows "0": then the sleep state alone must do.
            if channel.contains("epoll_wait") || channel.contains("ep_poll") { return true }
            if channel == "0" || channel.isEmpty, isSleeping { return true }
            usleep(1_000)
        }
        return false
    }

    /// Whether the daemon's process is in interruptible sleep (state S in /proc/PID/stat).
    private var isSleeping: Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: end)...].split(separator: " ").first == "S"
    }
}
