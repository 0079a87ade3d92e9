import CommandLineOptions
import PencilClient
import PencilProtocol
import Varlink

/// `pencilctl prefs get [--json]` and `pencilctl prefs set KEY=VALUE...`: the calling
/// user's gesture preferences, through GetPreferences and SetPreferences. Values are
/// checked here for their kind (a number of milliseconds, a name), and by the daemon for
/// their range; either problem is reported with the preference's name.
public enum PrefsCommand: PencilCommand {
    public static let name = "prefs"
    public static let summary = "show or change your gesture preferences (keys: \(keys.joined(separator: ", ")))"

    /// The preferences' names, in the interface's order.
    static let keys = Preferences.fields.map(\.name)

    enum Request: Equatable {
        case get(json: Bool)
        case set(JSONValue)
    }

    struct Options: Equatable {
        var words: [String] = []
        var json = false
    }

    static let parser = OptionParser<Options>(command: "pencilctl prefs", options: [
        .flag("--json", help: ["with get: the preferences as the protocol's JSON"]) { $0.json = true },
    ], operands: [
        Operand("get|set", missing: "prefs needs get or set") { $0.words.append($1) },
        Operand("KEY=VALUE", count: 0...Int.max) { $0.words.append($1) },
    ])

    static let about = [
        "prefs get shows your gesture preferences; prefs set KEY=VALUE... changes the ones named and",
        "keeps the others. The keys: \(keys.joined(separator: ", ")).",
    ]

    static func parse(_ arguments: [String]) -> Result<Request, UsageError> {
        let options: Options
        switch parser.parse(arguments, into: Options()) {
        case .success(let parsed): options = parsed
        case .failure(let problem): return .failure(problem)
        }
        let assignments = options.words.dropFirst()
        switch options.words.first {
        case "get":
            guard assignments.isEmpty else { return .failure(UsageError("prefs get takes only --json")) }
            return .success(.get(json: options.json))
        case "set":
            guard !options.json else { return .failure(UsageError("prefs set takes no --json")) }
            guard !assignments.isEmpty else { return .failure(UsageError("prefs set needs KEY=VALUE")) }
            var members: [(String, JSONValue)] = []
            for assignment in assignments {
                guard let equals = assignment.firstIndex(of: "=") else {
                    return .failure(UsageError("\"\(assignment)\" is not KEY=VALUE"))
                }
                let key = String(assignment[..<equals])
                let text = String(assignment[assignment.index(after: equals)...])
                switch value(for: key, text) {
                case .success(let value): members.append((key, value))
                case .failure(let problem): return .failure(problem)
                }
            }
            return .success(.set(.object(members)))
        default:
            return .failure(UsageError("prefs needs get or set"))
        }
    }

    /// The JSON value of `text` for `key`, by the kind the protocol gives the key.
    static func value(for key: String, _ text: String) -> Result<JSONValue, UsageError> {
        guard let field = Preferences.field(named: key) else {
            return .failure(UsageError("unknown preference \"\(key)\" (known: \(keys.joined(separator: ", ")))"))
        }
        switch field.kind {
        case .milliseconds:
            guard let milliseconds = Int64(text) else {
                return .failure(UsageError("\(key): \"\(text)\" is not a whole number of milliseconds"))
            }
            return .success(.int(milliseconds))
        case .millimetres:
            guard let millimetres = Double(text), millimetres.isFinite else {
                return .failure(UsageError("\(key): \"\(text)\" is not a number of millimetres"))
            }
            return .success(.double(millimetres))
        case .names:
            return .success(.string(text))
        case .flag:
            switch text {
            case "true", "yes", "on", "1": return .success(.bool(true))
            case "false", "no", "off", "0": return .success(.bool(false))
            default: return .failure(UsageError("\(key): \"\(text)\" is not true or false"))
            }
        }
    }

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        let request: Request
        switch parse(arguments) {
        case .success(let parsed): request = parsed
        case .failure(let problem): return usageError(problem.message, io: io)
        }
        let path = DaemonSocket.path()
        let reply: JSONValue
        do {
            switch request {
            case .get:
                reply = try DaemonCall.call(PenInterface.Method.getPreferences.qualifiedName, path: path)
            case .set(let changes):
                reply = try DaemonCall.call(PenInterface.Method.setPreferences.qualifiedName, .object([("preferences", changes)]), path: path)
            }
        } catch {
            if case .remote(let remote) = error, remote.name == PenInterface.ErrorName.invalidPreferences.qualifiedName {
                let field = remote.parameters["field"]?.stringValue ?? "?"
                let reason = remote.parameters["reason"]?.stringValue ?? ""
                io.errors.line("pencilctl prefs: \(field): \(reason)")
                return ExitCode.dataError
            }
            io.errors.line("pencilctl: " + DaemonSocket.explain(error, path: path))
            return ExitCode.unavailable
        }
        guard let json = reply["preferences"], let preferences = try? Preferences.defaults.merging(json) else {
            io.errors.line("pencilctl prefs: pencild's reply holds no valid preferences: \(reply.jsonText)")
            return ExitCode.software
        }
        if case .get(json: true) = request {
            var writer = JSONWriter()
            writer.write(preferences)
            io.output.rawLine(String(decoding: writer.bytes, as: UTF8.self))
        } else {
            io.output.write(table(of: preferences))
        }
        return ExitCode.success
    }

    /// One `name value` line per preference, in the protocol's order.
    static func table(of preferences: Preferences) -> String {
        var text = ""
        // Two spaces after the longest name.
        let width = keys.map(\.count).max()! + 2
        for (key, value) in pairs(of: preferences) {
            text += key.rightPadded(to: width) + value + "\n"
        }
        return text
    }

    /// Each preference's name and value as a person reads it (with its unit), in the protocol's order.
    static func pairs(of preferences: Preferences) -> [(String, String)] {
        Preferences.fields.map { field in
            let value = field.value(in: preferences)
            switch field.kind {
            case .milliseconds: return (field.name, "\(value.intValue ?? 0) ms")
            case .millimetres: return (field.name, EventFormatter.fixed(value.doubleValue ?? 0, 2) + " mm")
            case .names: return (field.name, value.stringValue ?? "")
            case .flag: return (field.name, String(value.boolValue ?? false))
            }
        }
    }

    /// `key=value` pairs on one line (monitor's preferencesChanged).
    static func summary(of preferences: Preferences) -> String {
        pairs(of: preferences).map { "\($0.0)=\($0.1.replacingSpaces)" }.joined(separator: " ")
    }
}

private extension String {
    var replacingSpaces: String { String(filter { $0 != " " }) }
}
