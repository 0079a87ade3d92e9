import Foundation
import PencilInput
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing
import Varlink

/// Writes a device and its events as evemu-record would (header and `E:` lines), so that a
/// test can hand pencild and pencilctl the same small recording.
enum EvemuText {
    static func recording(_ device: DeviceDescription, _ events: [InputEvent]) -> String {
        var lines: [String] = []
        lines.append("N: \(device.name)")
        lines.append("I: \(hex(device.bus, 4)) \(hex(device.vendor, 4)) \(hex(device.product, 4)) \(hex(device.version, 4))")
        lines += bitmaskLines(prefix: "P:", bits: Set(device.properties), minimumBytes: 8)
        let types = Set(device.codes.filter { !$0.value.isEmpty }.keys).union([EventCode.EV_SYN])
        lines += bitmaskLines(prefix: "B: 00", bits: types, minimumBytes: 8)
        for type in device.codes.keys.sorted() where type != EventCode.EV_SYN {
            lines += bitmaskLines(prefix: "B: \(hex(Int(type), 2))", bits: device.codes[type] ?? [], minimumBytes: 8)
        }
        for code in device.absInfo.keys.sorted() where device.hasAbs(code) {
            let info = device.absInfo[code]!
            lines.append("A: \(hex(Int(code), 2)) \(info.minimum) \(info.maximum) \(info.fuzz) \(info.flat) \(info.resolution)")
        }
        for event in events {
            let seconds = event.time / 1_000_000, micros = event.time % 1_000_000
            let fraction = String(micros).leftPadded(to: 6)
            lines.append("E: \(seconds).\(fraction) \(hex(Int(event.type), 4)) \(hex(Int(event.code), 4)) \(event.value)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func hex(_ value: Int, _ width: Int) -> String {
        String(String(value, radix: 16).leftPadded(to: width, with: "0").suffix(width))
    }

    /// Lines of 8 bytes each, as evemu writes a bitmask.
    private static func bitmaskLines(prefix: String, bits: Set<UInt16>, minimumBytes: Int) -> [String] {
        let byteCount = max(minimumBytes, ((Int(bits.max() ?? 0) / 8) / 8 + 1) * 8)
        var bytes = [UInt8](repeating: 0, count: byteCount)
        for bit in bits { bytes[Int(bit) / 8] |= 1 << (bit % 8) }
        return stride(from: 0, to: byteCount, by: 8).map { start in
            prefix + " " + bytes[start..<start + 8].map { hex(Int($0), 2) }.joined(separator: " ")
        }
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}

/// A person's few seconds with an Intuos5 pen: hover, a stroke, a double-click of the lower
/// button, a squeeze of the upper one, a long hold of the lower one, a still hover long enough
/// for the forced proximity-out, and leaving. Enough for every timer and gesture.
func penSession(strokeMs: Int = 300) -> (device: DeviceDescription, events: [InputEvent]) {
    var pen = PenScript(device: TestDevice.intuos5Pen.description)
    pen.approach(x: 0.3, y: 0.3)
    pen.move(toX: 0.35, y: 0.32, overMs: 100, steps: 10)
    pen.wait(ms: 10)
    pen.touchDown(pressure: 0.4)
    pen.move(toX: 0.5, y: 0.4, overMs: strokeMs, steps: max(strokeMs / 10, 1))
    pen.wait(ms: 10)
    pen.lift()
    pen.wait(ms: 20)
    pen.click(.stylus, holdingMs: 60)
    pen.wait(ms: 100)
    pen.click(.stylus, holdingMs: 60)
    pen.wait(ms: 50)
    pen.press(.stylus2)
    pen.move(toX: 0.52, y: 0.41, overMs: 200, steps: 20)
    pen.wait(ms: 10)
    pen.release(.stylus2)
    pen.wait(ms: 30)
    pen.press(.stylus)
    pen.wait(ms: 700)
    pen.release(.stylus)
    pen.wait(ms: 20)
    pen.move(toX: 0.55, y: 0.45)
    pen.wait(ms: 700)
    pen.move(toX: 0.6, y: 0.5)
    pen.wait(ms: 20)
    pen.leave()
    return (pen.device, pen.events)
}

/// The event objects of a Monitor stream up to and including the device's deviceRemoved.
func monitorEvents(_ stream: inout VarlinkClient.ReplyStream, until device: String = "replay0") throws -> [JSONValue] {
    var events: [JSONValue] = []
    while let parameters = try stream.next() {
        let event = try #require(parameters["event"])
        events.append(event)
        if event["type"] == .string("deviceRemoved"), event["device"] == .string(device) { break }
    }
    return events
}

/// What `pencilctl events` prints for a recording, one JSON object per line.
func pencilctlEvents(_ recording: String, description: String? = nil, preferences: String? = nil) throws -> [JSONValue] {
    let binary = FileSystem.directoryName(of: RunningDaemon.binaryPath) + "/pencilctl"
    var arguments = ["events", recording]
    if let description { arguments += ["--desc", description] }
    if let preferences { arguments += ["--preferences", preferences] }
    let result = try runProgram(binary, arguments, timeout: 120)
    guard result.status == 0 else { throw HarnessError("pencilctl events exited \(result.status): \(result.output.prefix(500))") }
    return try result.output.split(separator: "\n").map { line in try JSONReader.parse(String(line)) }
}

/// Where two event lists first differ, for a readable failure.
func firstDifference(_ left: [JSONValue], _ right: [JSONValue]) -> String? {
    for index in 0..<min(left.count, right.count) where left[index] != right[index] {
        return "event \(index): \(left[index].jsonText) vs \(right[index].jsonText)"
    }
    if left.count != right.count { return "\(left.count) events vs \(right.count)" }
    return nil
}

/// The event types of a list, for summaries.
func types(_ events: [JSONValue]) -> [String] { events.compactMap { $0["type"]?.stringValue } }
