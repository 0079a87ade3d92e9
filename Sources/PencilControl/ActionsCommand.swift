import PencilActions
import PencilClient
import PencilProtocol
import PencilSystem
import Varlink
#if canImport(Glibc)
import Glibc
#endif

/// `pencilctl actions [--config FILE]`: the bindings pencil-actions has in force, the focused
/// app as pencil-actions sees it (from the status file it keeps), and what each gesture would
/// do now for this user (preference, action, the binding for that app and its section).
/// `pencilctl actions test ACTION [--config FILE]`: performs one binding once.
public enum ActionsCommand: PencilCommand {
    public static let name = "actions"
    public static let usage = "actions [--config FILE] | actions test ACTION [--config FILE]"
    public static let summary = "show what double-tap and squeeze do through pencil-actions, or try one binding"

    enum Request: Equatable {
        case show(config: String)
        case test(PreferredAction, config: String)
    }

    static func parse(_ arguments: [String], defaultConfig: String) -> Result<Request, UsageProblem> {
        var config = defaultConfig
        var words: [String] = []
        var index = 0
        while index < arguments.count {
            if arguments[index] == "--config" {
                guard index + 1 < arguments.count else { return .failure(UsageProblem("--config needs a file")) }
                config = arguments[index + 1]
                index += 2
                continue
            }
            if arguments[index].hasPrefix("-") { return .failure(UsageProblem("unknown option \(arguments[index])")) }
            words.append(arguments[index])
            index += 1
        }
        switch words.first {
        case nil:
            return .success(.show(config: config))
        case "test":
            let names = PreferredAction.allCases.map(\.rawValue).joined(separator: ", ")
            guard words.count == 2 else { return .failure(UsageProblem("actions test needs one ACTION (\(names))")) }
            guard let action = PreferredAction(rawValue: words[1]) else {
                return .failure(UsageProblem("unknown action \"\(words[1])\" (known: \(names))"))
            }
            return .success(.test(action, config: config))
        default:
            return .failure(UsageProblem("unknown word \"\(words[0])\" (actions, or actions test ACTION)"))
        }
    }

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        let request: Request
        switch parse(arguments, defaultConfig: BindingsFile.defaultPath()) {
        case .success(let parsed): request = parsed
        case .failure(let problem): return usageError(problem.message, io: io)
        }
        switch request {
        case .show(let config):
            return show(config: config, io: io)
        case .test(let action, let config):
            return test(action, config: config, io: io)
        }
    }

    static func load(_ config: String, io: CommandIO) -> ActionBindings? {
        switch BindingsFile(path: config).load() {
        case .success(let bindings): return bindings ?? .empty
        case .failure(let error):
            io.errors.line("pencilctl actions: \(error)")
            return nil
        }
    }

    static func show(config: String, io: CommandIO, socket: String = DaemonSocket.path(),
                     statusPath: String? = ActionsStatus.defaultPath()) -> Int32 {
        guard let bindings = load(config, io: io) else { return ExitCode.dataError }
        let exists = (try? FileSystem.status(of: config)) != nil
        io.output.line("bindings: \(config)\(exists ? "" : " (none: the file does not exist)")")
        for action in PreferredAction.allCases where action != .ignore {
            io.output.line("  \(action.rawValue.rightPadded(to: 23))\(bindings[action]?.description ?? "nothing")")
        }
        for entry in bindings.perApp {
            io.output.line("  \("\(entry.action.rawValue) @\(entry.pattern.text)".rightPadded(to: 23))\(entry.binding.description)")
        }
        let app = focusedApp(statusPath: statusPath, config: config, io: io)
        if !bindings.keys.isEmpty {
            io.output.line("keys: \(keyboardAccess())")
        }
        let preferences: Preferences
        do {
            let reply = try DaemonCall.call("org.pencild.Pen.GetPreferences", path: socket)
            guard let json = reply["preferences"], let decoded = try? Preferences.defaults.merging(json) else {
                io.errors.line("pencilctl actions: pencild's reply holds no valid preferences: \(reply.jsonText)")
                return ExitCode.software
            }
            preferences = decoded
        } catch {
            io.errors.line("pencilctl: " + DaemonSocket.explain(error, path: socket))
            return ExitCode.unavailable
        }
        io.output.line("gestures now (your preferences at \(socket)), when no app holds pencild's focus:")
        let gestures: [(String, String, PreferredAction)] = [
            ("doubleTap", "doubleTapAction", preferences.doubleTapAction),
            ("squeeze", "squeezeAction", preferences.squeezeAction),
        ]
        for (gesture, preference, action) in gestures {
            let resolved = bindings.resolve(action, app: app)
            let outcome = action == .ignore ? "nothing"
                : "\(resolved.binding?.description ?? "nothing (not bound)") (\(resolved.section(of: action)))"
            io.output.line("  \(gesture.rightPadded(to: 10))\(preference)=\(action.rawValue) -> \(outcome)")
        }
        return ExitCode.success
    }

    /// The focused app as pencil-actions last saw it, said in a line; nil when unknown.
    static func focusedApp(statusPath: String?, config: String, io: CommandIO) -> String? {
        guard let statusPath else {
            io.output.line("focused app: unknown (XDG_RUNTIME_DIR is not set, where pencil-actions says it): the sections without an app apply")
            return nil
        }
        switch ActionsStatus.read(from: statusPath) {
        case .failure(.absent):
            io.output.line("focused app: unknown: pencil-actions is not running (no \(statusPath))")
            return nil
        case .failure(.unreadable(let problem)):
            io.output.line("focused app: unknown: \(statusPath): \(problem)")
            return nil
        case .success(let status):
            guard kill(status.pid, 0) == 0 || errno == EPERM else {
                io.output.line("focused app: unknown: pencil-actions (pid \(status.pid)) is no longer running")
                return nil
            }
            if status.config != config {
                io.output.line("note: pencil-actions reads \(status.config), not \(config)")
            }
            switch status.focus {
            case .following(let app?):
                io.output.line("focused app: \"\(app)\" (\(status.provider), as pencil-actions sees it)")
                return app
            case .following(nil):
                io.output.line("focused app: none (\(status.provider) says no window has the focus): the sections without an app apply")
                return nil
            case .unavailable(let reason):
                io.output.line("focused app: unknown (\(status.provider): \(reason)): the sections without an app apply")
                return nil
            }
        }
    }

    /// Whether this user may make the virtual keyboard.
    static func keyboardAccess() -> String {
        do {
            let fd = try FileDescriptor.open("/dev/uinput", [.writeOnly, .closeOnExec, .nonBlocking])
            fd.close()
            return "/dev/uinput is writable: key chords can be sent"
        } catch {
            return VirtualKeyboard.explain(error)
        }
    }

    static func test(_ action: PreferredAction, config: String, io: CommandIO) -> Int32 {
        guard let bindings = load(config, io: io) else { return ExitCode.dataError }
        switch PerformOnce.perform(action, bindings: bindings) {
        case .unbound:
            io.errors.line("pencilctl actions: \(action.rawValue) is not bound in \(config): nothing to do")
            return ExitCode.dataError
        case .keySent(let chord, let device):
            io.output.line("\(action.rawValue): sent \(chord) through \"\(VirtualKeyboard.name)\"\(device.map { " (\($0))" } ?? "")")
            return ExitCode.success
        case .keyboardUnavailable(let problem):
            io.errors.line("pencilctl actions: \(problem)")
            return ExitCode.unavailable
        case .commandEnded(let termination) where termination.succeeded:
            io.output.line("\(action.rawValue): the command ran and \(termination)")
            return ExitCode.success
        case .commandEnded(let termination):
            io.errors.line("pencilctl actions: \(action.rawValue): the command \(termination)")
            return ExitCode.software
        case .commandRunning(let pid):
            io.output.line("\(action.rawValue): the command is still running (pid \(pid)); it is left to run")
            return ExitCode.success
        case .commandFailed(let problem):
            io.errors.line("pencilctl actions: \(action.rawValue): \(problem)")
            return ExitCode.unavailable
        }
    }
}
