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

    /// A group's id by name, for configuration.
    public static func groupID(named name: String) -> UInt32? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }
}
