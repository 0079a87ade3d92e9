#if canImport(Glibc)
import Glibc
#endif

/// Real pen recordings live outside the repository; tests find their directory through
/// PENCILD_RECORDINGS. Tests that need them say so with `.requires(.recordings)`
/// (Prerequisite.swift): skipped with a note when they are absent, a failure under CI.
public enum SharedRecordings {
    public static let environmentVariable = "PENCILD_RECORDINGS"

    /// The recordings' directory, or nil when the variable is unset or names no directory.
    public static let directory: String? = {
        guard let value = getenv(environmentVariable), let path = String(validatingCString: value), !path.isEmpty else {
            print("note: \(environmentVariable) is unset: tests on real pen recordings are skipped (under CI=true they fail)")
            return nil
        }
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            print("note: \(environmentVariable)=\(path) is not a directory: tests on real pen recordings are skipped (under CI=true they fail)")
            return nil
        }
        return path
    }()

    public static var available: Bool { directory != nil }

    /// The full path of a recording in the directory (which must be available).
    public static func path(_ name: String) -> String {
        "\(directory ?? ".")/\(name)"
    }

    /// Every recording the conformance tests replay: file, and the `.desc` it needs.
    public static let all: [(events: String, desc: String?)] = [
        ("Wacom Cintiq 22HDT Pen.events", nil),
        ("Wacom Intuos4 6x9.stylus-move.events", "Wacom Intuos4 6x9 Pen.desc"),
        ("Wacom Intuos4 6x9.stylus-drag.events", "Wacom Intuos4 6x9 Pen.desc"),
        ("Wacom Intuos4 6x9.stylus-tap.events", "Wacom Intuos4 6x9 Pen.desc"),
        ("dell_canvas_pen.evemu", nil),
        ("UC-LOGIC Tablet WP5540U Pen.events", nil),
        ("Genius EasyPen i405X.events", "Genius EasyPen i405X.desc"),
    ]

}
