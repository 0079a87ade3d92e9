import PencilClient
import PencilProtocol
import PencilSystem
import Varlink
#if canImport(Glibc)
import Glibc
#endif

/// Subscribes, hands out events, and subscribes again when the daemon comes back. One
/// epoll set: the stream, SIGINT/SIGTERM (to end cleanly, output flushed), and for `watch`
/// the terminal's keys and size changes. While the daemon is away it tries again with the
/// client library's growing pauses, up to a second: nothing tells a client when a socket
/// reappears.
final class MonitorLoop {
    let path: String
    let devices: [String]?
    let events: [String]?
    /// Claim the user's focus on every subscription (`monitor --focus`).
    let claimingFocus: Bool
    private let epoll: Epoll
    private let signals: SignalFD
    private var stream: MonitorSubscription?
    /// The pauses between attempts to subscribe again while the daemon is away.
    private var backoff = ReconnectBackoff(initialMilliseconds: 100, maximumMilliseconds: 1000)

    enum Token: UInt64 { case stream = 1, signal, keys }

    /// What a key or a resize asks of the loop.
    enum KeyAction { case none, quit }

    var keys: FileDescriptor?
    var onKey: ((UInt8) -> KeyAction)?
    var onResize: (() -> Void)?
    /// Called when every available event has been handed out (a place to redraw or flush).
    var onIdle: (() -> Void)?
    /// Called with a line of status (disconnected, reconnected) for the user.
    var onStatus: ((String) -> Void)?
    /// How long the next wait may last, in milliseconds (-1: until something happens); a
    /// view uses it for a redraw it has put off.
    var waitLimit: (() -> Int32)?

    init(path: String, devices: [String]?, events: [String]?, claimingFocus: Bool = false, extraSignals: [Int32] = []) throws(Errno) {
        self.path = path
        self.devices = devices
        self.events = events
        self.claimingFocus = claimingFocus
        epoll = try Epoll(capacity: 8)
        signals = try SignalFD(signals: [SIGINT, SIGTERM] + extraSignals)
        try epoll.add(signals.descriptor, events: .readable, token: Token.signal.rawValue)
    }

    private func subscribe() throws(VarlinkClientError) {
        let stream = try MonitorSubscription(path: path, devices: devices, events: events, claimingFocus: claimingFocus)
        do {
            try epoll.add(stream.descriptor, events: .readable, token: Token.stream.rawValue)
        } catch {
            throw .io(error)
        }
        self.stream = stream
    }

    private func dropStream() {
        if let stream {
            epoll.remove(stream.descriptor)
            stream.close()
        }
        stream = nil
    }

    /// Runs until a signal or a quitting key; returns the exit status.
    func run(io: CommandIO, _ handle: (Event) -> Void, onReconnect: () -> Void = {}) -> Int32 {
        if onStatus == nil { onStatus = { io.errors.line("pencilctl: \($0)"); io.errors.flush() } }
        do {
            try subscribe()
        } catch {
            io.errors.line("pencilctl: " + DaemonSocket.explain(error, path: path))
            return ExitCode.unavailable
        }
        if let keys { try? epoll.add(keys, events: .readable, token: Token.keys.rawValue) }
        var status: Int32?
        while status == nil {
            var timeout: Int32 = stream == nil ? Int32(backoff.next()) : -1
            if let limit = waitLimit?(), limit >= 0 { timeout = timeout < 0 ? limit : min(timeout, limit) }
            var streamReady = false
            do {
                try epoll.wait(timeoutMilliseconds: timeout) { token, _ in
                    switch Token(rawValue: token) {
                    case .stream: streamReady = true
                    case .signal:
                        while let signal = signals.nextSignal() {
                            if signal == SIGWINCH { onResize?() } else { status = ExitCode.success }
                        }
                    case .keys:
                        var byte: UInt8 = 0
                        let count = withUnsafeMutableBytes(of: &byte) { (try? keys?.read(into: $0)) ?? 0 }
                        if count == 0 { keys.map(epoll.remove); keys = nil } else if onKey?(byte) == .quit { status = ExitCode.success }
                    case nil: break
                    }
                }
            } catch {
                io.errors.line("pencilctl: waiting failed: \(error)")
                return ExitCode.software
            }
            if streamReady, let stream {
                do {
                    // At most 16 reads of 64 KiB a turn (as PencilEvents): a flooding
                    // stream never keeps Ctrl-C, SIGTERM or the keys waiting.
                    let outcome = try stream.readAvailable(chunkLimit: 16) { (json) throws(VarlinkClientError) in
                        let event: PencilEvent
                        do { event = try PencilEvent(json: json) } catch { throw .protocolViolation("event: \(error)") }
                        // An event with a name this pencilctl does not know (a newer
                        // daemon's) is left out, as the protocol asks of older clients.
                        if let known = event.protocolEvent { handle(known) }
                    }
                    if outcome == .ended {
                        dropStream()
                        onStatus?("pencild at \(path) went away; waiting for it to come back")
                    }
                } catch {
                    if case .remote = error {
                        io.errors.line("pencilctl: " + DaemonSocket.explain(error, path: path))
                        return ExitCode.unavailable
                    }
                    dropStream()
                    onStatus?("pencild at \(path): \(error); waiting for it to come back")
                }
            } else if stream == nil, status == nil {
                if (try? subscribe()) != nil {
                    backoff.reset()
                    onReconnect()
                    onStatus?("pencild at \(path) is back")
                }
            }
            onIdle?()
            io.output.flush()
        }
        dropStream()
        io.output.flush()
        return status ?? ExitCode.success
    }
}
