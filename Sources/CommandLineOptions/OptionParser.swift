/// A command line's grammar as data: its options and operands. It parses `--name VALUE` and
/// `--name=VALUE` alike, `--` ending the options, and writes the usage line and the options'
/// help from the same table, so that what `--help` says and what is accepted cannot part.
///
/// `--help` and `-h` are every command's: ask `asksForHelp` before `parse`.
public struct OptionParser<Options>: Sendable {
    /// The command as a person types it: `pencilctl emulate`.
    public let command: String
    public let options: [Option<Options>]
    public let operands: [Operand<Options>]

    public init(command: String, options: [Option<Options>] = [], operands: [Operand<Options>] = []) {
        self.command = command
        self.options = options
        self.operands = operands
    }

    /// Whether the person asked for help: `--help` or `-h` among the options.
    public func asksForHelp(_ arguments: [String]) -> Bool {
        for argument in arguments {
            if argument == "--" { return false }
            if argument == "--help" || argument == "-h" { return true }
        }
        return false
    }

    /// Applies `arguments` (without the command's own words) to `initial`, in the order given.
    public func parse(_ arguments: [String], into initial: Options) -> Result<Options, UsageError> {
        var result = initial
        do throws(UsageError) {
            var given = Array(repeating: 0, count: operands.count)
            var slot = 0
            for item in try scan(arguments) {
                switch item {
                case .option(let option, let value):
                    try option.apply(&result, value)
                case .operand(let text):
                    while slot < operands.count, given[slot] >= operands[slot].count.upperBound { slot += 1 }
                    guard slot < operands.count else { throw UsageError("unexpected argument \(text)") }
                    try operands[slot].apply(&result, text)
                    given[slot] += 1
                }
            }
            for (index, operand) in operands.enumerated() where given[index] < operand.count.lowerBound {
                throw UsageError(operand.missing)
            }
        } catch {
            return .failure(error)
        }
        return .success(result)
    }

    /// The values given to the option named `name`, in order, without applying anything: for an
    /// option that must act before the others (pencild reads `--config` first).
    public func values(of name: String, in arguments: [String]) -> Result<[String], UsageError> {
        do throws(UsageError) {
            return .success(try scan(arguments).compactMap { item in
                if case .option(let option, let value) = item, option.names.contains(name) { return value }
                return nil
            })
        } catch {
            return .failure(error)
        }
    }

    private enum Item {
        case option(Option<Options>, String)
        case operand(String)
    }

    private func scan(_ arguments: [String]) throws(UsageError) -> [Item] {
        var items: [Item] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                items.append(.operand(argument))
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.names.contains(name) }) else {
                throw UsageError("unknown option \(name)")
            }
            if option.valueName == nil {
                guard attached == nil else { throw UsageError("\(name) takes no value") }
                items.append(.option(option, ""))
            } else if let attached {
                items.append(.option(option, attached))
            } else {
                guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                items.append(.option(option, arguments[index]))
                index += 1
            }
        }
        return items
    }

    // MARK: Usage and help

    /// The usage line without "usage: ": the command, its operands, then its options.
    public var usage: String { usagePieces.joined(separator: " ") }

    private var usagePieces: [String] {
        [command] + operands.map(\.usage) + options.filter { !$0.help.isEmpty }.map(\.usage)
    }

    /// The usage line as help shows it: folded before 100 columns, under the first operand.
    var foldedUsage: String {
        let indent = String(repeating: " ", count: "usage: \(command) ".count)
        var lines = ["usage: \(command)"]
        for piece in usagePieces.dropFirst() {
            if lines[lines.count - 1].count + 1 + piece.count > 100 {
                lines.append(indent + piece)
            } else {
                lines[lines.count - 1] += " " + piece
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The options as help lists them: a name and its value, then what it does.
    public var optionsHelp: String {
        let shown = options.filter { !$0.help.isEmpty }
        let labels = shown.map(\.label) + ["--help"]
        let column = min(labels.map(\.count).max() ?? 0, 22) + 4
        var text = ""
        func add(_ label: String, _ lines: [String]) {
            let head = "  " + label
            if head.count + 2 > column {
                text += head + "\n"
                text += lines.map { String(repeating: " ", count: column) + $0 + "\n" }.joined()
                return
            }
            for (number, line) in lines.enumerated() {
                let start = number == 0 ? head : ""
                text += start + String(repeating: " ", count: column - start.count) + line + "\n"
            }
        }
        for (option, label) in zip(shown, labels) { add(label, option.help) }
        add("--help", ["print this help and exit"])
        return text
    }

    /// The whole of `--help`: the usage line, what the command does, and its options.
    public func help(about: [String]) -> String {
        var text = foldedUsage + "\n"
        if !about.isEmpty { text += "\n" + about.map { $0 + "\n" }.joined() }
        text += "\noptions:\n" + optionsHelp
        return text
    }
}
