import PencilProtocol
import PencilSystem

/// Each user's preferences, one file per uid in the state directory (`<uid>.json`), replaced
/// atomically. A file that cannot be read as preferences is moved aside (`.corrupt-<time>`) and
/// the user starts from the defaults.
public final class PreferencesStore {
    public let directory: String
    private let logger: Logger
    private var cache: [UInt32: Preferences] = [:]
    /// Files written since the start: writes are what a flood of calls must not multiply.
    private(set) var writeCount = 0
    /// Bounded so that a hostile file cannot make the daemon read gigabytes.
    static let maximumFileSize = 64 * 1024

    public init(directory: String, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    /// Reads every user's file again on next use (SIGHUP).
    public func forgetCached() { cache.removeAll() }

    func path(for uid: UInt32) -> String { "\(directory)/\(uid).json" }

    /// The user's preferences: stored ones, else the defaults.
    public func preferences(for uid: UInt32) -> Preferences {
        if let cached = cache[uid] { return cached }
        let (loaded, failure) = load(uid)
        // A passing failure (out of descriptors, EIO) is tried again on next use.
        if failure == nil { cache[uid] = loaded }
        return loaded
    }

    /// The user's preferences as stored, to change them: unlike `preferences(for:)` this fails
    /// when the file could not be read, so that a change never replaces settings it did not see.
    public func preferencesToUpdate(for uid: UInt32) throws(Errno) -> Preferences {
        if let cached = cache[uid] { return cached }
        let (loaded, failure) = load(uid)
        if let failure { throw failure }
        cache[uid] = loaded
        return loaded
    }

    /// The user's preferences, and the error when reading failed for a reason that may pass.
    private func load(_ uid: UInt32) -> (Preferences, failure: Errno?) {
        let path = path(for: uid)
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, maximumBytes: Self.maximumFileSize)
        } catch {
            if error == .noSuchFile { return (.defaults, nil) }
            if error == Errno(rawValue: 27) { // EFBIG
                moveAside(path, reason: "larger than \(Self.maximumFileSize) bytes")
                return (.defaults, nil)
            }
            logger.warning("preferences of uid \(uid): cannot read \(path): \(error); using the defaults for now")
            return (.defaults, error)
        }
        do {
            let json = try JSONReader.parse(bytes)
            return (try Preferences.defaults.merging(json), nil)
        } catch let error as JSONParseError {
            moveAside(path, reason: "not JSON (\(error))")
        } catch {
            moveAside(path, reason: "not valid preferences (\(error))")
        }
        return (.defaults, nil)
    }

    private func moveAside(_ path: String, reason: String) {
        let aside = "\(path).corrupt-\(WallClock.secondsSinceEpoch())"
        do {
            try FileSystem.rename(path, to: aside)
            logger.warning("\(path) is \(reason): moved it to \(aside); using the defaults")
        } catch {
            logger.warning("\(path) is \(reason) and could not be moved aside (\(error)); using the defaults")
        }
    }

    /// Stores `preferences` for `uid`. Nothing changes when the file cannot be written.
    public func store(_ preferences: Preferences, for uid: UInt32) throws(Errno) {
        var writer = JSONWriter()
        writer.write(preferences)
        writer.bytes.append(UInt8(ascii: "\n"))
        try FileSystem.createDirectories(directory, permissions: 0o755)
        writeCount += 1
        try FileSystem.writeAtomically(path(for: uid), writer.bytes)
        cache[uid] = preferences
    }
}
