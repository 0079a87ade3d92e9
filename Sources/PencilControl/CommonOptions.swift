import CommandLineOptions

/// Options several pencilctl commands share, written once.
extension Option {
    /// `--device ID`, repeatable: only these devices' events.
    static func deviceFilter(_ add: @escaping @Sendable (inout Options, String) -> Void) -> Option {
        .value("--device", valueName: "ID", repeats: true, help: ["only this device's events (repeatable)"]) { options, id throws(UsageError) in
            guard !id.isEmpty else { throw UsageError("--device needs a device id") }
            add(&options, id)
        }
    }

    /// `--desc DESC`: the device description of a recording without a header.
    static func recordingDescription(_ set: @escaping @Sendable (inout Options, String) -> Void) -> Option {
        .value("--desc", valueName: "DESC", help: ["the device's description (evemu-describe), for a recording without one"]) { options, path throws(UsageError) in
            set(&options, path)
        }
    }
}
