import PencilClient
import PencilProtocol
import PencilSystem

/// Draws a WatchModel as lines of text that fit the terminal: a pure function, so that
/// tests can look at the picture.
enum WatchScreen {
    static let infoRows = 8

    static func render(_ model: WatchModel, size: Terminal.Size) -> [String] {
        let columns = max(size.columns, 40)
        var lines: [String] = []
        let keys = model.demoPen == nil ? "q quits, c clears" : "q quits, c clears, d double-tap, s squeeze"
        // The keys first: a long socket path is what the terminal's width cuts.
        lines.append(fit("pencilctl watch  (\(keys))  \(model.socketPath)", columns))
        if let id = model.device, let info = model.devices[id] {
            // A double-tap pencild performed: apps see the tip as the eraser.
            let switched = info.tipReportedAs == .eraser ? "  (tip: eraser in every app)" : ""
            lines.append(fit("\(id)  \(info.name)\(switched)", columns))
        } else if model.devices.isEmpty, let departed = model.departed {
            lines.append(fit("\(departed.id)  \(departed.name)  (gone: waiting for a pen)", columns))
        } else if model.devices.isEmpty {
            lines.append(fit("no pen device yet: waiting for one", columns))
        } else {
            lines.append(fit(model.devices.keys.sorted().joined(separator: ", "), columns))
        }
        let canvasRows = max(size.rows - lines.count - 2 - infoRows, 3)
        let info = model.device.flatMap { model.devices[$0] }
        let (width, height) = canvasSize(columns: columns - 2, rows: canvasRows, info: info)
        lines.append("+" + String(repeating: "-", count: width) + "+")
        for row in canvas(model, width: width, height: height) {
            lines.append("|" + row + "|")
        }
        lines.append("+" + String(repeating: "-", count: width) + "+")
        lines += infoLines(model, columns: columns)
        return lines
    }

    /// The largest canvas that fits and keeps the tablet's proportions, a character cell
    /// being about twice as high as wide.
    static func canvasSize(columns: Int, rows: Int, info: DeviceInfo?) -> (Int, Int) {
        guard let info, let width = info.widthMillimeters, let height = info.heightMillimeters, width > 0, height > 0 else {
            return (max(columns, 1), max(rows, 1))
        }
        // Columns per row that draw the tablet's shape.
        let aspect = width / height * 2
        var canvasWidth = columns
        var canvasHeight = Int((Double(canvasWidth) / aspect).rounded())
        if canvasHeight > rows {
            canvasHeight = rows
            canvasWidth = min(columns, Int((Double(rows) * aspect).rounded()))
        }
        return (max(canvasWidth, 1), max(canvasHeight, 1))
    }

    static func canvas(_ model: WatchModel, width: Int, height: Int) -> [String] {
        var grid = [[Character]](repeating: [Character](repeating: " ", count: width), count: height)
        func cell(_ x: Double, _ y: Double) -> (Int, Int) {
            let column = min(max(Int(x * Double(width)), 0), width - 1)
            let row = min(max(Int(y * Double(height)), 0), height - 1)
            return (column, row)
        }
        for mark in model.marks {
            let (column, row) = cell(mark.x, mark.y)
            let ink: Character = mark.pressure < 0.33 ? "." : mark.pressure < 0.66 ? "+" : "#"
            if grid[row][column] == " " || ink == "#" || (ink == "+" && grid[row][column] == ".") {
                grid[row][column] = ink
            }
        }
        if model.tool != nil {
            let (column, row) = cell(model.pose.x, model.pose.y)
            grid[row][column] = model.tipDown ? "@" : "O"
        }
        return grid.map { String($0) }
    }

    static func infoLines(_ model: WatchModel, columns: Int) -> [String] {
        let barWidth = max(columns - 22, 10)
        var lines: [String] = []
        if let tool = model.tool {
            var state = model.tipDown ? "touching" : "hovering"
            if model.squeezing { state += ", squeezing" }
            let buttons = model.buttons.isEmpty ? "none" : model.buttons.map(\.rawValue).joined(separator: " ")
            let name = model.stylus.map { "  \"" + $0.name + "\"" } ?? ""
            lines.append("tool      \(EventFormatter.toolName(tool))\(name)  \(state)  buttons: \(buttons)")
        } else {
            lines.append("tool      out of proximity")
        }
        let pose = model.pose
        var position = "position  x \(EventFormatter.fixed(pose.x, 3))  y \(EventFormatter.fixed(pose.y, 3))"
        if let x = pose.xMillimeters, let y = pose.yMillimeters {
            position += "  (\(EventFormatter.fixed(x, 1)) mm, \(EventFormatter.fixed(y, 1)) mm)"
        }
        lines.append(position)
        lines.append("pressure  " + bar(pose.pressure, from: 0, to: 1, width: barWidth) + " " + EventFormatter.fixed(pose.pressure, 2))
        if let z = pose.zOffset {
            lines.append("zOffset   " + bar(z, from: 0, to: 1, width: barWidth) + " " + EventFormatter.fixed(z, 2))
        } else {
            lines.append("zOffset   (no distance axis)")
        }
        if let x = pose.tiltX, let y = pose.tiltY {
            lines.append("tilt x    " + bar(x, from: -90, to: 90, width: barWidth) + " " + EventFormatter.signed(x, 1) + "°")
            lines.append("tilt y    " + bar(y, from: -90, to: 90, width: barWidth) + " " + EventFormatter.signed(y, 1) + "°")
        } else {
            lines.append("tilt      (no tilt axes)")
            lines.append("")
        }
        if let gesture = model.gesture {
            let time = EventFormatter.seconds(model.gestureTime - (model.origin ?? model.gestureTime))
            lines.append("gesture   \(gesture)  at \(time)")
        } else {
            if model.demoPen != nil {
                lines.append("gesture   none yet: press d and the demo pen double-taps, s and it squeezes")
            } else {
                lines.append("gesture   none yet: double-click the first barrel button, or hold the second")
            }
        }
        lines.append("status    " + (model.status ?? "connected"))
        return lines.map { fit($0, columns) }
    }

    /// A bar filled in proportion to `value`. A range that straddles zero has a `|` at zero
    /// and fills towards the value's side, in proportion to that side's length.
    static func bar(_ value: Double, from low: Double, to high: Double, width: Int) -> String {
        let inner = max(width - 2, 1)
        let clamped = min(max(value, low), high)
        var cells = [Character](repeating: ".", count: inner)
        if low < 0, high > 0 {
            let zero = min(Int((-low / (high - low) * Double(inner)).rounded()), inner - 1)
            cells[zero] = "|"
            if clamped > 0 {
                let count = Int((clamped / high * Double(inner - 1 - zero)).rounded())
                for index in (zero + 1)..<(zero + 1 + count) { cells[index] = "#" }
            } else if clamped < 0 {
                let count = Int((clamped / low * Double(zero)).rounded())
                for index in (zero - count)..<zero { cells[index] = "#" }
            }
        } else {
            let count = Int(((clamped - low) / (high - low) * Double(inner)).rounded())
            for index in 0..<min(count, inner) { cells[index] = "#" }
        }
        return "[" + String(cells) + "]"
    }

    /// `text` with its control characters escaped (names and ids are the daemon's and the
    /// devices' text), cut to the terminal's width.
    static func fit(_ text: String, _ columns: Int) -> String {
        let text = text.escapedForTerminal
        return text.count <= columns ? text : String(text.prefix(columns))
    }
}
