import PencilProtocol
import PencilSystem
import Varlink

/// The configuration file: systemd's INI style, `[Daemon]` and `[Limits]` sections of
/// `Key=Value` lines, `#` and `;` comments. docs/configuration.md is the reference.
public enum ConfigurationFile {
    public static func read(_ path: String) throws -> String {
        guard let bytes = try FileSystem.readRegularFile(path, maximumBytes: 1024 * 1024) else {
            throw ConfigurationError("it is not a regular file (a FIFO, a device or a folder): settings are read from a file")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func apply(_ text: String, fileName: String, to configuration: inout Configuration) throws(ConfigurationError) {
        var section = ""
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.trimmingWhitespace()
            func fail(_ message: String) -> ConfigurationError { ConfigurationError("\(fileName):\(lineNumber): \(message)") }
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw fail("a section header must end with ']'") }
                section = String(line.dropFirst().dropLast())
                guard section == "Daemon" || section == "Limits" else { throw fail("unknown section [\(section)] (expected [Daemon] or [Limits])") }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { throw fail("expected Key=Value") }
            let key = String(line[..<equals]).trimmingWhitespace()
            let value = String(line[line.index(after: equals)...]).trimmingWhitespace()
            guard !section.isEmpty else { throw fail("\(key)= must be inside a [Daemon] or [Limits] section") }
            func count(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
                guard let number = Int(value), range.contains(number) else { throw fail("\(key)= expects a whole number from \(range.lowerBound) to \(range.upperBound), not '\(value)'") }
                return number
            }
            func bytes(_ range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
                guard let number = parseSize(value), range.contains(number) else { throw fail("\(key)= expects a size (bytes, or with K or M) from \(range.lowerBound) to \(range.upperBound), not '\(value)'") }
                return number
            }
            func duration() throws(ConfigurationError) -> Int64 {
                guard let microseconds = parseDuration(value), microseconds > 0, microseconds <= 3_600_000_000 else { throw fail("\(key)= expects a duration such as 500ms or 2s (at most 1h), not '\(value)'") }
                return microseconds
            }
            switch (section, key) {
            case ("Daemon", "Socket"): configuration.socketPath = value
            case ("Daemon", "StateDirectory"): configuration.stateDirectory = value
            case ("Daemon", "LogLevel"):
                guard let level = LogLevel(name: value) else { throw fail("LogLevel= expects error, warning, notice, info or debug, not '\(value)'") }
                configuration.logLevel = level
            case ("Daemon", "AccessGroup"):
                guard let gid = ProcessIdentity.groupID(named: value) ?? UInt32(value) else { throw fail("AccessGroup=: no group '\(value)'") }
                configuration.accessGroup = gid
            case ("Daemon", "AllowGrab"):
                switch value.lowercased() {
                case "yes", "true", "on", "1": configuration.allowsGrab = true
                case "no", "false", "off", "0": configuration.allowsGrab = false
                default: throw fail("AllowGrab= expects yes or no, not '\(value)'")
                }
            case ("Daemon", "ChordKeyInterval"):
                guard let microseconds = parseDuration(value), Configuration.chordKeyIntervals.contains(microseconds) else {
                    throw fail("ChordKeyInterval= expects a duration from 1ms to 100ms (a key held longer repeats in the app), not '\(value)'")
                }
                configuration.chordKeyInterval = microseconds
            case ("Limits", "MaxClients"): configuration.limits.maximumClients = try count(2...32_768)
            case ("Limits", "MaxClientsPerUser"): configuration.limits.maximumClientsPerUser = try count(1...32_768)
            case ("Limits", "IdleTimeout"): configuration.limits.idleTimeout = try duration()
            case ("Limits", "MaxRequestSize"): configuration.limits.maximumRequestSize = try bytes(1024...(16 << 20))
            case ("Limits", "MaxQueuedRequests"): configuration.limits.maximumQueuedRequests = try count(1...4096)
            case ("Limits", "OutputBufferSize"): configuration.limits.outputBufferSize = try bytes(4096...(64 << 20))
            case ("Limits", "LagTimeout"): configuration.limits.lagTimeout = try duration()
            case ("Limits", "RequestTimeout"): configuration.limits.requestTimeout = try duration()
            case ("Limits", "AcceptBackoff"): configuration.limits.acceptBackoff = try duration()
            default: throw fail("unknown key \(key)= in [\(section)]")
            }
        }
    }

    /// "65536", "64K", "1M".
    static func parseSize(_ text: String) -> Int? {
        let multipliers: [Character: Int] = ["K": 1024, "M": 1024 * 1024]
        if let last = text.last, let multiplier = multipliers[Character(last.uppercased())] {
            return Int(text.dropLast()).flatMap { $0.multipliedReportingOverflow(by: multiplier).overflow ? nil : $0 * multiplier }
        }
        return Int(text)
    }

    /// "250ms", "2s", "1min", "500us", or plain seconds: microseconds.
    static func parseDuration(_ text: String) -> Int64? {
        let units: [(String, Double)] = [("us", 1), ("ms", 1_000), ("min", 60_000_000), ("s", 1_000_000), ("h", 3_600_000_000)]
        // Int64(exactly:) after rounding: 1e19 or 1e300h is out of range, an error, never a trap.
        func microseconds(_ number: Double?, _ scale: Double) -> Int64? {
            guard let number, number.isFinite, number >= 0 else { return nil }
            return Int64(exactly: (number * scale).rounded(.down))
        }
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            return microseconds(Double(text.dropLast(suffix.count)), scale)
        }
        return microseconds(Double(text), 1_000_000)
    }
}
