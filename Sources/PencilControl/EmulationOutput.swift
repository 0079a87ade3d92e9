import PencilClient
import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem

/// Where emulation writes events: the virtual device, or a list in tests.
protocol EmulationOutput {
    mutating func write(_ event: InputEvent) throws(Errno)
}

struct VirtualDeviceOutput: EmulationOutput {
    let device: VirtualDevice
    mutating func write(_ event: InputEvent) throws(Errno) {
        try device.write(type: event.type, code: event.code, value: event.value)
    }
}
