import Foundation
import Testing

@testable import MapStyle

/// Pin colours tell photographers apart: every two palette colours differ clearly, and the
/// photographers on one map get different colours.
struct PinPaletteTests {
    /// The repository's `Styles` directory.
    private static let stylesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Styles")

    /// The least CIEDE2000 difference between two palette colours: over 20, colours are told
    /// apart at a glance (the old palette's #ff3b30 and #ff2d55 were 10.3 apart).
    private static let minimumDifference = 20.0

    @Test func colourDifferenceMatchesSharmasReferenceValues() {
        // G. Sharma, W. Wu, E. N. Dalal (2005), "The CIEDE2000 color-difference formula", table 1.
        let pairs: [((Double, Double, Double), (Double, Double, Double), Double)] = [
            ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
            ((50, 0, 0), (50, -1, 2), 2.3669),
            ((50, 2.5, 0), (73, 25, -18), 27.1492),
            ((50, 2.5, 0), (50, 0, -2.5), 4.3065),
            ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ]
        for (first, second, expected) in pairs {
            #expect(abs(Lab(first).difference(to: Lab(second)) - expected) < 0.0001, "\(first) \(second)")
        }
        // sRGB white and a well-known red, by the standard D65 formulas.
        let white = Lab(hex: "#ffffff")
        let red = Lab(hex: "#ff0000")
        #expect(abs(white.l - 100) < 0.01 && abs(white.a) < 0.01 && abs(white.b) < 0.01)
        #expect(abs(red.l - 53.24) < 0.01 && abs(red.a - 80.09) < 0.01 && abs(red.b - 67.20) < 0.01)
    }

    @Test func everyTwoDefaultPaletteColoursAreClearlyDifferent() {
        expectClearlyDifferent(MapwrightMetadata.Pins().palette.map(\.hex), in: "the default palette")
    }

    @Test(arguments: ["dark", "hybrid", "muted", "satellite", "standard"])
    func everyTwoColoursOfAShippedStylesPaletteAreClearlyDifferent(name: String) throws {
        let style = try Style.named(name, in: Self.stylesDirectory).style
        #expect(style.mapwright.pins.palette.count >= 8)
        expectClearlyDifferent(style.mapwright.pins.palette.map(\.hex), in: name)
    }

    @Test func photographersOnOneMapGetDifferentColoursEvenWhenTheirHashesCollide() {
        let pins = MapwrightMetadata.Pins()
        // Each pair shares a hash slot: alone, they get the same colour.
        #expect(pins.color(forKey: "Dorothea Lange") == pins.color(forKey: "Berenice Abbott"))
        #expect(pins.color(forKey: "Fan Ho") == pins.color(forKey: "Garry Winogrand"))
        let photographers = ["Dorothea Lange", "Berenice Abbott", "Fan Ho", "Garry Winogrand", "", "Ansel Adams"]
        let colors = pins.colors(forKeys: photographers)
        #expect(Set(colors.values).count == photographers.count)
        #expect(Set(colors.keys) == Set(photographers))
        // The same set gets the same colours, in any order and with repeats.
        #expect(pins.colors(forKeys: photographers.reversed() + photographers) == colors)
        // The first of a colliding pair, in sorted order, keeps its own slot's colour.
        #expect(colors["Berenice Abbott"] == pins.color(forKey: "Berenice Abbott"))
        #expect(colors["Ansel Adams"] == pins.color(forKey: "Ansel Adams"))
    }

    @Test func moreKeysThanColoursUseEveryColourBeforeRepeatingOne() {
        var pins = MapwrightMetadata.Pins()
        pins.palette = Array(pins.palette.prefix(3))
        let keys = (1...7).map { "photographer \($0)" }
        let colors = pins.colors(forKeys: keys)
        let sorted = keys.sorted()
        #expect(Set(sorted.prefix(3).map { colors[$0]! }).count == 3)
        #expect(Set(sorted[3..<6].map { colors[$0]! }).count == 3)
        #expect(Set(colors.values) == Set(pins.palette))
        pins.palette = []
        #expect(pins.colors(forKeys: keys).values.allSatisfy { $0 == pins.defaultColor })
    }

    private func expectClearlyDifferent(_ hexes: [String], in name: String) {
        for i in hexes.indices {
            for j in hexes.indices where j > i {
                let difference = Lab(hex: hexes[i]).difference(to: Lab(hex: hexes[j]))
                #expect(
                    difference > Self.minimumDifference,
                    "\(name): \(hexes[i]) and \(hexes[j]) are only ΔE₀₀ \(difference) apart")
            }
        }
    }
}

/// A CIELAB colour (D65 white), for checking colour differences against the standard formulas,
/// independently of the code under test.
private struct Lab {
    let l: Double, a: Double, b: Double

    init(_ values: (Double, Double, Double)) {
        (l, a, b) = values
    }

    /// From sRGB `#rrggbb` (IEC 61966-2-1 transfer curve and matrix, then CIE 1976 L*a*b*).
    init(hex: String) {
        let value = Int(hex.dropFirst(), radix: 16)!
        func linear(_ shift: Int) -> Double {
            let c = Double((value >> shift) & 0xff) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (linear(16), linear(8), linear(0))
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
        func f(_ t: Double) -> Double { t > pow(6.0 / 29, 3) ? cbrt(t) : t / (3 * pow(6.0 / 29, 2)) + 4.0 / 29 }
        self.init((116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))))
    }

    /// CIEDE2000 (CIE 142-2001), as Sharma, Wu and Dalal give it.
    func difference(to other: Lab) -> Double {
        func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
        func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
        let meanC = (hypot(a, b) + hypot(other.a, other.b)) / 2
        let g = 0.5 * (1 - sqrt(pow(meanC, 7) / (pow(meanC, 7) + pow(25, 7))))
        let a1 = (1 + g) * a
        let a2 = (1 + g) * other.a
        let c1 = hypot(a1, b)
        let c2 = hypot(a2, other.b)
        func hue(_ a: Double, _ b: Double) -> Double {
            let h = degrees(atan2(b, a))
            return h < 0 ? h + 360 : h
        }
        let h1 = hue(a1, b)
        let h2 = hue(a2, other.b)
        let deltaL = other.l - l
        let deltaC = c2 - c1
        var deltaH = 0.0
        if c1 * c2 != 0 {
            deltaH = h2 - h1
            if deltaH > 180 { deltaH -= 360 } else if deltaH < -180 { deltaH += 360 }
        }
        let deltaBigH = 2 * sqrt(c1 * c2) * sin(radians(deltaH / 2))
        let meanL = (l + other.l) / 2
        let meanCPrime = (c1 + c2) / 2
        var meanH = h1 + h2
        if c1 * c2 != 0 {
            if abs(h1 - h2) <= 180 {
                meanH = (h1 + h2) / 2
            } else if h1 + h2 < 360 {
                meanH = (h1 + h2 + 360) / 2
            } else {
                meanH = (h1 + h2 - 360) / 2
            }
        }
        let t =
            1 - 0.17 * cos(radians(meanH - 30)) + 0.24 * cos(radians(2 * meanH))
            + 0.32 * cos(radians(3 * meanH + 6)) - 0.20 * cos(radians(4 * meanH - 63))
        let deltaTheta = 30 * exp(-pow((meanH - 275) / 25, 2))
        let rc = 2 * sqrt(pow(meanCPrime, 7) / (pow(meanCPrime, 7) + pow(25, 7)))
        let sl = 1 + 0.015 * pow(meanL - 50, 2) / sqrt(20 + pow(meanL - 50, 2))
        let sc = 1 + 0.045 * meanCPrime
        let sh = 1 + 0.015 * meanCPrime * t
        let rt = -sin(radians(2 * deltaTheta)) * rc
        let (l2, c2s, h2s) = (deltaL / sl, deltaC / sc, deltaBigH / sh)
        return sqrt(l2 * l2 + c2s * c2s + h2s * h2s + rt * c2s * h2s)
    }
}
