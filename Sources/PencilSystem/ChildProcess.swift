#if canImport(Glibc)
import CLinux
import Glibc
#endif

/// Child processes started with posix_spawn (no shell, no fork of a large address space) and
/// reaped without blocking.
public enum ChildProcess {
    /// How a child ended.
    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        public var succeeded: Bool { self == .exited(0) }

        public var description: String {
            switch self {
            case .exited(let status): return "exited with status \(status)"
            case .signalled(let signal): return "was killed by signal \(signal)"
            }
        }
    }

    /// Starts `arguments[0]`, looked up in `PATH` as execvp does, with exactly `environment`
    /// ("NAME=value" strings). Standard input is /dev/null; output and errors are the caller's.
    /// The child starts with no blocked signals and default dispositions for the signals the
    /// caller may have blocked or ignored (a signalfd loop blocks them; EPIPE handling ignores
    /// SIGPIPE), so it behaves as if started from a shell. `standardInput` and
    /// `standardOutput`, when given, become its 0 and 1. Returns its pid.
    public static func spawn(_ arguments: [String], environment: [String], standardInput: FileDescriptor? = nil,
                             standardOutput: FileDescriptor? = nil) throws(Errno) -> Int32 {
        guard let program = arguments.first, !program.isEmpty else { throw .invalidArgument }
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        if let standardInput {
            posix_spawn_file_actions_adddup2(&actions, standardInput.rawValue, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let standardOutput { posix_spawn_file_actions_adddup2(&actions, standardOutput.rawValue, 1) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid: pid_t = 0
        let result = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in
                posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
            }
        }
        if result != 0 { throw Errno(rawValue: result) }
        return pid
    }

    /// How `pid` ended, or nil while it runs. Never blocks.
    public static func reap(_ pid: Int32) throws(Errno) -> Termination? {
        var status: Int32 = 0
        let result = try retryingOnInterrupt { waitpid(pid, &status, WNOHANG) }
        if result == 0 { return nil }
        // The wait status, decoded as <sys/wait.h>'s macros do.
        let signal = status & 0x7f
        if signal == 0 { return .exited((status >> 8) & 0xff) }
        return .signalled(signal)
    }

    public static func signal(_ pid: Int32, _ signal: Int32) {
        _ = kill(pid, signal)
    }

    /// A NULL-terminated array of C strings that lives for the duration of `body`.
    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
