import Foundation
import MapCore
import MapTestSupport
import Testing

/// `Double.decimalText(maximumFractionDigits:)` against C's printf (`%.Nf` through
/// `String(format:)`), the reference it promises to match, trailing zeros dropped.
struct DecimalTextTests {
    /// printf's text with trailing zeros (and a bare point) dropped, and "-0" as "0".
    private func printfText(_ value: Double, places: Int) -> String {
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    @Test func randomCoordinatesMatchPrintf() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<100_000 {
            let value = Double.random(in: -180...180, using: &random)
            for places in [0, 1, 3, 6, 7, 9] {
                #expect(decimal(value, places) == printfText(value, places: places), "\(value) to \(places) places")
            }
        }
    }

    @Test func tiesShortDecimalsAndEdgesMatchPrintf() {
        // Exact binary ties, values whose products land near a tie, short decimals with binary
        // noise, tiny and large magnitudes, and more places than the integer path takes.
        let values: [Double] = [
            0.5, 1.5, 2.5, -0.5, 0.125, 0.375, 2.675, 1.005, 37.810599999999994, -122.41940000000001,
            1e-8, -1e-8, 0.00000005, -0.00000005, 0.0000001, 179.99999995, -179.99999995, 90, -90, 0, -0.0,
            123_456.789, 99_999.999_999_95, 1e11, 1e12, 1e15, 1e300, 4.35, 0.045, 1e-320,
        ]
        for value in values {
            for places in [0, 1, 2, 3, 7, 9, 12] {
                #expect(decimal(value, places) == printfText(value, places: places), "\(value) to \(places) places")
            }
        }
        #expect(decimal(.infinity, 7) == "inf")
        #expect(decimal(37.810599999999994, 7) == "37.8106")
        #expect(decimal(-1e-8, 7) == "0")
    }

    private func decimal(_ value: Double, _ places: Int) -> String {
        value.decimalText(maximumFractionDigits: places)
    }
}
