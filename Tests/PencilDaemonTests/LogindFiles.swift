import Foundation
import Testing

/// logind's state files (what /run/systemd holds, as sd-login reads it), written as logind
/// writes them: a new file renamed over the old, which sd-login's monitor sees. The tests
/// name their sessions so that they never meet logind's own ("c1", "2").
struct LogindFiles {
    let directory: String

    init(in directory: String) throws {
        self.directory = directory
        for folder in ["sessions", "users", "seats", "machines"] {
            try FileManager.default.createDirectory(atPath: "\(directory)/\(folder)", withIntermediateDirectories: true)
        }
    }

    func session(_ name: String, uid: UInt32, seat: String, isActive: Bool) throws {
        try put("UID=\(uid)\nUSER=user\(uid)\nACTIVE=\(isActive ? 1 : 0)\nSTATE=\(isActive ? "active" : "online")\n"
                + "REMOTE=0\nSEAT=\(seat)\nTYPE=x11\nCLASS=user\n", "sessions/\(name)")
    }

    func user(_ uid: UInt32, sessions: [String], active: [String]) throws {
        let list = sessions.joined(separator: " ")
        try put("NAME=user\(uid)\nSTATE=\(active.isEmpty ? "online" : "active")\nSESSIONS=\(list)\nONLINE_SESSIONS=\(list)\n"
                + "ACTIVE_SESSIONS=\(active.joined(separator: " "))\n", "users/\(uid)")
    }

    func seat(_ seat: String, active: String, activeUID: UInt32, sessions: [String]) throws {
        try put("ACTIVE=\(active)\nACTIVE_UID=\(activeUID)\nSESSIONS=\(sessions.joined(separator: " "))\n", "seats/\(seat)")
    }

    private func put(_ text: String, _ path: String) throws {
        try text.write(toFile: "\(directory)/\(path).new", atomically: false, encoding: .utf8)
        #expect(rename("\(directory)/\(path).new", "\(directory)/\(path)") == 0)
    }
}
