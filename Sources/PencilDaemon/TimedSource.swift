import GestureRecognizer
import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem
import PencilWacom

/// A source on a clock of its own, which the hub plays at host time: a recording, or the
/// demo pen.
protocol TimedSource: PenEventSource where ReadError == Never {
    var speed: PlaybackSpeed { get }
    var nextDueTime: HostTime? { get }
    var nextEventTime: DeviceTime? { get }
    func hostTime(for deviceTime: DeviceTime) -> HostTime
    func deviceTime(at hostTime: HostTime) -> DeviceTime
}

extension RecordingPlayer: TimedSource {}

extension DemoPenPlayer: TimedSource {}
