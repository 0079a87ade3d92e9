import JSON
import PencilSystem

/// What pencil-actions tells `pencilctl actions`: its bindings file, the focus provider and
/// the focused app as it sees them. A small file in `$XDG_RUNTIME_DIR` (only this user's),
/// rewritten when the focus or the bindings change, removed at exit.
public struct ActionsStatus: Equatable, Sendable {
    public var pid: Int32
    public var config: String
    public var provider: String
    public var focus: FocusState
    /// Why the system palette could not open the last time it was asked for (nil: it opened,
    /// or has not been asked for).
    public var paletteProblem: String?

    public init(pid: Int32, config: String, provider: String, focus: FocusState, paletteProblem: String? = nil) {
        self.pid = pid
        self.config = config
        self.provider = provider
        self.focus = focus
        self.paletteProblem = paletteProblem
    }
}

extension ActionsStatus {
    /// Larger status files are refused: they hold a few hundred bytes.
    public static let maximumBytes = 8 * 1024

    /// `$XDG_RUNTIME_DIR/pencil-actions.status` (nil without a runtime directory).
    public static func defaultPath(environment: (String) -> String? = ProcessIdentity.environment) -> String? {
        guard let runtime = environment("XDG_RUNTIME_DIR"), runtime.hasPrefix("/") else { return nil }
        return runtime + "/pencil-actions.status"
    }

    public var json: JSONValue {
        var focusMembers: [(String, JSONValue)] = []
        switch focus {
        case .following(let app):
            focusMembers.append(("following", .bool(true)))
            focusMembers.append(("app", app.map { .string($0) } ?? .null))
        case .unavailable(let reason):
            focusMembers.append(("following", .bool(false)))
            focusMembers.append(("reason", .string(reason)))
        }
        return .object([
            ("pid", .int(Int64(pid))), ("config", .string(config)), ("provider", .string(provider)),
            ("focus", .object(focusMembers)),
        ] + (paletteProblem.map { [("palette", JSONValue.object([("problem", .string($0))]))] } ?? []))
    }

    public init?(json: JSONValue) {
        guard let pid = json["pid"]?.intValue, let pidValue = Int32(exactly: pid), pidValue > 0,
              let config = json["config"]?.stringValue, let provider = json["provider"]?.stringValue,
              let focus = json["focus"], let following = focus["following"]?.boolValue else { return nil }
        self.pid = pidValue
        self.config = config
        self.provider = provider
        paletteProblem = json["palette"]?["problem"]?.stringValue.map(\.escapedForTerminal)
        if following {
            guard let app = focus["app"] else { return nil }
            if app.isNull {
                self.focus = .following(app: nil)
            } else {
                guard let text = app.stringValue, let safe = AppID.sanitized(text) else { return nil }
                self.focus = .following(app: safe)
            }
        } else {
            self.focus = .unavailable(focus["reason"]?.stringValue ?? "no reason given")
        }
    }

    public func write(to path: String) throws(Errno) {
        try FileSystem.writeAtomically(path, Array((json.jsonText + "\n").utf8), permissions: 0o600)
    }

    /// The status at `path`, written by this user (owner `uid`), or why there is none.
    public static func read(from path: String, uid: UInt32 = ProcessIdentity.userID) -> Result<ActionsStatus, ReadProblem> {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readPrivateFile(path, maximumBytes: maximumBytes, owner: uid)
        } catch {
            return .failure(error == .noSuchFile ? .absent : .unreadable("\(error)"))
        }
        guard let json = try? JSONReader.parse(bytes), let status = ActionsStatus(json: json) else {
            return .failure(.unreadable("not a status pencil-actions wrote"))
        }
        return .success(status)
    }

    public enum ReadProblem: Error, Equatable, Sendable {
        /// pencil-actions is not running (or has no runtime directory).
        case absent
        case unreadable(String)
    }
}
