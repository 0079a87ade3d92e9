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
