// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "pencild",
    products: [
        .executable(name: "pencild", targets: ["pencild"]),
        .executable(name: "pencilctl", targets: ["pencilctl"]),
        .executable(name: "pencil-bench", targets: ["pencil-bench"]),
        .executable(name: "pencil-actions", targets: ["pencil-actions"]),
        // The Swift client library for apps: events as an AsyncSequence, preferences, focus.
        .library(name: "PencilClient", targets: ["PencilClient"]),
    ],
    targets: [
        // C bridges: libevdev + libudev, and libsystemd (sd-login, sd-daemon).
        .systemLibrary(
            name: "CEvdev",
            pkgConfig: "libevdev",
            providers: [.apt(["libevdev-dev", "libudev-dev"])]
        ),
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // libwacom: which tablet a device is, which stylus a tool id is.
        .systemLibrary(
            name: "CWacom",
            pkgConfig: "libwacom",
            providers: [.apt(["libwacom-dev"])]
        ),
        // pencil-actions' X11 focus provider: libxcb.
        .systemLibrary(
            name: "CXcb",
            pkgConfig: "xcb",
            providers: [.apt(["libxcb1-dev"])]
        ),
        // pencil-actions' wlroots focus provider: zwlr_foreign_toplevel_manager_v1 through
        // libwayland-client. The protocol's C code is generated from protocols/ by
        // scripts/generate-wayland-protocols.sh and kept in the tree (SwiftPM runs no
        // wayland-scanner while it builds).
        .target(
            name: "CWlrForeignToplevel",
            linkerSettings: [.linkedLibrary("wayland-client")]
        ),
        // pencil-actions' KDE and GNOME focus providers: the desktop's reports on the session
        // bus, through sd-bus (libsystemd).
        .target(
            name: "CFocusBus",
            linkerSettings: [.linkedLibrary("systemd")]
        ),
        // Linux headers the Glibc module leaves out (epoll, timerfd, signalfd): headers only.
        .systemLibrary(name: "CLinux"),
        // The two clocks' time types (HostTime, DeviceTime), with no system call: what the pure
        // modules know of time, so that none of them can read a clock.
        .target(name: "PencilTime"),
        // The OS layer: typed errno and the system calls, in one place; it re-exports
        // PencilTime and adds `HostTime.now()`.
        .target(name: "PencilSystem", dependencies: ["PencilTime", "CLinux"]),
        // JSON values, a strict bounded reader and a writer into a reused buffer: the wire
        // format below both the protocol's types and varlink.
        .target(name: "JSON"),
        // One option parser for every executable: options and operands as a table, from which
        // usage and help are written too.
        .target(name: "CommandLineOptions"),
        // The protocol's value types and their JSON form: shared by every layer.
        .target(name: "PencilProtocol", dependencies: ["JSON"], linkerSettings: [.linkedLibrary("m")]),
        // The pure core of pen input: device descriptions, evemu recordings from bytes, frames,
        // normalisation, pen transitions, the pipeline, the player. No I/O, no libevdev, no
        // clock: it cannot see PencilSystem (scripts/check-pure-core.sh proves it).
        .target(name: "PencilInput", dependencies: ["PencilProtocol", "PencilTime"]),
        // Pen input's I/O: live evdev devices (libevdev), uinput virtual devices, recordings
        // read from files; key chords and their player (the keyboard of pencild and pencil-actions).
        .target(name: "PencilDevices", dependencies: ["PencilInput", "PencilProtocol", "PencilSystem", "CEvdev"]),
        // libwacom's database, loaded once per process: the identity of a device and its styli,
        // handed to the pure core as data.
        .target(name: "PencilWacom", dependencies: ["PencilInput", "PencilProtocol", "CWacom"]),
        // Pure gesture logic: double-tap, squeeze, preferences.
        .target(name: "GestureRecognizer", dependencies: ["PencilProtocol", "PencilInput"]),
        // Varlink wire format: NUL framing, a bounded JSON reader, messages.
        .target(name: "Varlink", dependencies: ["JSON", "PencilSystem"]),
        // The daemon: event loop, OS layer, device manager, server, preferences store.
        .target(
            name: "PencilDaemon",
            dependencies: ["PencilProtocol", "PencilSystem", "PencilInput", "PencilDevices", "PencilWacom", "GestureRecognizer", "Varlink", "CEvdev", "CSystemd", "CommandLineOptions"]
        ),
        // The client library: typed, tolerant values, the event sequence that survives a
        // daemon restart, the socket look-up that pencilctl shares.
        .target(name: "PencilClient", dependencies: ["PencilProtocol", "PencilSystem", "Varlink"]),
        // pencil-actions: bindings, chords, commands and pencil-actions' decisions.
        .target(name: "PencilActions", dependencies: ["JSON", "PencilProtocol", "PencilSystem", "PencilInput", "PencilDevices", "PencilClient", "Varlink", "CEvdev", "CXcb", "CWlrForeignToplevel", "CFocusBus", "CSystemd", "CommandLineOptions"]),
        // pencilctl's commands.
        .target(name: "PencilControl", dependencies: ["PencilProtocol", "PencilSystem", "PencilInput", "PencilDevices", "PencilWacom", "GestureRecognizer", "Varlink", "PencilClient", "PencilActions", "CommandLineOptions"]),
        // Test harness: pen scripts that read like what a person does with the pen, the shared
        // recordings, a real pencild; with the devices' table.
        .target(name: "PencilTestSupport", dependencies: ["PencilProtocol", "PencilInput", "PencilSystem", "PencilTestDevices"]),
        // Real devices' capabilities as data (`TestDevice`): for the tests through
        // PencilTestSupport, and for pencil-bench's recordings.
        .target(name: "PencilTestDevices", dependencies: ["PencilInput"]),
        .executableTarget(name: "pencild", dependencies: ["PencilDaemon"]),
        .executableTarget(name: "pencilctl", dependencies: ["PencilControl"]),
        // The per-user service that performs preferred actions for apps that do not subscribe.
        .executableTarget(name: "pencil-actions", dependencies: ["PencilActions"]),
        // The shortest client program (docs/clients.md, "Writing a client"): prints double-taps and
        // squeezes with their action.
        .executableTarget(name: "pencil-gestures-example", dependencies: ["PencilClient"], path: "examples/swift"),
        // The kernel suite's scenario recordings (tests/kernel/suite.sh runs it before the
        // scenarios), written by EvemuWriter from pen scripts.
        .executableTarget(name: "pencil-test-recordings", dependencies: ["PencilInput", "PencilSystem", "PencilTestDevices"],
                          path: "tests/recordings"),
        // Counts heap allocations by interposing malloc: linked into pencil-bench only.
        .target(name: "CAllocationCounter"),
        // The benchmarks' workloads: linked into pencil-bench and its tests, never into the daemon.
        .target(name: "PencilBenchmarks", dependencies: ["PencilInput", "GestureRecognizer", "PencilProtocol"]),
        .executableTarget(name: "pencil-bench", dependencies: ["PencilBenchmarks", "PencilInput", "PencilDevices", "PencilTestDevices", "GestureRecognizer", "PencilProtocol", "PencilSystem", "CAllocationCounter", "CommandLineOptions"]),
        .testTarget(name: "CommandLineOptionsTests", dependencies: ["CommandLineOptions"]),
        .testTarget(name: "JSONTests", dependencies: ["PencilTestSupport", "JSON"]),
        .testTarget(name: "PencilProtocolTests", dependencies: ["PencilTestSupport", "PencilProtocol"]),
        .testTarget(name: "PencilInputTests", dependencies: ["PencilTestSupport", "PencilInput", "PencilDevices", "PencilProtocol"]),
        .testTarget(name: "PencilDevicesTests", dependencies: ["PencilTestSupport", "PencilDevices", "PencilInput", "PencilProtocol", "PencilSystem"]),
        .testTarget(name: "PencilWacomTests", dependencies: ["PencilTestSupport", "PencilWacom", "PencilInput", "PencilDevices", "PencilProtocol", "GestureRecognizer"]),
        .testTarget(name: "GestureRecognizerTests", dependencies: ["PencilTestSupport", "PencilBenchmarks", "GestureRecognizer", "PencilInput", "PencilDevices", "PencilProtocol"]),
        .testTarget(name: "VarlinkTests", dependencies: ["PencilTestSupport", "Varlink", "PencilProtocol"]),
        .testTarget(name: "PencilControlTests", dependencies: ["PencilTestSupport", "PencilControl", "PencilWacom", "PencilClient", "GestureRecognizer", "PencilInput", "PencilDevices", "PencilProtocol", "CommandLineOptions"]),
        .testTarget(name: "PencilClientTests", dependencies: ["PencilTestSupport", "PencilClient", "PencilInput", "PencilProtocol", "Varlink"]),
        .testTarget(name: "PencilActionsTests", dependencies: ["PencilTestSupport", "PencilActions", "PencilClient", "PencilDevices", "PencilProtocol", "PencilSystem", "CommandLineOptions"]),
        .testTarget(name: "PencilDaemonTests", dependencies: ["PencilTestSupport", "PencilDaemon", "Varlink", "PencilInput", "PencilDevices", "PencilProtocol"]),
    ],
    swiftLanguageModes: [.v6]
)
