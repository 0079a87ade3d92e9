import PencilDaemon
#if canImport(Glibc)
import Glibc
#endif

// Thin: parse, set up, run. Everything else is in PencilDaemon.
let command: Command
do {
    command = try CommandLineParser.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Logger(level: .error).error("pencild: \(error)")
    exit(2)
}
switch command {
case .help:
    print(CommandLineParser.usage, terminator: "")
case .version:
    print("pencild \(Daemon.version)")
case .run(let configuration):
    let logger = Logger(level: configuration.logLevel)
    do {
        let daemon = try Daemon(configuration: configuration, logger: logger)
        exit(daemon.run())
    } catch {
        logger.error("cannot start: \(error)")
        exit(1)
    }
}
