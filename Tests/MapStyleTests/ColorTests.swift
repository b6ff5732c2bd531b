import Foundation
import Testing

@testable import MapStyle

struct ColorTests {
    private func expectColor(_ css: String, _ red: Double, _ green: Double, _ blue: Double, _ alpha: Double = 1) throws
    {
        let color = try Color(css: css)
        let components = [color.red, color.green, color.blue, color.alpha]
        for (actual, expected) in zip(components, [red, green, blue, alpha]) {
            #expect(abs(actual - expected) < 1e-3, "\(css): \(components) is not \([red, green, blue, alpha])")
        }
    }

    @Test func hexInAllFourLengths() throws {
        try expectColor("#f80", 1, 0x88 / 255, 0)
        try expectColor("#f808", 1, 0x88 / 255, 0, 0x88 / 255)
        try expectColor("#aad3df", 0xaa / 255, 0xd3 / 255, 0xdf / 255)
        try expectColor("#AAD3DF80", 0xaa / 255, 0xd3 / 255, 0xdf / 255, 0x80 / 255)
    }

    @Test func rgbAndRGBAWithNumbersAndPercentages() throws {
        try expectColor("rgb(255, 128, 0)", 1, 128 / 255, 0)
        try expectColor("rgba(0, 0, 0, 0.4)", 0, 0, 0, 0.4)
        try expectColor("rgb(100%, 50%, 0%)", 1, 0.5, 0)
        try expectColor("rgba(255,255,255,50%)", 1, 1, 1, 0.5)
        try expectColor("rgb(0 128 255 / 0.25)", 0, 128 / 255, 1, 0.25)
    }

    @Test func hslAndHSLA() throws {
        try expectColor("hsl(0, 100%, 50%)", 1, 0, 0)
        try expectColor("hsl(120, 100%, 25%)", 0, 0.5, 0)
        try expectColor("hsla(240, 100%, 50%, 0.5)", 0, 0, 1, 0.5)
        try expectColor("hsl(210deg 50% 40%)", 0.2, 0.4, 0.6)
        try expectColor("hsl(-120, 100%, 50%)", 0, 0, 1)
    }

    @Test func namedColoursAndTransparent() throws {
        try expectColor("rebeccapurple", 0x66 / 255, 0x33 / 255, 0x99 / 255)
        try expectColor("  SteelBlue ", 0x46 / 255, 0x82 / 255, 0xb4 / 255)
        try expectColor("grey", 0x80 / 255, 0x80 / 255, 0x80 / 255)
        try expectColor("transparent", 0, 0, 0, 0)
        #expect(Color.namedColors.count == 149)
    }

    @Test func outOfRangeChannelsAreClamped() throws {
        try expectColor("rgb(300, -20, 0)", 1, 0, 0)
        try expectColor("rgba(0, 0, 0, 2)", 0, 0, 0, 1)
    }

    @Test func invalidColoursAreRejectedNamingTheValue() {
        for text in [
            "blu", "#12", "#ggg", "rgb(1, 2)", "rgb(1, 2, x)", "hsl(0, 0%)", "cmyk(0, 0, 0, 0)", "", "rgb(1 2 3 / )",
        ] {
            #expect(throws: StyleError(.invalidColor(text))) { try Color(css: text) }
        }
        #expect(StyleError(.invalidColor("blu")).description == "'blu' is not a colour")
    }

    @Test func hexOutputDropsAlphaWhenOpaque() throws {
        #expect(try Color(css: "#AAD3DF").hex == "#aad3df")
        #expect(try Color(css: "rgba(0, 0, 0, 0.5)").hex == "#00000080")
        #expect(Color.white.with(alpha: 0).hex == "#ffffff00")
        #expect(Color.black.with(alpha: 0.4).alpha == 0.4)
    }
}
