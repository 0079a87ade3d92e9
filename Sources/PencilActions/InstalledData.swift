import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// pencil-actions' own files, installed beside it: PREFIX/share/pencil-actions/ for
/// PREFIX/bin/pencil-actions, else Debian's /usr/share/pencil-actions/.
public enum InstalledData {
    /// The installed file's path; Debian's when it is installed nowhere.
    public static func path(of name: String) -> String {
        existingPath(of: name) ?? "/usr/share/pencil-actions/" + name
    }

    /// The installed file's path, nil where it is not installed (a build in the source tree).
    public static func existingPath(of name: String) -> String? {
        let relative = "share/pencil-actions/" + name
        var candidates = ["/usr/" + relative]
        if let executable = executablePath() {
            let prefix = FileSystem.directoryName(of: FileSystem.directoryName(of: executable))
            candidates.insert((prefix == "/" ? "" : prefix) + "/" + relative, at: 0)
        }
        return candidates.first { (try? FileSystem.status(of: $0)) != nil }
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
