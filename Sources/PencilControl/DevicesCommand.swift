import CommandLineOptions
import PencilClient
import PencilProtocol
import Varlink

/// `pencilctl devices [--json]`: the pen devices pencild has now (ListDevices).
public enum DevicesCommand: PencilCommand {
    public static let name = "devices"
    public static let summary = "list the pen devices pencild reads"

    struct Options: Equatable {
        var json = false
    }

    static let parser = OptionParser<Options>(command: "pencilctl devices", options: [
        .flag("--json", help: ["each device as the protocol's JSON, one a line"]) { $0.json = true },
    ])

    public static func run(arguments: [String], io: CommandIO) -> Int32 {
        guard let options = parsed(arguments, into: Options(), io: io) else { return ExitCode.usage }
        let path = DaemonSocket.path()
        let reply: JSONValue
        do {
            reply = try DaemonCall.call(PenInterface.Method.listDevices.qualifiedName, path: path)
        } catch {
            io.errors.line("pencilctl: " + DaemonSocket.explain(error, path: path))
            return ExitCode.unavailable
        }
        guard let list = reply["devices"]?.arrayValue else {
            io.errors.line("pencilctl devices: pencild's reply has no device list: \(reply.jsonText)")
            return ExitCode.software
        }
        if options.json {
            for device in list { io.output.rawLine(device.jsonText) }
            return ExitCode.success
        }
        if list.isEmpty {
            io.output.line("no pen devices (see docs/troubleshooting.md, if one is plugged in)")
            return ExitCode.success
        }
        for json in list {
            guard let device = try? DeviceInfo(json: json) else {
                io.errors.line("pencilctl devices: a device pencild describes badly: \(json.jsonText)")
                continue
            }
            io.output.write(describe(device))
        }
        return ExitCode.success
    }

    static func describe(_ device: DeviceInfo) -> String {
        var lines = [device.id.escapedForTerminal.rightPadded(to: 10) + device.name.escapedForTerminal]
        if let model = device.model {
            lines.append(String(repeating: " ", count: 10) + "model: " + model.escapedForTerminal)
        }
        var facts = [busName(device.bus) + " " + hex4(device.vendor) + ":" + hex4(device.product)]
        if let width = device.widthMillimeters, let height = device.heightMillimeters {
            facts.append(EventFormatter.fixed(width, 1) + " × " + EventFormatter.fixed(height, 1) + " mm")
        }
        facts.append(device.direct ? "display tablet" : "tablet")
        lines.append(String(repeating: " ", count: 10) + facts.joined(separator: ", "))
        var capabilities = ["tools: " + list(device.tools.map(\.rawValue))]
        capabilities.append("axes: " + list(device.axes.map(\.rawValue)))
        capabilities.append("buttons: " + list(device.buttons.map(\.rawValue)))
        lines.append(String(repeating: " ", count: 10) + capabilities.joined(separator: "  "))
        for stylus in device.styli {
            lines.append(String(repeating: " ", count: 10) + "stylus: " + stylus.name.escapedForTerminal
                         + " (\(stylus.kind.rawValue), \(stylus.buttons) button\(stylus.buttons == 1 ? "" : "s"), eraser: \(stylus.eraser.rawValue))")
        }
        if let mirror = device.mirror {
            lines.append(String(repeating: " ", count: 10) + "mirror: " + mirror.escapedForTerminal + " (gesture clicks withheld: apps read the mirror)")
            if device.tipReportedAs == .eraser {
                lines.append(String(repeating: " ", count: 10) + "tip: eraser (a double-tap switched the pen to its eraser in every app)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func list(_ names: [String]) -> String { names.isEmpty ? "none" : names.joined(separator: " ") }

    static func busName(_ bus: Int) -> String {
        switch bus {
        case 0x03: return "usb"
        case 0x05: return "bluetooth"
        case 0x06: return "virtual"
        case 0x11: return "i8042"
        case 0x18: return "i2c"
        case 0x19: return "host"
        case 0x1c: return "spi"
        default: return "bus " + hex4(bus)
        }
    }

    static func hex4(_ value: Int) -> String { String(value, radix: 16).leftPadded(to: 4, with: "0") }
}
