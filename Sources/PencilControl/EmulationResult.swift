import PencilClient
import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem

/// How a played recording went.
struct EmulationResult: Equatable {
    var eventCount = 0
    var frameCount = 0
    /// Microseconds from the first write to the last.
    var elapsed: Int64 = 0
    /// The most a frame was written after its due time, in µs (the host was busy).
    var lateness: Int64 = 0
}
