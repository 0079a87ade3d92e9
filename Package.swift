// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "pencild",
    products: [
        .executable(name: "pencild", targets: ["pencild"]),
        .executable(name: "pencilctl", targets: ["pencilctl"]),
        .executable(name: "pencil-bench", targets: ["pencil-bench"]),
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
        // The protocol's value types and their JSON form: shared by every layer.
        .target(name: "PencilProtocol", linkerSettings: [.linkedLibrary("m")]),
        // Devices, recordings, frames, normalisation, pen transitions.
        .target(name: "PencilInput", dependencies: ["PencilProtocol", "CEvdev"]),
        // Pure gesture logic: double-tap, squeeze, preferences.
        .target(name: "GestureRecognizer", dependencies: ["PencilProtocol", "PencilInput"]),
        // Varlink wire format: NUL framing, a bounded JSON reader, messages.
        .target(name: "Varlink", dependencies: ["PencilProtocol"]),
        // The daemon: event loop, OS layer, device manager, server, preferences store.
        .target(
            name: "PencilDaemon",
            dependencies: ["PencilProtocol", "PencilInput", "GestureRecognizer", "Varlink", "CEvdev", "CSystemd"],
            resources: [.copy("org.pencild.Pen.varlink")]
        ),
        // pencilctl's commands.
        .target(name: "PencilControl", dependencies: ["PencilProtocol", "PencilInput", "GestureRecognizer", "Varlink", "CEvdev"]),
        .executableTarget(name: "pencild", dependencies: ["PencilDaemon"]),
        .executableTarget(name: "pencilctl", dependencies: ["PencilControl"]),
        .executableTarget(name: "pencil-bench", dependencies: ["PencilInput", "GestureRecognizer", "PencilProtocol"]),
        .testTarget(name: "PencilInputTests", dependencies: ["PencilInput", "PencilProtocol"]),
        .testTarget(name: "GestureRecognizerTests", dependencies: ["GestureRecognizer", "PencilInput", "PencilProtocol"]),
        .testTarget(name: "VarlinkTests", dependencies: ["Varlink", "PencilProtocol"]),
        .testTarget(name: "PencilDaemonTests", dependencies: ["PencilDaemon", "Varlink", "PencilInput", "PencilProtocol"]),
    ],
    swiftLanguageModes: [.v6]
)
