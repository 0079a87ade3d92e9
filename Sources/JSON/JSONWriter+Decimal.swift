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
        switch exponent {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1_000
        case 4: return 10_000
        case 5: return 100_000
        case 6: return 1_000_000
        case 7: return 10_000_000
        case 8: return 100_000_000
        default: return 1_000_000_000
        }
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
        let product = magnitude * scale
        // Past 2^63 units (and for ±∞) the value is clamped to the largest that fits.
        guard product < 0x1p63 else { return (UInt64(largestMagnitude(places: places)) * powerOfTen(places), value < 0) }
        // The exact error of the product, magnitude × scale − product; computed only where it
        // decides (a fused multiply-add is a library call on baseline x86-64).
        func error() -> Double { (-product).addingProduct(magnitude, scale) }
        var units: UInt64
        if product < 0x1p52 {
            // Below 2^52 every half is a double, so the product and the exact value lie on the
            // same side of any half except when the product is exactly on it. The conversion
            // truncates, which for a positive product is rounding down (through Int64: x86-64
            // converts to a signed integer in one instruction, to an unsigned one in several).
            units = UInt64(Int64(product))
            let fraction = product - Double(units)
            if fraction > 0.5 || (fraction == 0.5 && { let error = error(); return error > 0 || (error == 0 && units & 1 == 1) }()) {
                units += 1
            }
        } else {
            let error = error()
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
        if fraction != 0, fractionDigits <= 8, length <= 12 {
            // The fraction's digits all at once, padded to eight with zeros that are then cut
            // off with the trailing ones: one eight-byte store (sign, twelve digits, point and
            // eight stay within the 22 bytes this may write).
            let digits = eightDigits(fraction &* powerOfTen(8 - fractionDigits))
            writeDigits(integer, length: length, at: out + count)
            out[count + length] = UInt8(ascii: ".")
            UnsafeMutableRawPointer(out + count + length + 1).storeBytes(of: (digits | asciiZeros).littleEndian, as: UInt64.self)
            // The digits' last nonzero byte is the last digit written.
            return count + length + 1 + 8 - digits.leadingZeroBitCount / 8
        }
        if fraction == 0 {
            remaining = integer
        } else {
            // The fraction, zero-padded to its width, after the point.
            let end = count + length + 1 + fractionDigits
            writeDigits(fraction, length: fractionDigits, at: out + count + length + 1)
            out[count + length] = UInt8(ascii: ".")
            remaining = integer
            var trimmed = end
            while out[trimmed - 1] == UInt8(ascii: "0") { trimmed -= 1 }
            writeDigits(integer, length: length, at: out + count)
            return trimmed
        }
        writeDigits(remaining, length: length, at: out + count)
        return count + length
    }

    /// "0" in every byte.
    static let asciiZeros: UInt64 = 0x3030_3030_3030_3030

    /// The eight decimal digits of `value` (below 10⁸, zero-padded), one per byte, the first
    /// in the lowest byte (to be stored little-endian), as numbers 0...9: the value is split
    /// in halves, quarters and digits side by side in one register (each lane's product stays
    /// below the next lane, and the multiply-shifts divide exactly in these ranges).
    @inline(__always)
    static func eightDigits(_ value: UInt64) -> UInt64 {
        let high = value / 10_000
        var lanes = high | ((value &- high &* 10_000) << 32)
        let hundreds = ((lanes &* 5243) >> 19) & 0x0000_007F_0000_007F
        lanes = hundreds | ((lanes &- hundreds &* 100) << 16)
        let tens = ((lanes &* 103) >> 10) & 0x000F_000F_000F_000F
        return tens | ((lanes &- tens &* 10) << 8)
    }

    /// Writes the last `length` decimal digits of `value` at `out` (zero-padded), two at a time.
    @inline(__always)
    static func writeDigits(_ value: UInt64, length: Int, at out: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs.utf8Start
        var remaining = value
        var index = length
        while index >= 2 {
            let pair = Int(truncatingIfNeeded: remaining % 100)
            remaining /= 100
            index -= 2
            out[index] = pairs[2 * pair]
            out[index + 1] = pairs[2 * pair + 1]
        }
        if index == 1 {
            out[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: remaining % 10)
        }
    }

    /// "00" to "99", for two digits per division.
    @inline(__always)
    static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }
}
