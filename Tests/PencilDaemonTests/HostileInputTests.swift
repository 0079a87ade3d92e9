import Foundation
@testable import PencilDaemon
import PencilInput
import PencilProtocol
import PencilTestSupport
import PencilSystem
import Testing

/// What the operator's files and numbers, and whatever sits in the state directory, can do to
/// the daemon: each case was a crash, a hang or lost settings before.
@Suite("Hostile files and numbers")
struct HostileInputTests {
    private static func store(in directory: String) -> PreferencesStore {
        PreferencesStore(directory: directory, logger: Logger(level: .error))
    }

    private static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: FileSystem.directoryName(of: path), withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    @Test("one bad field in a preferences file costs only that field; a newer version's fields are skipped")
    func oneBadFieldKeepsTheRest() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let uid = ProcessIdentity.userID
        try Self.write("""
            {"doubleTapAction": "showColorPalette", "longPressDuration": 0, "tapButton": "stylus3",
             "penColourOfTheFuture": "blue", "doubleTapSlop": 2.5}
            """, to: "\(directory)/\(uid).json")
        let loaded = Self.store(in: directory).preferences(for: uid)
        #expect(loaded.doubleTapAction == .showColorPalette)
        #expect(loaded.tapButton == .stylus3)
        #expect(loaded.doubleTapSlop == 2.5)
        #expect(loaded.longPressDuration == Preferences.defaults.longPressDuration)
        // Kept where it was: nothing was moved aside.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["\(uid).json"])
    }

    @Test("two unreadable files in one second leave two backups")
    func backupsNeverOverwrite() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let uid = ProcessIdentity.userID
        for attempt in 0..<2 {
            try Self.write("not json \(attempt)", to: "\(directory)/\(uid).json")
            _ = Self.store(in: directory).preferences(for: uid)
        }
        let backups = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".corrupt-") }
        #expect(backups.count == 2, "\(backups)")
        let contents = try backups.map { try String(contentsOfFile: "\(directory)/\($0)", encoding: .utf8) }
        #expect(Set(contents) == ["not json 0", "not json 1"])
    }

    @Test("a FIFO, a symbolic link or another user's file at <uid>.json is moved aside at once, never read")
    func strangeFiles() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let uid = ProcessIdentity.userID
        let path = "\(directory)/\(uid).json"
        // A FIFO with no writer: a blocking open would hang the daemon's only thread.
        #expect(mkfifo(path, 0o600) == 0)
        #expect(Self.store(in: directory).preferences(for: uid) == .defaults)
        #expect(!FileManager.default.fileExists(atPath: path))
        // A symbolic link to somebody else's file.
        try Self.write("{\"doubleTapAction\": \"ignore\"}", to: "\(directory)/elsewhere")
        #expect(symlink("\(directory)/elsewhere", path) == 0)
        #expect(Self.store(in: directory).preferences(for: uid) == .defaults)
        // A file the daemon's user does not own.
        try Self.write("{\"doubleTapAction\": \"ignore\"}", to: path)
        let stranger = PreferencesStore(directory: directory, logger: Logger(level: .error), owner: uid &+ 1)
        #expect(stranger.preferences(for: uid) == .defaults)
    }

    @Test("stored files are 0600 and a new state directory 0700, whatever the umask")
    func permissions() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = umask(0)
        defer { umask(old) }
        let store = Self.store(in: directory + "/state")
        try store.store(.defaults, for: 1000)
        #expect(try FileSystem.status(of: directory + "/state")?.permissions == 0o700)
        #expect(try FileSystem.status(of: directory + "/state/1000.json")?.permissions == 0o600)
    }

    @Test("a preference file is written and synced inside what the daemon runs without its lock, and the cache changes only after")
    func writingRunsInTheGivenClosure() throws {
        let directory = RunningDaemon.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = Self.store(in: directory)
        let path = "\(directory)/1000.json"
        var changed = Preferences.defaults
        changed.doubleTapAction = .showColorPalette
        var calls = 0
        try store.store(changed, for: 1000) { body in
            calls += 1
            // Before: nothing on disk, and a reader meanwhile (the pen's thread) sees the old value.
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(store.preferences(for: 1000) == .defaults)
            body()
            #expect(FileManager.default.fileExists(atPath: path))
        }
        #expect(calls == 1)
        #expect(store.preferences(for: 1000).doubleTapAction == .showColorPalette)
        // The control: a write that fails inside it fails the store.
        let blocked = Self.store(in: path + "/under-a-file")
        #expect(throws: Errno.self) { try blocked.store(changed, for: 1000) { body in body() } }
    }

    @Test("durations too large for the clock are a file:line error, not a crash",
          arguments: ["LagTimeout=1e19", "LagTimeout=1e13s", "RequestTimeout=1e300h", "IdleTimeout=inf", "AcceptBackoff=nan"])
    func hugeDurations(line: String) {
        var configuration = Configuration(mode: .user, socketPath: "/unused", stateDirectory: "/unused")
        #expect(throws: ConfigurationError.self) {
            try ConfigurationFile.apply("[Limits]\n\(line)\n", fileName: "pencild.conf", to: &configuration)
        }
        do {
            try ConfigurationFile.apply("[Limits]\n\(line)\n", fileName: "pencild.conf", to: &configuration)
        } catch {
            #expect(error.message.hasPrefix("pencild.conf:2: "))
        }
    }

    @Test("a speed that would overflow the clock is a usage error", arguments: ["1e300", "1e-300", "0", "-1", "nan", "inf"])
    func hugeSpeeds(speed: String) {
        #expect(throws: ConfigurationError.self) { try CommandLineParser.parse(["--speed", speed]) }
    }

    @Test("a recording with a gap of 10^12 seconds plays at a tenth of the speed without overflow")
    func hugeGap() throws {
        var description = DeviceDescription(name: "gap")
        description.enable(type: EventCode.EV_SYN, code: EventCode.SYN_REPORT)
        let events = [InputEvent(time: 0, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0),
                      InputEvent(time: 1_000_000_000_000_000_000, type: EventCode.EV_SYN, code: EventCode.SYN_REPORT, value: 0)]
        var player = RecordingPlayer(EvemuRecording(description: description, events: events),
                                     speed: try #require(PlaybackSpeed(factor: 0.1)), startingAt: HostTime(microseconds: 1_000_000))
        var handed = 0
        _ = player.read(at: HostTime(microseconds: 2_000_000), limit: 10) { _ in handed += 1 }
        #expect(handed == 1)
        #expect(player.nextDueTime == .distantFuture)
        #expect(player.deviceTime(at: .distantFuture) > DeviceTime(microseconds: 0))
    }
}
