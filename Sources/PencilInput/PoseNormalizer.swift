import PencilProtocol
// The trigonometry alone, not the rest of Glibc: this module makes no system call.
#if canImport(Glibc)
import func Glibc.tan
import func Glibc.atan
import func Glibc.atan2
#endif

/// The raw values of the axes a pose is made of, as the device last reported them.
/// Named fields rather than an array so that copying a frame's state never allocates.
struct RawAxes: Equatable {
    var x: Int32 = 0
    var y: Int32 = 0
    var z: Int32 = 0
    var wheel: Int32 = 0
    var throttle: Int32 = 0
    var pressure: Int32 = 0
    var distance: Int32 = 0
    var tiltX: Int32 = 0
    var tiltY: Int32 = 0
    var misc: Int32 = 0

    /// Stores `value` for `code`; false for an axis a pose does not use.
    mutating func set(_ code: UInt16, _ value: Int32) -> Bool {
        switch code {
        case EventCode.ABS_X: x = value
        case EventCode.ABS_Y: y = value
        case EventCode.ABS_Z: z = value
        case EventCode.ABS_WHEEL: wheel = value
        case EventCode.ABS_THROTTLE: throttle = value
        case EventCode.ABS_PRESSURE: pressure = value
        case EventCode.ABS_DISTANCE: distance = value
        case EventCode.ABS_TILT_X: tiltX = value
        case EventCode.ABS_TILT_Y: tiltY = value
        case EventCode.ABS_MISC: misc = value
        default: return false
        }
        return true
    }
}

/// One axis's range, ready for arithmetic.
struct AxisScale: Sendable {
    let minimum: Double
    let range: Double
    /// Units per millimetre (X, Y) or per radian (tilt); 0 when unknown.
    let resolution: Double

    init?(_ info: AbsInfo?) {
        guard let info else { return nil }
        minimum = Double(info.minimum)
        range = Double(info.maximum) - Double(info.minimum)
        resolution = Double(info.resolution)
    }

    /// 0...1 across the axis's range (out-of-range values are held at the ends).
    func unit(_ value: Int32) -> Double {
        guard range > 0 else { return 0 }
        return min(max((Double(value) - minimum) / range, 0), 1)
    }

    func millimetres(_ value: Int32) -> Double? {
        guard resolution > 0, range > 0 else { return nil }
        return min(max(Double(value) - minimum, 0), range) / resolution
    }

    /// Degrees: through the resolution (units per radian) when the range straddles zero,
    /// otherwise the range mapped onto ±64° as libinput does; held within ±90°.
    func degrees(_ value: Int32) -> Double {
        let result: Double
        if resolution > 0, minimum < 0, minimum + range > 0 {
            result = Double(value) / resolution * 180 / Double.pi
        } else if range > 0 {
            result = ((Double(value) - minimum) / range * 2 - 1) * 64
        } else {
            result = 0
        }
        return min(max(result, -90), 90)
    }
}

/// The angles of the last tilt pair, so that frames that do not move the tilt (most of a
/// stroke on most pens) skip the trigonometry: the same raw values give the same angles.
struct TiltMemo: Sendable {
    var rawX: Int32 = 0
    var rawY: Int32 = 0
    var azimuth = 0.0
    var altitude = Double.pi / 2
    var valid = false
}

/// Turns raw axis values into the protocol's Pose (docs/gestures.md, "Pose"). Built once per device.
struct PoseNormalizer: Sendable {
    let x: AxisScale?
    let y: AxisScale?
    let pressure: AxisScale?
    let distance: AxisScale?
    let tiltX: AxisScale?
    let tiltY: AxisScale?
    let rotation: AxisScale?
    let slider: AxisScale?
    let wheel: AxisScale?

    init(_ description: DeviceDescription) {
        func scale(_ code: UInt16) -> AxisScale? {
            description.hasAbs(code) ? AxisScale(description.absInfo[code]) : nil
        }
        x = scale(EventCode.ABS_X)
        y = scale(EventCode.ABS_Y)
        pressure = scale(EventCode.ABS_PRESSURE)
        distance = scale(EventCode.ABS_DISTANCE)
        let tx = scale(EventCode.ABS_TILT_X)
        let ty = scale(EventCode.ABS_TILT_Y)
        // Tilt is a pair: one axis alone cannot give azimuth and altitude.
        tiltX = ty == nil ? nil : tx
        tiltY = tx == nil ? nil : ty
        rotation = scale(EventCode.ABS_Z)
        slider = scale(EventCode.ABS_WHEEL)
        wheel = scale(EventCode.ABS_THROTTLE)
    }

    /// The pose for `axes` held by `tool`; pressure is 0 unless the tip is down.
    func pose(_ axes: RawAxes, tool: Tool, tipDown: Bool) -> Pose {
        var memo = TiltMemo()
        return pose(axes, tool: tool, tipDown: tipDown, memo: &memo)
    }

    /// As `pose(_:tool:tipDown:)`, reusing the azimuth and altitude of the last tilt pair when
    /// the raw tilt has not changed.
    func pose(_ axes: RawAxes, tool: Tool, tipDown: Bool, memo: inout TiltMemo) -> Pose {
        var pose = Pose()
        if let x {
            pose.x = x.unit(axes.x)
            pose.xMillimeters = x.millimetres(axes.x)
        }
        if let y {
            pose.y = y.unit(axes.y)
            pose.yMillimeters = y.millimetres(axes.y)
        }
        if tipDown, let pressure { pose.pressure = pressure.unit(axes.pressure) }
        if let distance { pose.zOffset = distance.unit(axes.distance) }
        if let tiltX, let tiltY {
            let degreesX = tiltX.degrees(axes.tiltX)
            let degreesY = tiltY.degrees(axes.tiltY)
            pose.tiltX = degreesX
            pose.tiltY = degreesY
            if !memo.valid || memo.rawX != axes.tiltX || memo.rawY != axes.tiltY {
                (memo.azimuth, memo.altitude) = Self.azimuthAltitude(tiltX: degreesX, tiltY: degreesY)
                memo.rawX = axes.tiltX
                memo.rawY = axes.tiltY
                memo.valid = true
            }
            pose.azimuth = memo.azimuth
            pose.altitude = memo.altitude
        }
        if let rotation, Self.isArtPen(tool) {
            // The Art Pen's barrel rotation: the axis's whole range is one turn.
            pose.roll = rotation.unit(axes.z) * 2 * Double.pi
        }
        if let slider, tool.type == .airbrush { pose.slider = slider.unit(axes.wheel) }
        if let wheel, tool.type == .mouse || tool.type == .lens {
            pose.wheel = wheel.unit(axes.throttle) * 2 - 1
        }
        return pose
    }

    /// Wacom's Art Pen and its eraser end, by the low bits of the tool id.
    static func isArtPen(_ tool: Tool) -> Bool {
        let kind = tool.id & 0xFFF
        return kind == 0x804 || kind == 0x80C
    }

    /// The W3C Pointer Events conversion from tilt (degrees) to azimuth and altitude (radians).
    static func azimuthAltitude(tiltX: Double, tiltY: Double) -> (azimuth: Double, altitude: Double) {
        let halfPi = Double.pi / 2
        if tiltX == 0 && tiltY == 0 { return (0, halfPi) }
        if abs(tiltX) >= 90 || abs(tiltY) >= 90 {
            // Lying flat: the altitude is 0; azimuth follows the one axis that is not flat.
            if tiltX == 0 { return (tiltY > 0 ? halfPi : 3 * halfPi, 0) }
            if tiltY == 0 { return (tiltX < 0 ? Double.pi : 0, 0) }
            return (0, 0)
        }
        let radiansX = tiltX * Double.pi / 180
        let radiansY = tiltY * Double.pi / 180
        if tiltX == 0 { return (tiltY > 0 ? halfPi : 3 * halfPi, halfPi - abs(radiansY)) }
        if tiltY == 0 { return (tiltX < 0 ? Double.pi : 0, halfPi - abs(radiansX)) }
        let tanX = tan(radiansX)
        let tanY = tan(radiansY)
        var azimuth = atan2(tanY, tanX)
        if azimuth < 0 { azimuth += 2 * Double.pi }
        let altitude = atan(1 / (tanX * tanX + tanY * tanY).squareRoot())
        return (azimuth, altitude)
    }
}
