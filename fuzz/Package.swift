// swift-tools-version:6.0
// libFuzzer targets for pencild's parsers and its pen tracker.
//
// A package of its own because every module here is built with the fuzzer and address
// sanitizers (fuzz/run.sh passes them), and linked with lld: libFuzzer provides the
// driver, each target's main.swift hands it the function to fuzz.
//
// The library targets are the main package's own sources (Sources/X are symbolic links
// to ../../Sources/X); their dependencies must follow ../Package.swift. Only the pure core
// is fuzzed: nothing here links libevdev (PencilDevices stays out).
import PackageDescription

let fuzzerLinking: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"])]

let package = Package(
    name: "pencild-fuzz",
    targets: [
        .systemLibrary(name: "CLinux"),
        .target(name: "PencilTime"),
        .target(name: "PencilSystem", dependencies: ["PencilTime", "CLinux"]),
        .target(name: "JSON"),
        .target(name: "PencilProtocol", dependencies: ["JSON"], linkerSettings: [.linkedLibrary("m")]),
        .target(name: "PencilInput", dependencies: ["PencilProtocol", "PencilTime"]),
        .target(name: "Varlink", dependencies: ["JSON", "PencilSystem"]),
        .target(name: "GestureRecognizer", dependencies: ["PencilProtocol", "PencilInput"]),
        .target(name: "FuzzSupport"),
        // Devices and event sequences from fuzz input, and the contract's bookkeeping.
        .target(name: "PenFuzzing", dependencies: ["FuzzSupport", "PencilInput", "PencilProtocol"]),
        .executableTarget(name: "fuzz-json", dependencies: ["FuzzSupport", "PencilProtocol"],
                          linkerSettings: fuzzerLinking),
        .executableTarget(name: "fuzz-varlink", dependencies: ["FuzzSupport", "Varlink", "PencilProtocol"],
                          linkerSettings: fuzzerLinking),
        .executableTarget(name: "fuzz-evemu", dependencies: ["FuzzSupport", "PencilInput"],
                          linkerSettings: fuzzerLinking),
        .executableTarget(name: "fuzz-pen-tracker", dependencies: ["FuzzSupport", "PenFuzzing", "PencilInput", "PencilProtocol"],
                          linkerSettings: fuzzerLinking),
        .executableTarget(name: "fuzz-gestures",
                          dependencies: ["FuzzSupport", "PenFuzzing", "GestureRecognizer", "PencilInput", "PencilProtocol"],
                          linkerSettings: fuzzerLinking),
    ],
    swiftLanguageModes: [.v6]
)
