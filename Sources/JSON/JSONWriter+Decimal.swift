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
        separate()
        let places = min(max(places, 0), Self.maximumPlaces)
        let (units, negative) = Self.scaledUnits(value, places: places)
        appendDigits(units, fractionDigits: places, negative: negative)
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

    /// Appends `units` / 10^fractionDigits in decimal, trailing zeros of the fraction dropped,
    /// in one append from digits made right to left on the stack.
    mutating func appendDigits(_ units: UInt64, fractionDigits: Int, negative: Bool) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { digits in
            var end = 32
            var remaining = units
            var fractionLeft = fractionDigits
            // Trailing zeros of the fraction are not written.
            while fractionLeft > 0, remaining % 10 == 0, remaining != 0 {
                remaining /= 10
                fractionLeft -= 1
            }
            if remaining == 0 { fractionLeft = 0 }
            if fractionLeft > 0 {
                for _ in 0..<fractionLeft {
                    end -= 1
                    digits[end] = UInt8(ascii: "0") + UInt8(remaining % 10)
                    remaining /= 10
                }
                end -= 1
                digits[end] = UInt8(ascii: ".")
            }
            repeat {
                end -= 1
                digits[end] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            } while remaining > 0
            if negative {
                end -= 1
                digits[end] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[end..<32]))
        }
    }
}
