import Foundation
import MapJSON
import Testing

@testable import MapStyle

struct TextFieldTests {
    private let france: [String: FeatureValue] = ["NAME": "France", "iso_a2": "FR", "pop_rank": 15]

    private func symbolLayer(textField json: String, transform: String = "none") throws -> SymbolLayer {
        let style = """
            {"version": 8, "sources": {"b": {"type": "vector", "url": "basemap://world"}},
             "layers": [{"id": "s", "type": "symbol", "source": "b", "source-layer": "countries",
                         "layout": {"text-field": \(json), "text-transform": "\(transform)"}}]}
            """
        guard case .symbol(let symbol) = try Style.parse(Data(style.utf8)).style.layers[0].kind else {
            throw StyleError(.invalidValue("not a symbol layer"))
        }
        return symbol
    }

    @Test func templatesReplaceTokensAndKeepLiteralText() {
        #expect(TextField(template: "{NAME}").text(for: france) == "France")
        #expect(TextField(template: "{NAME} ({iso_a2})").text(for: france) == "France (FR)")
        #expect(TextField(template: "Rank {pop_rank}").text(for: france) == "Rank 15")
        #expect(TextField(template: "no tokens").text(for: france) == "no tokens")
        #expect(TextField(template: "{unclosed").text(for: france) == "{unclosed")
    }

    @Test func missingTokensReadAsEmpty() {
        #expect(TextField(template: "{name_en}").text(for: france) == "")
        #expect(TextField(template: "{name_en}|{NAME}").text(for: france) == "|France")
    }

    @Test func expressionsGetCoalesceAndConcat() throws {
        #expect(try symbolLayer(textField: #"["get", "NAME"]"#).label(for: france, atZoom: 3) == "France")
        let coalesce = try symbolLayer(textField: #"["coalesce", ["get", "name_en"], ["get", "NAME"]]"#)
        #expect(coalesce.label(for: france, atZoom: 3) == "France")
        #expect(coalesce.label(for: ["name_en": "French Republic", "NAME": "France"], atZoom: 3) == "French Republic")
        let concat = try symbolLayer(
            textField: #"["concat", ["get", "NAME"], " · ", ["to-string", ["get", "pop_rank"]]]"#)
        #expect(concat.label(for: france, atZoom: 3) == "France · 15")
    }

    @Test func missingFieldsDrawNoLabel() throws {
        #expect(try symbolLayer(textField: #""{name}""#).label(for: france, atZoom: 3) == nil)
        #expect(try symbolLayer(textField: #"["get", "name"]"#).label(for: france, atZoom: 3) == nil)
        #expect(try symbolLayer(textField: #""{NAME}""#).label(for: ["NAME": "  "], atZoom: 3) == nil)
        #expect(SymbolLayer().label(for: france, atZoom: 3) == nil)
    }

    @Test func textTransformApplies() throws {
        #expect(
            try symbolLayer(textField: #""{NAME}""#, transform: "uppercase").label(for: france, atZoom: 3) == "FRANCE")
        #expect(
            try symbolLayer(textField: #""{NAME}""#, transform: "lowercase").label(for: france, atZoom: 3) == "france")
    }

    @Test func formattedTextIsItsSectionsJoined() throws {
        let layer = try symbolLayer(
            textField: #"["format", ["get", "NAME"], {"font-scale": 1.2}, " ", {}, ["upcase", ["get", "NAME"]], {}]"#)
        #expect(layer.label(for: france, atZoom: 3) == "France FRANCE")
    }

    @Test func badTextExpressionsAreErrors() {
        let error = #expect(throws: StyleError.self) { try symbolLayer(textField: #"["format", {"font-scale": 2}]"#) }
        #expect(error?.path == "layers[0] (s).layout.text-field")
    }

    @Test func formatSectionsStyledApartComeWithTheirScaleFontAndColour() throws {
        let symbol = try symbolLayer(
            textField:
                ##"["format", ["get", "NAME"], {"font-scale": 1.5}, " ", {}, ["get", "iso_a2"], {"text-font": ["literal", ["Noto Sans Bold"]], "text-color": "#ff0000"}]"##,
            transform: "uppercase")
        let sections = try #require(symbol.labelSections(for: france, atZoom: 3))
        #expect(sections.map(\.text) == ["FRANCE", " ", "FR"])
        #expect(sections[0].scale == 1.5 && sections[0].fontStack == nil)
        #expect(sections[2].fontStack == "Noto Sans Bold" && sections[2].textColor == Color(red: 1, green: 0, blue: 0))
        #expect(symbol.label(for: france, atZoom: 3) == "FRANCE FR")
        // Sections all styled as the layer, or plain fields, are one label.
        #expect(
            try symbolLayer(textField: #"["format", ["get", "NAME"], {}]"#).labelSections(for: france, atZoom: 3) == nil
        )
        #expect(try symbolLayer(textField: #""{NAME}""#).labelSections(for: france, atZoom: 3) == nil)
    }
}
