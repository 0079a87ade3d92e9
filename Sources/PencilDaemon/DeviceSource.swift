import GestureRecognizer
import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem
import PencilWacom

/// Where one device's events come from: a live node, or a recording on its own clock
/// (waiting for its first monitor, then playing).
enum DeviceSource {
    case live(LiveDevice, token: UInt64)
    case waitingReplay(EvemuRecording)
    case replay(RecordingPlayer)
    /// The demo pen: its loop, and the gestures asked of it (not started until the first monitor).
    case demo(DemoPenPlayer)
    case ended
}
