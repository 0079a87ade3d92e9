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

    /// The user the daemon runs as: only its own files are read.
    private let owner: UInt32

    public init(directory: String, logger: Logger, owner: UInt32 = ProcessIdentity.userID) {
        self.directory = directory
        self.logger = logger
        self.owner = owner
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
            bytes = try FileSystem.readPrivateFile(path, maximumBytes: Self.maximumFileSize, owner: owner)
        } catch {
            switch error {
            case .noSuchFile:
                return (.defaults, nil)
            case .fileTooLarge:
                moveAside(path, reason: "larger than \(Self.maximumFileSize) bytes")
            case .tooManySymbolicLinkLevels: // O_NOFOLLOW met a symbolic link
                moveAside(path, reason: "a symbolic link")
            case FileSystem.notARegularFile:
                moveAside(path, reason: "not a regular file")
            case FileSystem.notOwned:
                moveAside(path, reason: "not owned by pencild's user (uid \(owner))")
            default:
                logger.warning("preferences of uid \(uid): cannot read \(path): \(error); using the defaults for now")
                return (.defaults, error)
            }
            return (.defaults, nil)
        }
        let json: JSONValue
        do {
            json = try JSONReader.parse(bytes)
        } catch {
            moveAside(path, reason: "not JSON (\(error))")
            return (.defaults, nil)
        }
        do {
            let (preferences, dropped) = try Preferences.defaults.mergingValidFields(json)
            for field in dropped {
                logger.warning("\(path): \(field.field) \(field.reason): left out, the other settings are kept")
            }
            return (preferences, nil)
        } catch {
            moveAside(path, reason: "not valid preferences (\(error))")
            return (.defaults, nil)
        }
    }

    private func moveAside(_ path: String, reason: String) {
        do {
            let aside = try FileSystem.moveAside(path, to: "\(path).corrupt-\(WallClock.secondsSinceEpoch())")
            logger.warning("\(path) is \(reason): moved it to \(aside); using the defaults")
        } catch {
            logger.warning("\(path) is \(reason) and could not be moved aside (\(error)); using the defaults")
        }
    }

    /// Stores `preferences` for `uid`. Nothing changes when the file cannot be written; once
    /// it is renamed into place the new value is the user's, even if the directory could not
    /// be synced (then only a crash could bring back the old one, and the log says so).
    /// `writing` runs the file's writing and its fsyncs, which may take long on a slow disk: the
    /// daemon runs it with the lock let go, so that the pen's path does not wait for the disk;
    /// nothing of the store's own is touched in it (a reader meanwhile sees the old file or the
    /// new one, and the cache is set after).
    public func store(_ preferences: Preferences, for uid: UInt32,
                      writing: (() -> Void) -> Void = { $0() }) throws(Errno) {
        var writer = JSONWriter()
        writer.write(preferences)
        writer.bytes.append(UInt8(ascii: "\n"))
        writeCount += 1
        let directory = directory, path = path(for: uid), bytes = writer.bytes
        var outcome: Result<FileSystem.Replacement, Errno> = .failure(.ioError)
        writing {
            outcome = Result { () throws(Errno) -> FileSystem.Replacement in
                try FileSystem.createDirectories(directory, permissions: 0o700)
                return try FileSystem.writeAtomically(path, bytes, permissions: 0o600)
            }
        }
        let replacement = try outcome.get()
        cache[uid] = preferences
        if case .renamedNotSynced(let error) = replacement {
            logger.warning("preferences of uid \(uid) written, but \(directory) could not be synced (\(error)): a crash now may undo them")
        }
    }
}
