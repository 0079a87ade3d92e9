import Foundation
import PencilTestSupport
import Testing

/// A system pencild (run as root) in a private mount namespace whose logind state files give
/// seat0 to `active` (`LocalAttackerTests.writeSessions`), or each seat to its user; `stop()` ends it and removes
/// its folder. `sessions` is where the state files are, for a test that changes them.
struct SeatedDaemon {
    let directory: String
    let sessions: String
    let daemon: RunningDaemon

    init(active: UInt32, users: [UInt32] = [1000, 1001], arguments: [String] = [], configuration: String? = nil) throws {
        try self.init(arguments: arguments, configuration: configuration) { sessions in
            try LocalAttackerTests.writeSessions(in: sessions, active: active, users: users)
        }
    }

    /// Each seat held by its user (`SeatReadersTests.writeSeats`).
    init(seats: [(seat: String, uid: UInt32)], arguments: [String] = []) throws {
        try self.init(arguments: arguments, configuration: nil) { sessions in
            try SeatReadersTests.writeSeats(in: sessions, seats)
        }
    }

    private init(arguments: [String], configuration: String?, writeState: (String) throws -> Void) throws {
        directory = RunningDaemon.makeTemporaryDirectory()
        sessions = directory + "/run-systemd"
        var arguments = arguments
        do {
            try writeState(sessions)
            if let configuration {
                try configuration.write(toFile: directory + "/pencild.conf", atomically: true, encoding: .utf8)
                arguments += ["--config", directory + "/pencild.conf"]
            }
            daemon = try LocalAttackerTests.daemon(sessions: sessions, directory: directory, arguments: arguments)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    func stop() {
        daemon.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
