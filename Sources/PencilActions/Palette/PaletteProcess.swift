import JSON
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// One opening of the system palette: `pencil-palette` as a child, the plan's request written
/// to its standard input, its replies read from its standard output without blocking. The
/// service's loop waits on `output`.
public final class PaletteProcess {
    public let pid: Int32
    public let plan: PalettePlan
    /// The pen the gesture came from, for the chords pencild presses.
    public let device: String?
    /// What opened it, for the log: "squeeze showContextualPalette".
    public let label: String
    /// When it was asked for (CLOCK_MONOTONIC µs), for the time until it is on screen.
    public let requestedAt: Int64
    public let output: FileDescriptor
    private var input: FileDescriptor?
    private var pending: [UInt8] = []
    /// How long the pen may be out of proximity before an open palette closes (gestures.md,
    /// "Which app acts: the system palette", case 7).
    public static let awayMicroseconds: Int64 = 3_000_000
    /// When the pen left (nil: it is in range, or has not left since the palette opened).
    public var awaySince: Int64?
    /// How long it may take to be on screen by default: a palette that never shows (hung, or
    /// stopped by its desktop) must not hold every later palette gesture.
    public static let defaultShowMicroseconds: Int64 = 5_000_000
    /// How long this one may take (pencil-actions' `--palette-wait`).
    public let showMicroseconds: Int64
    /// Whether it said it is on screen.
    public private(set) var shown = false

    /// The palette's next deadline: to show, or the pen's being away (nil: none).
    public var deadline: Int64? {
        [shown ? nil : requestedAt + showMicroseconds, awaySince.map { $0 + Self.awayMicroseconds }].compactMap { $0 }.min()
    }

    /// Whether the final reply (chosen, closed, error) has come.
    public private(set) var answered = false

    public init(program: String, plan: PalettePlan, device: String?, label: String, environment: [String], now: Int64,
                showMicroseconds: Int64 = PaletteProcess.defaultShowMicroseconds) throws(Errno) {
        self.showMicroseconds = showMicroseconds
        let toChild = try FileDescriptor.makePipe()
        let fromChild: (read: FileDescriptor, write: FileDescriptor)
        do { fromChild = try FileDescriptor.makePipe() } catch {
            toChild.read.close()
            toChild.write.close()
            throw error
        }
        defer {
            toChild.read.close()
            fromChild.write.close()
        }
        do {
            try toChild.read.setNonBlocking(false)
            try fromChild.write.setNonBlocking(false)
            pid = try ChildProcess.spawn([program], environment: environment, standardInput: toChild.read, standardOutput: fromChild.write)
        } catch {
            toChild.write.close()
            fromChild.read.close()
            throw error
        }
        self.plan = plan
        self.device = device
        self.label = label
        requestedAt = now
        output = fromChild.read
        input = toChild.write
        // One line, a few KiB at most: the pipe holds 64 KiB, so this never waits.
        send(plan.request)
    }

    private func send(_ value: JSONValue) {
        guard let input else { return }
        do { try input.writeAll(Array((value.jsonText + "\n").utf8)) } catch {
            // The palette has gone: its end of the pipe is closed. Its exit says the rest.
            input.close()
            self.input = nil
        }
    }

    /// Asks it to close without acting ("again", "away"): it answers `closed`.
    public func close(because reason: String) {
        send(.object([("close", .string(reason))]))
    }

    /// Reads what it wrote: its complete lines, and whether its output is still open. A line
    /// longer than a reply can be ends the reading, as a broken palette.
    public func readReplies() -> (replies: [PaletteReply?], open: Bool) {
        var replies: [PaletteReply?] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        var open = true
        while true {
            let result = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in try output.read(into: buffer) }
            }
            let count: Int
            switch result {
            case .success(let read): count = read
            case .failure(let error):
                if error != .wouldBlock { open = false }
                count = -1
            }
            if count < 0 { break }
            if count == 0 {
                open = false
                break
            }
            pending += chunk[..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let reply = PaletteReply.parse(Array(pending[..<newline]))
                pending.removeSubrange(...newline)
                if let reply, case .shown = reply { shown = true } else { answered = true }
                replies.append(reply)
            }
            if pending.count > PaletteReply.maximumLineBytes {
                replies.append(nil)
                open = false
                break
            }
        }
        return (replies, open)
    }

    /// Closes both pipes and, when it still runs, asks it to end. Returns the pid when it is
    /// still to be reaped (at the next SIGCHLD), nil when it already was.
    public func end() -> Int32? {
        input?.close()
        input = nil
        output.close()
        switch Result(catching: { () throws(Errno) in try ChildProcess.reap(pid) }) {
        case .success(nil):
            ChildProcess.signal(pid, SIGTERM)
            return pid
        case .success(_?), .failure:
            return nil
        }
    }
}
