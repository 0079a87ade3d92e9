#if canImport(Glibc)
import CLinux
import Glibc
#endif

/// Which control group holds a process, read from the groups' side (`cgroup.procs`), for a
/// daemon that may not look at other users' processes in /proc (systemd's
/// `ProtectProc=invisible`): /sys/fs/cgroup stays readable, and lists every process of a group.
public enum ControlGroups {
    /// The one hierarchy systemd tracks processes in, and so the one sd-login reads: the
    /// unified one, whether alone (`/sys/fs/cgroup`) or beside the old ones on a hybrid host
    /// (`/sys/fs/cgroup/unified`); the named v1 one only on a host without it. On a hybrid host
    /// the v1 `name=systemd` tree is not where systemd tracks anybody, and a user may move
    /// their own processes into the groups it delegates there (`user@UID.service`): never read it.
    public static let trackedHierarchy: String = trackedHierarchy(under: "/sys/fs/cgroup", isUnified: isUnifiedHierarchy)

    /// The choice itself, for `root` and a test of which folders hold a unified hierarchy.
    public static func trackedHierarchy(under root: String, isUnified: (String) -> Bool) -> String {
        if isUnified(root) { return root }
        if isUnified(root + "/unified") { return root + "/unified" }
        return root + "/systemd"
    }

    /// Whether a cgroup2 file system is mounted at `path`.
    static func isUnifiedHierarchy(_ path: String) -> Bool {
        var info = statfs()
        let cgroup2Magic = 0x6367_7270  // CGROUP2_SUPER_MAGIC
        return statfs(path, &info) == 0 && Int(info.f_type) == cgroup2Magic
    }

    /// Whether `pid` is in the group at `path` (relative to the hierarchy's root, such as
    /// "user.slice/user-1000.slice/session-2.scope") or, with `orBelow`, in a group under it;
    /// at most `maximumGroups` groups are read. `hierarchy` is the tracked one unless a test
    /// says otherwise.
    public static func contains(pid: Int32, path: String, orBelow: Bool = false, maximumGroups: Int = 256,
                                in hierarchy: String = trackedHierarchy) -> Bool {
        group(of: pid, at: path, orBelow: orBelow, maximumGroups: maximumGroups, in: hierarchy) != nil
    }

    /// The group under `path` (itself included) whose list has `pid`, as a path relative to the
    /// hierarchy's root; nil where none of the groups read has it.
    public static func group(of pid: Int32, at path: String, orBelow: Bool = true, maximumGroups: Int = 256,
                             in hierarchy: String = trackedHierarchy) -> String? {
        var budget = maximumGroups
        return group(of: pid, relative: path, hierarchy: hierarchy, orBelow: orBelow, budget: &budget)
    }

    private static func group(of pid: Int32, relative path: String, hierarchy: String, orBelow: Bool, budget: inout Int) -> String? {
        guard budget > 0 else { return nil }
        budget -= 1
        let directory = hierarchy + "/" + path
        if let bytes = try? FileSystem.readFile(directory + "/cgroup.procs", maximumBytes: 1 << 20),
           lists(pid, in: bytes) {
            return path
        }
        guard orBelow, let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            guard entry.pointee.d_type == UInt8(DT_DIR) else { continue }
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard name != ".", name != ".." else { continue }
            if let found = group(of: pid, relative: path + "/" + name, hierarchy: hierarchy, orBelow: true, budget: &budget) { return found }
        }
        return nil
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
