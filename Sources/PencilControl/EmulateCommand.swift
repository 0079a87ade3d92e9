import CommandLineOptions
import PencilClient
import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem
#if canImport(Glibc)
import Glibc
#endif

/// `pencilctl emulate RECORDING [--desc DESC] [--speed FACTOR|max] [--hold] [--settle SECONDS] [--wait-for-pencild]`:
/// a virtual pen through uinput with the recording's exact capabilities (name, ids,
/// properties, event codes, axis ranges and resolutions), playing the recording in real time
/// or faster. Apps (and pencild) see it as a tablet that was plugged in; test an app without
/// a tablet with it.
///
/// Prints the device node (`/dev/input/eventN`) on a line of its own on stdout once the device
/// exists; everything else goes to stderr. The device lives `--settle` seconds (0.5 by
/// default) before the first event, so that udev and readers find it, and as long after the
/// last, so that they read everything before it goes; `--hold` keeps it after the last event
/// until SIGINT or SIGTERM instead. `--wait-for-pencild` replaces the wait before the first
/// event with pencild's own word: the recording plays once pencild's Monitor stream reports
/// the device added (so pencild sees every event, however slow udev is), and the command fails
/// when that does not come within 30 s. Removing the device is an unplug to its readers; a
/// signal that kills the command mid-recording is one too.
///
/// The kernel stamps the events with its own clock at the time they are written: the
/// recording's times only say when to write them. Exit status: 0 played, 64 usage, 65/66 a bad
/// or missing recording, 69 no uinput (or no permission to use it), 74 a write failed.
public enum EmulateCommand: PencilCommand {
    public static let name = "emulate"
    public static let summary = "play an evemu recording through a virtual pen (uinput) with its exact capabilities; prints the device node"

    /// EX_IOERR: a write to the device failed.
    static let ioError: Int32 = 74

    struct Options: Equatable, RecordingOptions {
        var recording = ""
        var description: String?
        var speed: PlaybackSpeed = .realTime
        var hold = false
        /// Microseconds the device exists before the first event and after the last.
        var settle: Int64 = 500_000
        /// Play once pencild has added the device, instead of after `settle`.
        var waitForPencild = false
    }

    /// How long `--wait-for-pencild` waits for pencild to add the device.
    static let pencildTimeout: Int64 = 30_000_000

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        guard let options = parsed(arguments, into: Options(), io: io) else { return ExitCode.usage }

        var recording: EvemuRecording
        // Only pens: a keyboard made from a recording could type into whatever session has
        // the seat, switch virtual terminals, or press the power key. A pen's own keyboard keys
        // (a Cintiq's express keys) and switches are left out of the virtual pen likewise.
        do { recording = try CommandIO.loadPen(options, io: io, prefix: "pencilctl emulate: ", consequence: "emulate plays only pens") } catch { return error.status }
        let (penOnly, removed) = Self.penOnly(recording.description)
        recording.description = penOnly
        if removed > 0 {
            io.errors.line("pencilctl emulate: note: \(removed) keyboard keys, switches or other codes that are not a pen's are left out of the virtual pen")
        }
        let plan = EmulationPlan(recording)
        if plan.unsupportedCount > 0 {
            io.errors.line("pencilctl emulate: note: \(plan.unsupportedCount) events of codes the device does not declare are left out (the kernel would drop them)")
        }

        // Subscribed before the device exists, so that its deviceAdded cannot be missed.
        var pencild: MonitorSubscription?
        if options.waitForPencild {
            let path = DaemonSocket.path()
            do {
                pencild = try MonitorSubscription(path: path, devices: nil, events: [EventType.deviceAdded.rawValue])
            } catch {
                io.errors.line("pencilctl emulate: --wait-for-pencild: cannot watch pencild at \(path): \(error)")
                return ExitCode.unavailable
            }
        }
        defer { pencild?.close() }

        let device: VirtualDevice
        do {
            device = try VirtualDevice(description: recording.description)
        } catch {
            io.errors.line("pencilctl emulate: cannot create a virtual device through /dev/uinput: \(error)\(uinputHint(error))")
            return ExitCode.unavailable
        }
        defer { device.close() }

        if let node = device.devicePath {
            io.output.line("\(node)")
        } else {
            io.errors.line("pencilctl emulate: the device was made, but sysfs does not tell its node")
        }
        io.errors.line("pencilctl emulate: \"\(recording.description.name)\" at \(device.devicePath ?? "an unknown node"): "
                       + "\(plan.frameCount) frames, \(formatSeconds(plan.duration)) s recorded, speed \(speedText(options.speed))")
        io.output.flush()
        io.errors.flush()

        let clock = SystemEmulationClock()
        if let pencild {
            let id = device.devicePath.map(FileSystem.baseName(of:)) ?? ""
            if let problem = waitUntilAdded(id, by: pencild) {
                io.errors.line("pencilctl emulate: --wait-for-pencild: \(problem)")
                return ExitCode.unavailable
            }
            pencild.close()
            io.errors.line("pencilctl emulate: pencild added \(id): playing")
            io.errors.flush()
        } else {
            clock.sleep(until: clock.now() + options.settle)
        }
        var output = VirtualDeviceOutput(device: device)
        let result: EmulationResult
        do {
            result = try plan.play(speed: options.speed, into: &output, clock: clock)
        } catch {
            io.errors.line("pencilctl emulate: writing to \(device.devicePath ?? "the device") failed: \(error)")
            return ioError
        }
        io.errors.line("pencilctl emulate: played \(result.eventCount) events in \(result.frameCount) frames in "
                       + "\(formatSeconds(result.elapsed)) s (\(formatSeconds(result.lateness)) s late at worst)")
        io.errors.flush()

        if options.hold {
            io.errors.line("pencilctl emulate: holding the device until SIGINT or SIGTERM")
            io.errors.flush()
            if let problem = waitForTermination() {
                io.errors.line("pencilctl emulate: cannot wait for a signal: \(problem); removing the device")
            }
        } else {
            clock.sleep(until: clock.now() + options.settle)
        }
        return ExitCode.success
    }

    /// Waits for pencild's deviceAdded of `id` on `stream`; nil once it came, else why not.
    static func waitUntilAdded(_ id: String, by stream: MonitorSubscription) -> String? {
        let deadline = MonotonicClock.now() + pencildTimeout
        do throws(Errno) {
            let poller = try Epoll()
            try poller.add(stream.descriptor, events: .readable, token: 0)
            while true {
                var added = false
                var ended = false
                do {
                    ended = try stream.readAvailable { event in
                        if event["type"] == .string(EventType.deviceAdded.rawValue), event["device"] == .string(id) { added = true }
                    } == .ended
                } catch {
                    return "pencild's stream failed: \(error)"
                }
                if added { return nil }
                if ended { return "pencild ended its stream before adding \(id)" }
                let left = deadline - MonotonicClock.now()
                guard left > 0 else { break }
                try poller.wait(timeoutMilliseconds: Int32(min(left / 1_000 + 1, 60_000))) { _, _ in }
            }
        } catch {
            return "cannot wait for pencild: \(error)"
        }
        return "pencild did not add \(id) within \(pencildTimeout / 1_000_000) s (not a pen to it, or no access to the node: see its log)"
    }

    /// What to do about a failed uinput creation, for the usual causes.
    /// `description` without what a pen does not need and a keyboard would
    /// (`DeviceDescription.keepingPenCodesOnly`), with how many codes went.
    static func penOnly(_ description: DeviceDescription) -> (DeviceDescription, removed: Int) {
        description.keepingPenCodesOnly()
    }

    static func uinputHint(_ error: Errno) -> String {
        switch error {
        case .noSuchFile, .noDevice: return " (is the uinput module loaded? modprobe uinput)"
        case .permissionDenied, .notPermitted: return " (writing /dev/uinput needs root, or a udev rule granting access)"
        default: return ""
        }
    }

    /// Blocks SIGINT, SIGTERM and SIGHUP and waits for one of them; nil once one came.
    static func waitForTermination() -> Errno? {
        do throws(Errno) {
            let signals = try SignalFD(signals: [SIGINT, SIGTERM, SIGHUP])
            let poller = try Epoll()
            try poller.add(signals.descriptor, events: .readable, token: 0)
            var received = false
            while !received {
                try poller.wait(timeoutMilliseconds: -1) { _, _ in
                    received = signals.nextSignal() != nil
                }
            }
            return nil
        } catch {
            return error
        }
    }

    static func speedText(_ speed: PlaybackSpeed) -> String {
        speed.factor.isFinite ? "\(speed.factor)x" : "max"
    }

    static func formatSeconds(_ microseconds: Int64) -> String {
        let milliseconds = (microseconds + 500) / 1_000
        let fraction = String(milliseconds % 1_000)
        return "\(milliseconds / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    static let parser = OptionParser<Options>(command: "pencilctl emulate", options: [
        .recordingDescription { $0.description = $1 },
        .value("--speed", valueName: "FACTOR|max", help: ["play FACTOR times as fast, or as fast as the device takes events (default: 1)"]) {
            options, text throws(UsageError) in
            if text == "max" {
                options.speed = .asFastAsPossible
            } else if let factor = Double(text), factor.isFinite, let parsed = PlaybackSpeed(factor: factor) {
                options.speed = parsed
            } else {
                throw UsageError("--speed: expected a positive number or max, not \"\(text)\"")
            }
        },
        .flag("--hold", help: ["keep the device after the last event, until Ctrl-C or SIGTERM"]) { $0.hold = true },
        .value("--settle", valueName: "SECONDS", help: ["how long the device lives before the first event and after the last (default: 0.5)"]) {
            options, text throws(UsageError) in
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 3600 else {
                throw UsageError("--settle: expected seconds from 0 to 3600, not \"\(text)\"")
            }
            options.settle = Int64((seconds * 1_000_000).rounded())
        },
        .flag("--wait-for-pencild", help: ["play once pencild has added the device (at most 30 s), instead of after --settle"]) {
            $0.waitForPencild = true
        },
    ], operands: [
        Operand("RECORDING", missing: "no recording given") { $0.recording = $1 },
    ])

    static func parse(_ arguments: [String]) -> Result<Options, UsageError> { parser.parse(arguments, into: Options()) }
}

// MARK: Playback
