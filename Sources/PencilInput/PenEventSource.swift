import PencilTime

/// Where a pen device's events come from: a live device node (`LiveDevice`) or a recording
/// played on its own clock (`RecordingPlayer`). The daemon's event loop watches a live
/// source's descriptor and a replay's `nextDueTime`, and reads when either is ready.
public protocol PenEventSource {
    /// Why a read fails: a live device's errno (PencilDevices), `Never` for a replay, so
    /// that this module needs no system error of its own.
    associatedtype ReadError: Error

    /// The device's capabilities.
    var description: DeviceDescription { get }

    /// Hands the items available at `hostTime` to `handle`, in order, at
    /// most `limit` of them. A live device reads what the kernel has queued and ignores
    /// `hostTime`; a replay hands out the events due by then. Errors are the device's (ENODEV
    /// when it was unplugged).
    mutating func read(at hostTime: HostTime, limit: Int, _ handle: (SourceItem) -> Void) throws(ReadError) -> SourceStatus
}
