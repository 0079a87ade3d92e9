/// Numbers in plain decimal, made with integer arithmetic straight into the writer's buffer.
extension JSONWriter {
    /// The most decimals `decimal(_:places:)` writes.
    public static let maximumPlaces = 9

    /// The largest magnitude written at `places` decimals: beyond it (and for ±∞) the value is
    /// clamped, since its digits no longer fit the 63-bit integer the writer rounds into.
    /// At 6 decimals that is about 9.2 × 10¹²; no pen reports anything near it.
    public static func largestMagnitude(places: Int) -> Double {
        Double(Int64.max / Int64(powerOfTen(min(max(places, 0), maximumPlaces)))).rounded(.down)
    }

    /// Writes `value` correctly rounded to `places` decimals (0...9; ties to even, as printf
    /// rounds), in plain decimal with no exponent and trailing zeros dropped: `0.5`, `12`,
    /// `-3.25`. Zero is `0`, never `-0`. JSON has no NaN or infinity: NaN is written as `0`,
    /// and ±∞ and magnitudes beyond `largestMagnitude(places:)` as that bound with their sign.
    public mutating func decimal(_ value: Double, places: Int) {
        let comma = takeComma()
        let places = min(max(places, 0), Self.maximumPlaces)
        let (units, negative) = Self.scaledUnits(value, places: places)
        append(Number(comma: comma, units: units, fractionDigits: places, negative: negative))
    }

    @inline(__always)
    static func powerOfTen(_ exponent: Int) -> UInt64 {
        var power: UInt64 = 1
        for _ in 0..<exponent { power &*= 10 }
        return power
    }

    /// |value| × 10^places, correctly rounded to an integer, and the sign.
    ///
    /// The product is rounded once by the multiplication; its exact error comes from a fused
    /// multiply-add, and decides the cases where that rounding lands on (or moves the product
    /// across) a half: 5e-7 × 10⁶ is 0.5 in doubles but just below it in truth, so it rounds
    /// to 0 where 0.9999995 (just above …9995 in binary) rounds up to 1.
    static func scaledUnits(_ value: Double, places: Int) -> (units: UInt64, negative: Bool) {
        let scale = Double(powerOfTen(places))
        let magnitude = value.magnitude
        guard !value.isNaN else { return (0, false) }
        let limit = largestMagnitude(places: places)
        guard magnitude <= limit else { return (UInt64(limit) * powerOfTen(places), value < 0) }
        let product = magnitude * scale
        let error = (-product).addingProduct(magnitude, scale) // exact: magnitude × scale − product
        var units: UInt64
        if product < 0x1p52 {
            // Below 2^52 every half is a double, so the product and the exact value lie on the
            // same side of any half except when the product is exactly on it.
            let whole = product.rounded(.down)
            let fraction = product - whole
            units = UInt64(whole)
            if fraction > 0.5 || (fraction == 0.5 && (error > 0 || (error == 0 && units & 1 == 1))) {
                units += 1
            }
        } else {
            // Every double this large is an integer: the exact value is product + error.
            units = UInt64(product)
            let down = error.rounded(.down)
            let fraction = error - down
            var adjustment = Int64(down)
            if fraction > 0.5 || (fraction == 0.5 && (units &+ UInt64(bitPattern: adjustment)) & 1 == 1) {
                adjustment += 1
            }
            units = units &+ UInt64(bitPattern: adjustment)
        }
        return (units, value < 0 && units != 0)
    }

    /// Writes `units` / 10^fractionDigits in decimal at `out`, the fraction's trailing zeros
    /// dropped (and the point with them); returns the bytes written (at most 22).
    ///
    /// One pass right to left: the integer part's length comes from comparisons, the
    /// fraction's digits are written whole and its trailing zeros then cut off.
    @inline(__always)
    static func writeDecimal(units: UInt64, fractionDigits: Int, negative: Bool, at out: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 0
        if negative && units != 0 {
            out[0] = UInt8(ascii: "-")
            count = 1
        }
        var remaining = units
        var integer = units
        var fraction: UInt64 = 0
        if fractionDigits > 0 {
            let scale = powerOfTen(fractionDigits)
            integer = units / scale
            fraction = units - integer * scale
        }
        var length = 1
        var bound: UInt64 = 10
        while length < 20, integer >= bound {
            length += 1
            bound &*= 10
        }
        if fraction == 0 {
            remaining = integer
        } else {
            // The fraction, zero-padded to its width, after the point.
            let end = count + length + 1 + fractionDigits
            var index = end
            remaining = fraction
            for _ in 0..<fractionDigits {
                index -= 1
                out[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining % 10)
                remaining /= 10
            }
            out[index - 1] = UInt8(ascii: ".")
            remaining = integer
            var trimmed = end
            while out[trimmed - 1] == UInt8(ascii: "0") { trimmed -= 1 }
            writeDigits(integer, length: length, at: out + count)
            return trimmed
        }
        writeDigits(remaining, length: length, at: out + count)
        return count + length
    }

    /// Writes the `length` decimal digits of `value` at `out`.
    @inline(__always)
    static func writeDigits(_ value: UInt64, length: Int, at out: UnsafeMutablePointer<UInt8>) {
        var remaining = value
        var index = length
        repeat {
            index -= 1
            out[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
        } while index > 0
    }
}
