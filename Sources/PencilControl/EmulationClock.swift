import PencilClient
import PencilDevices
import PencilInput
import PencilProtocol
import PencilSystem

/// What emulation reads and waits on: CLOCK_MONOTONIC (µs), or a scripted clock in tests.
protocol EmulationClock {
    func now() -> Int64
    func sleep(until deadline: Int64)
}

struct SystemEmulationClock: EmulationClock {
    func now() -> Int64 { MonotonicClock.now() }
    func sleep(until deadline: Int64) { MonotonicClock.sleep(until: deadline) }
}
