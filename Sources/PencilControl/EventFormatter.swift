import PencilClient
import PencilProtocol
import PencilSystem
import Varlink

/// The readable form of events: one line each, times in seconds since the first event seen.
struct EventFormatter {
    private var origin: Int64?

    mutating func reset() { origin = nil }

    mutating func line(for event: Event) -> String {
        let start = origin ?? event.time
        origin = start
        var text = Self.seconds(event.time - start).leftPadded(to: 11) + "  "
        text += (event.device ?? "-").escapedForTerminal.rightPadded(to: 9) + " "
        var kind = event.type.rawValue
        if let phase = event.phase { kind += " " + phase.rawValue }
        text += kind.rightPadded(to: 16)
        text += Self.details(of: event)
        while text.last == " " { text.removeLast() }
        return text
    }

    static func details(of event: Event) -> String {
        var parts: [String] = []
        if let info = event.deviceInfo {
            parts.append("\"\(info.name.escapedForTerminal)\"")
            if let model = info.model { parts.append("(\(model.escapedForTerminal))") }
            parts.append("tools: " + info.tools.map(\.rawValue).joined(separator: ","))
            if !info.axes.isEmpty { parts.append("axes: " + info.axes.map(\.rawValue).joined(separator: ",")) }
            if !info.buttons.isEmpty { parts.append("buttons: " + info.buttons.map(\.rawValue).joined(separator: ",")) }
        }
        if let tool = event.tool { parts.append(toolName(tool)) }
        if let stylus = event.stylus { parts.append("\"\(stylus.name.escapedForTerminal)\"") }
        if let button = event.button { parts.append(button.rawValue) }
        if let action = event.action { parts.append("→ " + action.rawValue) }
        if let focus = event.focus { parts.append("focus: " + focus.rawValue) }
        if let pose = event.pose { parts.append(poseText(pose)) }
        if let preferences = event.preferences { parts.append(PrefsCommand.summary(of: preferences)) }
        return parts.joined(separator: "  ")
    }

    static func toolName(_ tool: Tool) -> String {
        tool.serial == 0 ? tool.type.rawValue : tool.type.rawValue + "#" + String(tool.serial, radix: 16)
    }

    static func poseText(_ pose: Pose) -> String {
        var parts = ["x \(fixed(pose.x, 3))", "y \(fixed(pose.y, 3))", "p \(fixed(pose.pressure, 3))"]
        if let z = pose.zOffset { parts.append("z \(fixed(z, 2))") }
        if let x = pose.tiltX, let y = pose.tiltY { parts.append("tilt \(signed(x, 1))/\(signed(y, 1))") }
        if let roll = pose.roll { parts.append("roll \(fixed(roll, 2))") }
        if let slider = pose.slider { parts.append("slider \(fixed(slider, 2))") }
        if let wheel = pose.wheel { parts.append("wheel \(signed(wheel, 2))") }
        return parts.joined(separator: " ")
    }

    static func seconds(_ microseconds: Int64) -> String {
        let sign = microseconds < 0 ? "-" : "+"
        let magnitude = microseconds.magnitude
        let fraction = String(magnitude % 1_000_000).leftPadded(to: 6, with: "0")
        return "\(sign)\(magnitude / 1_000_000).\(fraction)s"
    }

    /// `value` with `digits` decimals, without Foundation's formatters.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9.0e15 else { return "\(value)" }
        let whole = Int64(scaled)
        let integer = whole / Int64(scale)
        var text = (value < 0 && whole != 0 ? "-" : "") + String(integer)
        if digits > 0 { text += "." + String(whole % Int64(scale)).leftPadded(to: digits, with: "0") }
        return text
    }

    static func signed(_ value: Double, _ digits: Int) -> String {
        let text = fixed(value, digits)
        return text.hasPrefix("-") ? text : "+" + text
    }
}
