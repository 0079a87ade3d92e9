import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// pencil-actions' own files, installed beside it: PREFIX/share/pencil-actions/ for
/// PREFIX/bin/pencil-actions, else Debian's /usr/share/pencil-actions/.
public enum InstalledData {
    public static func path(of name: String) -> String {
        let relative = "share/pencil-actions/" + name
        if let executable = executablePath() {
            let prefix = FileSystem.directoryName(of: FileSystem.directoryName(of: executable))
            let candidate = (prefix == "/" ? "" : prefix) + "/" + relative
            if (try? FileSystem.status(of: candidate)) != nil { return candidate }
        }
        return "/usr/" + relative
    }

    /// The installed file's path, nil where it is not installed (a build in the source tree).
    public static func existingPath(of name: String) -> String? {
        let path = path(of: name)
        return (try? FileSystem.status(of: path)) != nil ? path : nil
    }

    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
