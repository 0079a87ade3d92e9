import PencilProtocol

/// A Monitor call in progress: which devices and event types the client asked for.
struct MonitorFilter {
    /// nil: every device.
    var devices: Set<String>?
    /// nil: every event type.
    var eventTypes: Set<EventType>?

    func wants(_ event: Event) -> Bool { wants(type: event.type, device: event.device) }

    func wants(type: EventType, device: String?) -> Bool {
        if let eventTypes, !eventTypes.contains(type) { return false }
        if let devices, let device, !devices.contains(device) { return false }
        return true
    }
}
