import CommandLineOptions
import PencilActions
import PencilClient
import PencilDevices
import PencilProtocol
import PencilSystem
import Varlink
#if canImport(Glibc)
import Glibc
#endif

/// `pencilctl actions [--app ID] [--config FILE]`: the bindings pencil-actions has in force,
/// the focused app as pencil-actions sees it (from the status file it keeps) or as `--app`
/// names it, and what each gesture would do now for this user (preference, action, the
/// binding for that app and its section).
/// `pencilctl actions test ACTION [--app ID] [--config FILE]`: performs that app's binding
/// once, as pencil-actions would: a chord through pencild's keyboard, or pencil-actions' own
/// where pencild has none.
/// `pencilctl actions palette [--json] [--config FILE]`: what the system palette holds for each
/// app the bindings name, and for every other app (the settings window shows it).
public enum ActionsCommand: PencilCommand {
    public static let name = "actions"
    public static let summary = "show what double-tap and squeeze do through pencil-actions, or try one binding"

    /// Whose bindings apply: the app pencil-actions reports as focused, or one named.
    enum AppChoice: Equatable {
        case focused
        case named(String)
    }

    enum Request: Equatable {
        case show(config: String, app: AppChoice)
        case test(PreferredAction, config: String, app: AppChoice)
        case palette(config: String, json: Bool)
    }

    struct Options: Equatable {
        var config: String?
        var app = AppChoice.focused
        var json = false
        var words: [String] = []
    }

    static let parser = OptionParser<Options>(command: "pencilctl actions", options: [
        .value("--app", valueName: "ID", help: ["as if this app were focused (org.kde.krita, firefox)"]) { options, text throws(UsageError) in
            // What a focus provider would report: the same rule.
            guard let id = AppID.sanitized(text) else {
                throw UsageError("--app: \"\(text)\" is not an app id (1 to \(AppID.maximumBytes) bytes of text, no control characters)")
            }
            options.app = .named(id)
        },
        .value("--config", valueName: "FILE", help: ["the bindings (default: pencil-actions' own)"]) { $0.config = $1 },
        .flag("--json", help: ["with palette: one JSON object"]) { $0.json = true },
    ], operands: [
        Operand("test ACTION | palette", count: 0...2) { $0.words.append($1) },
    ])

    static let about = [
        "Shows what double-tap and squeeze do through pencil-actions for the focused app (or --app):",
        "the bindings in force and each gesture's action. \"actions test ACTION\" performs that",
        "app's binding of ACTION once, as pencil-actions would. \"actions palette\" lists what the",
        "system palette holds for each app the bindings name.",
    ]

    static func parse(_ arguments: [String], defaultConfig: String) -> Result<Request, UsageError> {
        let options: Options
        switch parser.parse(arguments, into: Options()) {
        case .success(let parsed): options = parsed
        case .failure(let problem): return .failure(problem)
        }
        let config = options.config ?? defaultConfig
        let words = options.words
        if options.json, words.first != "palette" {
            return .failure(UsageError("--json goes with actions palette"))
        }
        switch words.first {
        case "palette":
            guard words.count == 1 else { return .failure(UsageError("actions palette takes no word after it")) }
            return .success(.palette(config: config, json: options.json))
        case nil:
            return .success(.show(config: config, app: options.app))
        case "test":
            let names = PreferredAction.allCases.map(\.rawValue).joined(separator: ", ")
            guard words.count == 2 else { return .failure(UsageError("actions test needs one ACTION (\(names))")) }
            guard let action = PreferredAction(rawValue: words[1]) else {
                return .failure(UsageError("unknown action \"\(words[1])\" (known: \(names))"))
            }
            return .success(.test(action, config: config, app: options.app))
        default:
            return .failure(UsageError("unknown word \"\(words[0])\" (actions, actions test ACTION, or actions palette)"))
        }
    }

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        let request: Request
        switch parse(arguments, defaultConfig: BindingsFile.defaultPath()) {
        case .success(let parsed): request = parsed
        case .failure(let problem): return usageError(problem.message, io: io)
        }
        switch request {
        case .show(let config, let app):
            return show(config: config, app: app, io: io)
        case .test(let action, let config, let app):
            return test(action, config: config, app: app, io: io)
        case .palette(let config, let json):
            return palette(config: config, json: json, io: io)
        }
    }

    /// The system palette for each `[palette @APP]` section, in the file's order, then for
    /// every other app; Pen and Eraser come first where the pen has a mirror, and are left out.
    static func palette(config: String, json: Bool, io: CommandIO) -> Int32 {
        guard let bindings = load(config, io: json ? CommandIO(output: .capturing(), errors: io.errors) : io) else { return ExitCode.dataError }
        var apps: [(pattern: String?, items: [PaletteItem])] = []
        for section in bindings.palettes {
            guard let pattern = section.pattern else { continue }
            // The section itself, whatever an earlier section would take of an app it names.
            var alone = section
            alone.pattern = nil
            let plan = PalettePlan(for: GestureRequest(action: .showContextualPalette, event: nil),
                                   bindings: ActionBindings(palettes: [alone]), app: nil, tipReportedAs: nil)
            apps.append((pattern.text, plan.items))
        }
        let fallback = PalettePlan(for: GestureRequest(action: .showContextualPalette, event: nil), bindings: bindings,
                                   app: nil, tipReportedAs: nil)
        apps.append((nil, fallback.items))
        if json {
            let value = JSONValue.object([("palettes", .array(apps.map { app in
                .object([("app", app.pattern.map(JSONValue.string) ?? .null),
                         ("items", .array(app.items.map { item in
                             var keys = ""
                             if case .chord(let chord) = item.choice { keys = chord.description }
                             return .object([("label", .string(item.label)), ("group", .string(item.group.rawValue)), ("keys", .string(keys))])
                         }))])
            }))])
            io.output.line("\(value.jsonText)")
            return ExitCode.success
        }
        for app in apps {
            io.output.line("\(app.pattern.map { "@\($0)" } ?? "any other app"): \(app.items.map(\.label).joined(separator: ", "))")
        }
        return ExitCode.success
    }

    /// The bindings in `config`, else, for pencil-actions' own file, the shipped ones, as
    /// pencil-actions reads them.
    static func load(_ config: String, io: CommandIO) -> ActionBindings? {
        let file = BindingsFile(path: config, shippedPath: config == BindingsFile.defaultPath() ? BindingsFile.defaultShippedPath() : nil)
        switch file.load() {
        case .success(let bindings):
            if let loaded = file.loadedPath, loaded != config { io.output.line("bindings: \(loaded) (shipped: \(config) does not exist)") }
            return bindings ?? .empty
        case .failure(let error):
            io.errors.line("pencilctl actions: \(error)")
            return nil
        }
    }

    static func show(config: String, app choice: AppChoice = .focused, io: CommandIO, socket: String = DaemonSocket.path(),
                     statusPath: String? = ActionsStatus.defaultPath()) -> Int32 {
        guard let bindings = load(config, io: io) else { return ExitCode.dataError }
        let exists = (try? FileSystem.status(of: config)) != nil
        if exists || bindings == .empty { io.output.line("bindings: \(config)\(exists ? "" : " (none: the file does not exist)")") }
        var rows: [(label: TerminalMessage, value: TerminalMessage)] = PreferredAction.allCases.filter { $0 != .ignore }.map { action in
            ("\(action.rawValue)", "\(bindings[action]?.description ?? "nothing")")
        }
        rows += bindings.perApp.map { entry in ("\(entry.action.rawValue) @\(entry.pattern.text)", "\(entry.binding.description)") }
        for line in columns(rows) { io.output.line(line) }
        let app = chosenApp(choice, statusPath: statusPath, config: config, io: io)
        if !bindings.keys.isEmpty {
            io.output.line("keys: \(keyboardAccess())")
        }
        let preferences: Preferences
        do {
            let reply = try DaemonCall.call(PenInterface.Method.getPreferences.qualifiedName, path: socket)
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
        for gesture in Gesture.allCases {
            let action = preferences.action(for: gesture)
            let resolved = bindings.resolve(action, app: app)
            let outcome: TerminalMessage
            if action == .ignore {
                outcome = "nothing"
            } else if resolved.binding == nil, PalettePlan.paletteActions.contains(action) {
                outcome = "\(paletteSummary(bindings: bindings, app: app, action: action))"
            } else {
                outcome = "\(resolved.binding?.description ?? "nothing (not bound)") (\(resolved.section(of: action)))"
            }
            io.output.line("  \(gesture.rawValue.rightPadded(to: 10))\(gesture.rawValue)Action=\(action.rawValue) -> \(outcome)")
        }
        return ExitCode.success
    }

    /// "the system palette: Pen, Eraser, Undo, Redo, Swap Colors ([palette @*gimp*], line 40)".
    static func paletteSummary(bindings: ActionBindings, app: String?, action: PreferredAction) -> String {
        let plan = PalettePlan(for: GestureRequest(action: action, event: nil), bindings: bindings, app: app, tipReportedAs: nil)
        let section = bindings.palette(for: app).map { "[palette\($0.pattern.map { " @\($0.text)" } ?? "")], line \($0.line)" }
            ?? "no [palette] section"
        return "the system palette: \(plan.items.map(\.label).joined(separator: ", ")) (\(section))"
    }

    /// Labels longer than this have a line of their own (a long app pattern would push every
    /// value off to the right).
    static let maximumLabelWidth = 32

    /// Rows of a label and a value: the values in one column, two spaces after the longest
    /// label; a label longer than `maximumLabelWidth` on a line of its own, its value on the
    /// next in the column. Widths are those of the text shown (escapes included).
    static func columns(_ rows: [(label: TerminalMessage, value: TerminalMessage)], indent: String = "  ") -> [TerminalMessage] {
        let fitting = rows.map(\.label.text.count).filter { $0 <= maximumLabelWidth }
        let column = (fitting.max() ?? 0) + 2
        var lines: [TerminalMessage] = []
        for row in rows {
            let width = row.label.text.count
            if width > maximumLabelWidth {
                lines.append("\(indent)\(row.label)")
                lines.append("\(indent)\(String(repeating: " ", count: column))\(row.value)")
            } else {
                lines.append("\(indent)\(row.label)\(String(repeating: " ", count: column - width))\(row.value)")
            }
        }
        return lines
    }

    /// The app whose bindings apply, said in a line: the one `--app` named, or the focused app
    /// as pencil-actions last saw it; nil when unknown.
    static func chosenApp(_ choice: AppChoice, statusPath: String?, config: String, io: CommandIO) -> String? {
        switch choice {
        case .named(let app):
            io.output.line("app: \"\(app)\" (given with --app)")
            return app
        case .focused:
            return focusedApp(statusPath: statusPath, config: config, io: io)
        }
    }

    /// The focused app as pencil-actions last saw it, said in a line; nil when unknown.
    static func focusedApp(statusPath: String?, config: String, io: CommandIO) -> String? {
        guard let statusPath else {
            io.output.line("focused app: unknown (XDG_RUNTIME_DIR is not set, where pencil-actions says it): the sections without an app apply")
            return nil
        }
        switch ActionsStatus.read(from: statusPath) {
        case .failure(.absent):
            io.output.line("focused app: unknown: pencil-actions is not running (no \(statusPath)): the sections without an app apply")
            return nil
        case .failure(.unreadable(let problem)):
            io.output.line("focused app: unknown: \(statusPath): \(problem): the sections without an app apply")
            return nil
        case .success(let status):
            guard kill(status.pid, 0) == 0 || errno == EPERM else {
                io.output.line("focused app: unknown: pencil-actions (pid \(status.pid)) is no longer running: the sections without an app apply")
                return nil
            }
            if status.config != config {
                io.output.line("note: pencil-actions reads \(status.config), not \(config)")
            }
            if let problem = status.paletteProblem {
                io.output.line("system palette: it could not open the last time: \(problem)")
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

    /// Which keyboard presses chords: pencild's first, pencil-actions' own where pencild has
    /// none, when this user may make one.
    static func keyboardAccess() -> String {
        do {
            let fd = try FileDescriptor.open("/dev/uinput", [.writeOnly, .closeOnExec, .nonBlocking])
            fd.close()
            return "chords go to pencild's keyboard, which presses them for the seat's active user; where pencild has none, to pencil-actions' own (/dev/uinput is writable)"
        } catch {
            return VirtualKeyboard.explain(error, daemonFirst: true)
        }
    }

    /// Performs `action`'s binding for the chosen app once, as pencil-actions would.
    /// `daemonKeyboard` (nil: PressChord at `socket`) and `makeKeyboard` are for tests.
    static func test(_ action: PreferredAction, config: String, app choice: AppChoice = .focused, io: CommandIO,
                     socket: String = DaemonSocket.path(), statusPath: String? = ActionsStatus.defaultPath(),
                     daemonKeyboard: ((KeyChord) -> DaemonChordOutcome)? = nil,
                     makeKeyboard: (Set<UInt16>) throws(Errno) -> VirtualKeyboard = { keys throws(Errno) in try VirtualKeyboard(keys: keys) }) -> Int32 {
        guard let bindings = load(config, io: io) else { return ExitCode.dataError }
        let app = chosenApp(choice, statusPath: statusPath, config: config, io: io)
        let resolved = bindings.resolve(action, app: app)
        if let binding = resolved.binding {
            io.output.line("binding: \(binding.description) (\(resolved.section(of: action)))")
        }
        let pressByDaemon = daemonKeyboard ?? { chord in DaemonKeyboard(socketPath: socket).press(chord, device: nil) }
        let outcome = PerformOnce.perform(action, bindings: bindings, app: app, daemonKeyboard: pressByDaemon, makeKeyboard: makeKeyboard)
        let (line, status) = report(outcome, of: action, app: app, config: config)
        (status == ExitCode.success ? io.output : io.errors).line(line)
        return status
    }

    /// What `test` says of an outcome, and the status it exits with: a success is said on
    /// stdout, anything else on stderr.
    private static func report(_ outcome: PerformOnce.Outcome, of action: PreferredAction, app: String?,
                               config: String) -> (TerminalMessage, Int32) {
        let name = action.rawValue
        switch outcome {
        case .unbound:
            let whose: TerminalMessage = app.map { " (nor for \"\($0)\")" } ?? ""
            return ("pencilctl actions: \(name) is not bound in \(config)\(whose): nothing to do", ExitCode.dataError)
        case .keyPressedByDaemon(let chord):
            return ("\(name): pencild's keyboard pressed \(chord)", ExitCode.success)
        case .keyRefused(let chord, let why):
            return ("pencilctl actions: \(name): key \(chord) not sent: \(why)", ExitCode.unavailable)
        case .keySent(let chord, let device, let daemonProblem):
            let node: TerminalMessage = device.map { " (\($0))" } ?? ""
            let reason: TerminalMessage = daemonProblem.map { ", as \($0)" } ?? ""
            return ("\(name): sent \(chord) through \"\(VirtualKeyboard.name)\"\(node)\(reason)", ExitCode.success)
        case .keyboardUnavailable(let problem):
            return ("pencilctl actions: \(name): key not sent: \(problem)", ExitCode.unavailable)
        case .commandEnded(let termination) where termination.succeeded:
            return ("\(name): the command ran and \(termination)", ExitCode.success)
        case .commandEnded(let termination):
            return ("pencilctl actions: \(name): the command \(termination)", ExitCode.software)
        case .commandRunning(let pid):
            return ("\(name): the command is still running (pid \(pid)); it is left to run", ExitCode.success)
        case .commandFailed(let problem):
            return ("pencilctl actions: \(name): \(problem)", ExitCode.unavailable)
        }
    }
}
