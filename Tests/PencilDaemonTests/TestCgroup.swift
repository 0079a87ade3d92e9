import Foundation

/// A control group made by hand, named as systemd names a session's scope or a user service,
/// so that a process moved into it is that session's or that service's to sd-login, which reads
/// `/proc/PID/cgroup` (`sd_pid_get_session`, `sd_pid_get_user_unit`). Made in every hierarchy
/// sd-login may read: the unified one, and the named systemd one where the host has it.
struct TestCgroup {
    let directories: [String]

    /// `path` below the root, such as "user.slice/user-1000.slice/session-pt2.scope".
    init(_ path: String) throws {
        let root = "/sys/fs/cgroup"
        var hierarchies: [String] = []
        if FileManager.default.fileExists(atPath: "\(root)/unified/cgroup.procs") {
            hierarchies = ["\(root)/unified"]
            if FileManager.default.fileExists(atPath: "\(root)/systemd/cgroup.procs") { hierarchies.append("\(root)/systemd") }
        } else if FileManager.default.fileExists(atPath: "\(root)/cgroup.controllers") {
            hierarchies = [root]
        } else {
            hierarchies = ["\(root)/systemd"]
        }
        directories = hierarchies.map { "\($0)/\(path)" }
        for directory in directories { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
    }

    /// Shell text that moves the shell running it into the group: put before `exec`.
    var joinCommand: String { directories.map { "echo $$ > '\($0)/cgroup.procs'" }.joined(separator: " && ") }

    /// The group and the parents it made, once no process is left in them (rmdir refuses
    /// otherwise, and a parent that was there before keeps its other children).
    func remove() {
        for directory in directories {
            var path = directory
            while path.hasPrefix("/sys/fs/cgroup/"), rmdir(path) == 0 { path = (path as NSString).deletingLastPathComponent }
        }
    }
}
