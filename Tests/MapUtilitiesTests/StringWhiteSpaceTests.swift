import Foundation
import MapUtilities
import Testing

struct StringWhiteSpaceTests {
    /// Every scalar Foundation's `whitespacesAndNewlines` holds, and some it does not.
    static let spaces: [Unicode.Scalar] = [
        "\u{09}", "\u{0A}", "\u{0B}", "\u{0C}", "\u{0D}", "\u{20}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}",
        "\u{2005}",
        "\u{200A}", "\u{200B}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}",
    ]
    static let notSpaces: [Unicode.Scalar] = [
        "\u{0}", "\u{1F}", "\u{180E}", "\u{200C}", "\u{FEFF}", "a", "\u{4E2D}", "\u{1F600}",
    ]

    @Test func theWhiteSpaceIsFoundationsWhitespacesAndNewlines() {
        for scalar in (0...0x3100).compactMap(Unicode.Scalar.init) + ["\u{FEFF}", "\u{1F600}"] {
            let text = "\(scalar)x\(scalar)"
            #expect(
                text.trimmingWhiteSpace() == text.trimmingCharacters(in: .whitespacesAndNewlines),
                "U+\(String(scalar.value, radix: 16))")
        }
        for scalar in Self.spaces { #expect("\(scalar)".trimmingWhiteSpace() == "") }
        for scalar in Self.notSpaces { #expect("\(scalar)".trimmingWhiteSpace() == "\(scalar)") }
    }

    @Test func onlyTheEndsAreTrimmed() {
        #expect("  Senaatintori \n".trimmingWhiteSpace() == "Senaatintori")
        #expect("\u{3000}北京 市\u{A0}".trimmingWhiteSpace() == "北京 市")
        #expect(" \t\n ".trimmingWhiteSpace() == "")
        #expect("".trimmingWhiteSpace() == "")
        #expect("e\u{301} ".trimmingWhiteSpace() == "e\u{301}")
        #expect(Substring(" Αθήνα ").trimmingWhiteSpace() == "Αθήνα")
    }
}
