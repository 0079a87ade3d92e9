#if canImport(Glibc)
import Glibc
#endif
#if canImport(Testing)
// Testing is on the search path when tests are built; a plain `swift build` of this
// target (it is a library of the package) builds the rest without the trait.
import Testing
#endif

/// Something a test needs from the machine: the shared recordings, root, a program, Python
/// with the varlink package. (The kernel tier's VM is started and checked by tests/kernel's
/// scripts, not by Swift tests.)
///
/// One rule for all of them: outside CI a test whose prerequisite is missing is skipped, and
/// the skip says what is missing and how to provide it; under `CI=true` the same test fails,
/// because a CI run that skipped it would pass without having checked anything.
public struct Prerequisite: Sendable, CustomStringConvertible {
    /// What is needed, as a sentence's subject: "the shared pen recordings".
    public var name: String
    /// How to provide it.
    public var remedy: String
    /// Whether this machine has it (evaluated when a test asks).
    public var isMet: @Sendable () -> Bool

    public init(_ name: String, remedy: String, isMet: @escaping @Sendable () -> Bool) {
        self.name = name
        self.remedy = remedy
        self.isMet = isMet
    }

    public var description: String { "\(name) (\(remedy))" }

    /// True under CI (`CI=true`), where a missing prerequisite is a failure.
    public static var underCI: Bool {
        guard let value = getenv("CI") else { return false }
        return String(cString: value) == "true"
    }

    /// Checks `prerequisites`: true when all are met; false (a skip, with a note on standard
    /// output) outside CI when one is missing; under CI a thrown `PrerequisiteMissing`.
    public static func check(_ prerequisites: [Prerequisite]) throws(PrerequisiteMissing) -> Bool {
        let missing = prerequisites.filter { !$0.isMet() }
        guard !missing.isEmpty else { return true }
        let error = PrerequisiteMissing(missing: missing)
        if underCI { throw error }
        print("note: skipped: \(error)")
        return false
    }

    // MARK: The project's prerequisites

    /// The real pen recordings of `../shared/recordings` (PENCILD_RECORDINGS).
    public static let recordings = Prerequisite(
        "the shared pen recordings",
        remedy: "set \(SharedRecordings.environmentVariable) to their directory") { SharedRecordings.available }

    /// libwacom's data files, where Debian's libwacom-common puts them.
    public static let libwacomData = Prerequisite(
        "libwacom's data files in \(libwacomDataDirectory)",
        remedy: "apt-get install libwacom-common") { access("\(libwacomDataDirectory)/libwacom.stylus", R_OK) == 0 }

    public static let libwacomDataDirectory = "/usr/share/libwacom"

    /// Running as root (CI runs as root).
    public static let root = Prerequisite("root", remedy: "run the tests as root, as CI does") { geteuid() == 0 }

    /// An executable file, from a Debian package.
    public static func program(_ path: String, package: String) -> Prerequisite {
        Prerequisite(path, remedy: "install the Debian package \(package)") { access(path, X_OK) == 0 }
    }

    /// The Python the tests use as an outside varlink client (PENCILD_TEST_PYTHON, which
    /// `make test` sets to scripts/varlink-venv.sh's venv; python3 by hand), with the
    /// `varlink` package importable.
    public static let pythonVarlink = Prerequisite(
        "Python with the varlink package (\(testPython))",
        remedy: "run scripts/varlink-venv.sh and set PENCILD_TEST_PYTHON to the Python it prints") {
        system("'\(testPython)' -c 'import varlink' >/dev/null 2>&1") == 0
    }

    /// The Python of `pythonVarlink`.
    public static var testPython: String {
        guard let value = getenv("PENCILD_TEST_PYTHON"), value.pointee != 0 else { return "python3" }
        return String(cString: value)
    }

    /// Running a client as another user: root, setpriv and the system's Python.
    public static let otherUserClients: [Prerequisite] = [
        .root, .program("/usr/bin/setpriv", package: "util-linux"), .program("/usr/bin/python3", package: "python3"),
    ]
}

/// The prerequisites a test lacked, as its failure under CI or its skip note outside it.
public struct PrerequisiteMissing: Error, CustomStringConvertible {
    public var missing: [Prerequisite]
    public var description: String {
        let what = missing.map(\.description).joined(separator: "; ")
        return Prerequisite.underCI ? "missing under CI, where every test must run: \(what)" : "missing: \(what)"
    }
}

#if canImport(Testing)
extension Trait where Self == ConditionTrait {
    /// Runs the test or suite when every prerequisite is met. Outside CI a missing one skips
    /// it with a note; under `CI=true` it fails (the condition throws, which records an issue).
    public static func requires(_ prerequisites: Prerequisite..., sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        requires(prerequisites, sourceLocation: sourceLocation)
    }

    public static func requires(_ prerequisites: [Prerequisite], sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        let comment = Comment(rawValue: "needs " + prerequisites.map(\.name).joined(separator: ", "))
        return .enabled(comment, sourceLocation: sourceLocation) { try Prerequisite.check(prerequisites) }
    }
}
#endif
