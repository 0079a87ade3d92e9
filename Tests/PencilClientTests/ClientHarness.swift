import Foundation
import PencilClient
import PencilInput
import PencilProtocol
import PencilSystem
import PencilTestSupport
import Testing

/// A recording of a person's few seconds with a pen (hover, a stroke, a double-click, a
/// squeeze, a long hold), written to `directory`.
@discardableResult
func writePenSession(in directory: String) throws -> String {
    let session = penSession()
    let path = directory + "/session.events"
    try EvemuWriter.recording(session.device, session.events).write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// A recording that touches, holds the squeeze button (stylus2) and then waits a minute
/// before it lets go: at real-time speed the tip, the button and the squeeze stay open and the
/// daemon sends nothing more for that minute. Written to `directory`.
func writeHeldPen(in directory: String) throws -> String {
    var pen = PenScript(device: TestDevice.intuos5Pen.description)
    pen.approach(x: 0.3, y: 0.3)
    pen.move(toX: 0.32, y: 0.31, overMs: 50, steps: 5)
    pen.touchDown(pressure: 0.4)
    pen.move(toX: 0.4, y: 0.35, overMs: 50, steps: 5)
    pen.press(.stylus2)
    pen.wait(ms: 60_000)
    pen.release(.stylus2)
    pen.lift()
    pen.leave()
    let path = directory + "/held.events"
    try EvemuWriter.recording(pen.device, pen.events).write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// A pencild replaying `writePenSession`'s recording, with `arguments` added; the
/// recording's path is the daemon's directory + "/session.events".
func sessionDaemon(_ arguments: [String] = []) throws -> RunningDaemon {
    let directory = RunningDaemon.makeTemporaryDirectory()
    return try RunningDaemon(["--replay", try writePenSession(in: directory)] + arguments, directory: directory)
}

/// The events of `sequence` up to and including the `deviceRemoved` of `device`.
func collect(_ sequence: PencilEvents, until device: String = "replay0") async throws -> [PencilEvent] {
    var events: [PencilEvent] = []
    for try await event in sequence {
        events.append(event)
        if event.type == .deviceRemoved, event.device == device { break }
    }
    return events
}

/// The clients a daemon's log shows connected and not yet gone.
func openClients(in log: String) -> Int {
    let lines = log.split(separator: "\n")
    return lines.filter { $0.hasSuffix(" connected") }.count - lines.filter { $0.hasSuffix(" disconnected") }.count
}

/// Waits, polling with a bounded deadline, until `condition` holds.
func eventually(within seconds: Double = 30, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// How far a value read back may be from the offline pipeline's: half a unit of the wire's
/// last decimal (docs/protocol.md "Numbers on the wire"), with room for the double's own error.
enum WireTolerance {
    static let unit = 0.5e-6 * 1.001        // 6 decimals: x, y, pressure, zOffset, slider, wheel
    static let millimetres = 0.5e-3 * 1.001  // 3 decimals
    static let degrees = 0.5e-2 * 1.001      // 2 decimals: tilt
    static let radians = 0.5e-5 * 1.001      // 5 decimals: azimuth, altitude, roll
}

/// Where `received` (the client's event) differs from `expected` (the package's own event, as
/// the offline pipeline makes it), field by field; nil when they agree.
func difference(_ received: PencilEvent, _ expected: Event) -> String? {
    func close(_ a: Double?, _ b: Double?, _ tolerance: Double) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case let (a?, b?): return abs(a - b) <= tolerance
        default: return false
        }
    }
    if received.type.rawValue != expected.type.rawValue { return "type \(received.type) vs \(expected.type.rawValue)" }
    if received.time != expected.time { return "time \(received.time) vs \(expected.time)" }
    if received.device != expected.device { return "device \(received.device ?? "nil") vs \(expected.device ?? "nil")" }
    if received.button?.rawValue != expected.button?.rawValue { return "button" }
    if received.phase?.rawValue != expected.phase?.rawValue { return "phase" }
    if received.action?.rawValue != expected.action?.rawValue { return "action" }
    if received.focus?.rawValue != expected.focus?.rawValue { return "focus" }
    switch (received.tool, expected.tool) {
    case (nil, nil): break
    case let (tool?, other?):
        if tool.type.rawValue != other.type.rawValue || tool.serial != other.serial || tool.id != other.id { return "tool" }
    default: return "tool present on one side only"
    }
    switch (received.pose, expected.pose) {
    case (nil, nil): break
    case let (pose?, other?):
        let fields: [(String, Double?, Double?, Double)] = [
            ("x", pose.x, other.x, WireTolerance.unit), ("y", pose.y, other.y, WireTolerance.unit),
            ("xMillimeters", pose.xMillimeters, other.xMillimeters, WireTolerance.millimetres),
            ("yMillimeters", pose.yMillimeters, other.yMillimeters, WireTolerance.millimetres),
            ("pressure", pose.pressure, other.pressure, WireTolerance.unit),
            ("zOffset", pose.zOffset, other.zOffset, WireTolerance.unit),
            ("tiltX", pose.tiltX, other.tiltX, WireTolerance.degrees), ("tiltY", pose.tiltY, other.tiltY, WireTolerance.degrees),
            ("azimuth", pose.azimuth, other.azimuth, WireTolerance.radians),
            ("altitude", pose.altitude, other.altitude, WireTolerance.radians),
            ("roll", pose.roll, other.roll, WireTolerance.radians),
            ("slider", pose.slider, other.slider, WireTolerance.unit), ("wheel", pose.wheel, other.wheel, WireTolerance.unit),
        ]
        for (name, a, b, tolerance) in fields where !close(a, b, tolerance) {
            return "pose.\(name) \(a.map { "\($0)" } ?? "nil") vs \(b.map { "\($0)" } ?? "nil")"
        }
    default: return "pose present on one side only"
    }
    switch (received.deviceInfo, expected.deviceInfo) {
    case (nil, nil): break
    case let (info?, other?):
        if info.id != other.id || info.name != other.name || info.bus != other.bus || info.vendor != other.vendor
            || info.product != other.product || info.direct != other.direct {
            return "deviceInfo identity"
        }
        if info.tools.map(\.rawValue) != other.tools.map(\.rawValue) || info.axes.map(\.rawValue) != other.axes.map(\.rawValue)
            || info.buttons.map(\.rawValue) != other.buttons.map(\.rawValue) {
            return "deviceInfo capabilities"
        }
        if !close(info.widthMillimeters, other.widthMillimeters, WireTolerance.millimetres)
            || !close(info.heightMillimeters, other.heightMillimeters, WireTolerance.millimetres) {
            return "deviceInfo size"
        }
    default: return "deviceInfo present on one side only"
    }
    switch (received.preferences, expected.preferences) {
    case (nil, nil): break
    case let (preferences?, other?):
        var rounded = PencilPreferences(other)
        rounded.doubleTapSlop = preferences.doubleTapSlop
        if preferences != rounded || !close(preferences.doubleTapSlop, other.doubleTapSlop, WireTolerance.millimetres) {
            return "preferences"
        }
    default: return "preferences present on one side only"
    }
    return nil
}
