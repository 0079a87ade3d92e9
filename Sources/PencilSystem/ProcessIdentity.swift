#if canImport(Glibc)
import Glibc
#endif

/// The daemon process: who it runs as, its environment, the users it knows.
public enum ProcessIdentity {
    public static var userID: UInt32 { getuid() }
    public static var processID: Int32 { getpid() }

    public static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    public static func unsetEnvironment(_ name: String) {
        _ = unsetenv(name)
    }

    /// A user's home directory from the user database.
    public static func homeDirectory(of uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let home = entry.pw_dir else { return nil }
        return String(cString: home)
    }

    /// The groups `uid` belongs to in the user database (primary and supplementary), for peers
    /// whose groups the kernel did not report.
    public static func groups(ofUser uid: UInt32, primaryGroup: UInt32) -> [UInt32] {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
            return [primaryGroup]
        }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, primaryGroup, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, primaryGroup, &groups, &count) >= 0 else { return [primaryGroup] }
        }
        return Array(groups.prefix(Int(count)))
    }

    /// A group's id by name, for configuration.
    public static func groupID(named name: String) -> UInt32? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }
}
