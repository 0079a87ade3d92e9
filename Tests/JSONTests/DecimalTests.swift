import Foundation
import JSON
import PencilTestSupport
import Testing

/// `JSONWriter.decimal(_:places:)` against printf, which rounds the exact binary value
/// correctly (ties to even): the reference is `%.Nf` with trailing zeros (and a bare point)
/// dropped and `-0` written as `0`.
@Suite("Decimals on the wire")
struct DecimalTests {
    static func written(_ value: Double, places: Int) -> String {
        var writer = JSONWriter()
        writer.decimal(value, places: places)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func reference(_ value: Double, places: Int) -> String {
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if text == "-0" { text = "0" }
        return text
    }

    /// The contract's ranges and decimals (docs/protocol.md, "Numbers on the wire").
    static let ranges: [(name: String, range: ClosedRange<Double>, places: Int)] = [
        ("values from 0 to 1", 0...1, 6),
        ("millimetres", -2000...2000, 3),
        ("large millimetres", -5e9...5e9, 3),
        ("degrees", -90...90, 2),
        ("radians", -7...7, 5),
    ]

    @Test("random values read back as the value rounded to the range's decimals, never with an exponent",
          arguments: ranges.indices)
    func randomValuesRoundCorrectly(_ index: Int) throws {
        let (name, range, places) = Self.ranges[index]
        var random = SplitMix64(seed: 0x5EED_0000 + UInt64(index))
        for _ in 0..<20_000 {
            let value = Double.random(in: range, using: &random)
            let text = Self.written(value, places: places)
            #expect(text == Self.reference(value, places: places), "\(name): \(value) (seed \(0x5EED_0000 + index))")
            #expect(!text.contains("e") && !text.contains("E"), "\(value) written as \(text)")
            let fraction = text.split(separator: ".").dropFirst().first ?? ""
            #expect(fraction.count <= places && !fraction.hasSuffix("0"), "\(value) written as \(text)")
            let read = try JSONReader.parse(text).doubleValue
            #expect(read == Double(Self.reference(value, places: places)), "\(value) read back as \(String(describing: read))")
        }
    }

    /// The fraction's digits are made eight at a time when the integer part has at most twelve
    /// digits and there are at most eight decimals, one digit at a time otherwise: both sides of
    /// each bound, at every number of decimals.
    @Test("every number of decimals, with integer parts on both sides of twelve digits")
    func bothWaysOfWritingDigits() {
        var random = SplitMix64(seed: 7)
        for places in 0...JSONWriter.maximumPlaces {
            for digits in [1, 2, 8, 9, 11, 12, 13] {
                let whole = pow(10, Double(digits - 1))
                for _ in 0..<200 {
                    let value = whole * Double.random(in: 1..<9.9, using: &random) * (Bool.random(using: &random) ? 1 : -1)
                    guard value.magnitude < JSONWriter.largestMagnitude(places: places) else { continue }
                    #expect(Self.written(value, places: places) == Self.reference(value, places: places), "\(value) at \(places) decimals")
                }
            }
        }
    }

    @Test("values on and around a half of the last decimal")
    func valuesNearHalves() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            let places = Int.random(in: 0...6, using: &random)
            let scale = pow(10, Double(places))
            let half = (Double(Int.random(in: 0...2_000_000, using: &random)) + 0.5) / scale
            for value in [half, half.nextUp, half.nextDown, -half] {
                #expect(Self.written(value, places: places) == Self.reference(value, places: places), "\(value) at \(places)")
            }
        }
    }

    @Test("edge cases")
    func edgeCases() {
        #expect(Self.written(-0.0, places: 6) == "0")
        #expect(Self.written(-0.0000001, places: 6) == "0", "rounds to zero: no minus sign")
        #expect(Self.written(0.9999995, places: 6) == "1", "0.9999995 is just above the half in binary")
        #expect(Self.written(5e-7, places: 6) == "0", "5e-7 is just below the half in binary")
        #expect(Self.written(1, places: 6) == "1")
        #expect(Self.written(0.5, places: 6) == "0.5")
        #expect(Self.written(0.000001, places: 6) == "0.000001")
        #expect(Self.written(1e-300, places: 6) == "0")
        #expect(Self.written(-12.345, places: 2) == Self.reference(-12.345, places: 2))
        #expect(Self.written(123_456_789.123_456, places: 3) == "123456789.123")
        #expect(Self.written(4_503_599_627_370_497, places: 0) == "4503599627370497")
        #expect(Self.written(2.5, places: 0) == "2", "an exact tie goes to the even neighbour, as printf does")
        #expect(Self.written(3.5, places: 0) == "4")
    }

    @Test("not-a-number and infinities never reach the text")
    func nonFinite() throws {
        #expect(Self.written(.nan, places: 6) == "0")
        let largest = JSONWriter.largestMagnitude(places: 3)
        #expect(try JSONReader.parse(Self.written(.infinity, places: 3)).doubleValue == largest)
        #expect(try JSONReader.parse(Self.written(-.infinity, places: 3)).doubleValue == -largest)
        #expect(try JSONReader.parse(Self.written(1e300, places: 3)).doubleValue == largest)
        #expect(!Self.written(.infinity, places: 6).contains("e"))
    }

    @Test("decimals in a container are separated like any value")
    func inContainers() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("a"); writer.decimal(0.25, places: 6)
        writer.key("b"); writer.beginArray(); writer.decimal(1.5, places: 2); writer.decimal(-2, places: 2); writer.endArray()
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a":0.25,"b":[1.5,-2]}"#)
    }
}
