import PencilInput
import PencilProtocol
import PencilSystem

protocol DeviceHubDelegate: AnyObject {
    /// Events for the monitors of `uid`, or of every user when nil (device arrivals and departures).
    func deviceHub(_ hub: DeviceHub, emit events: [Event], toUser uid: UInt32?)
}

/// The pen devices: replays, the demo pen and live devices, each with its tracker and a
/// gesture recogniser per user who monitors it.
final class DeviceHub {
    let configuration: Configuration
    let logger: Logger
    weak var delegate: (any DeviceHubDelegate)?

    init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    var count: Int { 0 }
    var deviceInfos: [DeviceInfo] { [] }
    func contains(_ id: String) -> Bool { false }
    var replaysFinished: Bool { true }

    func start(now: Int64) throws(DaemonError) {}
    func nextDeadline() -> Int64? { nil }
    func fireDue(now: Int64) {}
    func handleReadable(token: UInt64, now: Int64) {}
    func subscribe(uid: UInt32, preferences: Preferences) {}
    func unsubscribe(uid: UInt32) {}
    func updatePreferences(uid: UInt32, _ preferences: Preferences) {}
    func catchUpEvents(uid: UInt32, now: Int64) -> [Event] { [] }
    func monitorsSubscribed(count: Int, now: Int64) {}
    func removeAll() {}
}
