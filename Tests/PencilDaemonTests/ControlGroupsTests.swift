import Foundation
import PencilSystem
import PencilTestSupport
import Testing

/// How the system service, which may not look at other users' processes in /proc
/// (ProtectProc=invisible), finds the group of a caller: from the groups' own lists.
@Suite("A process's control group, read from the groups' side (needs root)", .serialized)
struct ControlGroupsTests {
    @Test("a process is found in its session's scope, and under its user's service manager only with orBelow; not in another group",
          .requires([.root]))
    func foundFromTheGroupsSide() throws {
        let session = try TestCgroup("user.slice/user-1000.slice/session-pt7.scope")
        let service = try TestCgroup("user.slice/user-1000.slice/user@1000.service/app.slice/pencil-actions.service")
        let other = try TestCgroup("user.slice/user-1000.slice/session-pt8.scope")
        defer { session.remove(); service.remove(); other.remove() }
        func start(in group: TestCgroup) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "\(group.joinCommand) && exec sleep 60"]
            try process.run()
            return process
        }
        let inSession = try start(in: session), inService = try start(in: service)
        defer {
            for process in [inSession, inService] {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        let sessionPid = inSession.processIdentifier, servicePid = inService.processIdentifier
        // Wait until each has moved itself (its shell writes its pid, then execs sleep).
        let deadline = Date().addingTimeInterval(10)
        while !(ControlGroups.contains(pid: sessionPid, path: "user.slice/user-1000.slice/session-pt7.scope")
                && ControlGroups.contains(pid: servicePid, path: "user.slice/user-1000.slice/user@1000.service", orBelow: true)),
              Date() < deadline {
            usleep(10_000)
        }
        #expect(ControlGroups.contains(pid: sessionPid, path: "user.slice/user-1000.slice/session-pt7.scope"))
        #expect(!ControlGroups.contains(pid: sessionPid, path: "user.slice/user-1000.slice/session-pt8.scope"))
        #expect(ControlGroups.contains(pid: servicePid, path: "user.slice/user-1000.slice/user@1000.service", orBelow: true))
        #expect(!ControlGroups.contains(pid: servicePid, path: "user.slice/user-1000.slice/user@1000.service"))
        #expect(!ControlGroups.contains(pid: sessionPid, path: "user.slice/user-1000.slice/user@1000.service", orBelow: true))
    }

    @Test("the hierarchy read is the one systemd tracks: the unified one, alone or beside the old ones; the named v1 one only without it")
    func trackedHierarchy() {
        let root = "/sys/fs/cgroup"
        #expect(ControlGroups.trackedHierarchy(under: root) { $0 == root } == root)
        #expect(ControlGroups.trackedHierarchy(under: root) { $0 == root + "/unified" } == root + "/unified")
        #expect(ControlGroups.trackedHierarchy(under: root) { _ in false } == root + "/systemd")
    }

    @Test("on a hybrid host, a process its user moved into their service manager's group of the named v1 hierarchy is not found there")
    func hybridHostReadsTheUnifiedHierarchyOnly() throws {
        // The groups' lists as data: a user may write their pid into the v1 tree's
        // user@UID.service (systemd delegates it there), never into the unified one's.
        let root = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let service = "user.slice/user-1000.slice/user@1000.service/app.slice/pencil-actions.service"
        let session = "user.slice/user-1000.slice/session-pt9.scope"
        func list(_ pids: String, at path: String) throws {
            try FileManager.default.createDirectory(atPath: "\(root)/\(path)", withIntermediateDirectories: true)
            try pids.write(toFile: "\(root)/\(path)/cgroup.procs", atomically: true, encoding: .utf8)
        }
        try list("4242\n", at: "systemd/\(service)")
        try list("4242\n", at: "unified/\(session)")
        try list("", at: "unified/\(service)")
        let tracked = ControlGroups.trackedHierarchy(under: root) { $0 == root + "/unified" }
        #expect(ControlGroups.group(of: 4242, at: "user.slice/user-1000.slice/user@1000.service", in: tracked) == nil)
        #expect(ControlGroups.contains(pid: 4242, path: session, in: tracked))
        // The control: the same lists, read where the v1 tree is the tracked one (no unified one).
        let legacy = ControlGroups.trackedHierarchy(under: root) { _ in false }
        #expect(ControlGroups.group(of: 4242, at: "user.slice/user-1000.slice/user@1000.service", in: legacy) == service)
    }

    @Test("a group's list is read as whole numbers: a pid is not found inside a longer one")
    func wholeNumbers() {
        let list = Array("12\n345\n6789\n".utf8)
        #expect(ControlGroups.lists(345, in: list))
        #expect(ControlGroups.lists(6789, in: list))
        #expect(!ControlGroups.lists(34, in: list))
        #expect(!ControlGroups.lists(789, in: list))
        #expect(!ControlGroups.lists(1, in: list))
    }
}
