#if canImport(Glibc)
import Glibc
#endif

/// Which control group holds a process, read from the groups' side (`cgroup.procs`), for a
/// daemon that may not look at other users' processes in /proc (systemd's
/// `ProtectProc=invisible`): /sys/fs/cgroup stays readable, and lists every process of a group.
public enum ControlGroups {
    /// The roots where systemd's groups are: the unified hierarchy, alone or beside the named
    /// one of a hybrid host.
    static let roots = ["/sys/fs/cgroup", "/sys/fs/cgroup/unified", "/sys/fs/cgroup/systemd"]

    /// Whether `pid` is in the group at `path` (relative to the hierarchy's root, such as
    /// "user.slice/user-1000.slice/session-2.scope") or, with `orBelow`, in a group under it;
    /// at most `maximumGroups` groups are read.
    public static func contains(pid: Int32, path: String, orBelow: Bool = false, maximumGroups: Int = 256) -> Bool {
        for root in roots {
            var budget = maximumGroups
            if contains(pid: pid, directory: root + "/" + path, orBelow: orBelow, budget: &budget) { return true }
        }
        return false
    }

    private static func contains(pid: Int32, directory: String, orBelow: Bool, budget: inout Int) -> Bool {
        guard budget > 0 else { return false }
        budget -= 1
        if let bytes = try? FileSystem.readFile(directory + "/cgroup.procs", maximumBytes: 1 << 20),
           lists(pid, in: bytes) {
            return true
        }
        guard orBelow, let stream = opendir(directory) else { return false }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            guard entry.pointee.d_type == UInt8(DT_DIR) else { continue }
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard name != ".", name != ".." else { continue }
            if contains(pid: pid, directory: directory + "/" + name, orBelow: true, budget: &budget) { return true }
        }
        return false
    }

    /// Whether the decimal lines of `bytes` include `pid`.
    public static func lists(_ pid: Int32, in bytes: [UInt8]) -> Bool {
        var value: Int64 = 0
        var digits = 0
        for byte in bytes {
            if byte >= 0x30 && byte <= 0x39 {
                value = value * 10 + Int64(byte - 0x30)
                digits += 1
                if digits > 10 { value = -1 }
            } else {
                if digits > 0, value == Int64(pid) { return true }
                value = 0
                digits = 0
            }
        }
        return digits > 0 && value == Int64(pid)
    }
}
