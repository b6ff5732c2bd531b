import Foundation
import MapJSON
import Testing

@testable import MapStyle

struct FilterTests {
    /// Parses a filter through a one-layer style, as the loader reads it.
    private func filter(_ json: String) throws -> Filter {
        let style = """
            {"version": 8, "sources": {"b": {"type": "vector", "url": "basemap://world"}},
             "layers": [{"id": "f", "type": "fill", "source": "b", "source-layer": "countries", "filter": \(json)}]}
            """
        let (parsed, _) = try Style.parse(Data(style.utf8), file: "test.json")
        guard let filter = parsed.layers[0].filter else { throw StyleError(.invalidValue("no filter")) }
        return filter
    }

    private let france: [String: FeatureValue] = ["iso_a2": "FR", "NAME": "France", "rank": 2, "eu": true, "note": nil]

    @Test func legacyComparisons() throws {
        #expect(try filter(#"["==", "iso_a2", "FR"]"#).evaluate(france))
        #expect(try !filter(#"["==", "iso_a2", "DE"]"#).evaluate(france))
        #expect(try filter(#"["!=", "iso_a2", "DE"]"#).evaluate(france))
        #expect(try filter(#"["<", "rank", 3]"#).evaluate(france))
        #expect(try filter(#"["<=", "rank", 2]"#).evaluate(france))
        #expect(try !filter(#"[">", "rank", 2]"#).evaluate(france))
        #expect(try filter(#"[">=", "rank", 2]"#).evaluate(france))
        #expect(try filter(#"[">", "NAME", "Belgium"]"#).evaluate(france))
        #expect(try filter(#"["==", "eu", true]"#).evaluate(france))
        #expect(try filter(#"["==", "note", null]"#).evaluate(france))
    }

    @Test func legacyComparisonsAreStrictAboutTypes() throws {
        #expect(try !filter(#"["==", "rank", "2"]"#).evaluate(france))
        #expect(try filter(#"["!=", "rank", "2"]"#).evaluate(france))
        #expect(try !filter(#"["<", "rank", "3"]"#).evaluate(france))
        #expect(try !filter(#"[">=", "iso_a2", 0]"#).evaluate(france))
    }

    @Test func legacyMissingPropertySemantics() throws {
        let empty: [String: FeatureValue] = [:]
        #expect(try !filter(#"["==", "iso_a2", "FR"]"#).evaluate(empty))
        #expect(try filter(#"["!=", "iso_a2", "FR"]"#).evaluate(empty))
        for op in ["<", "<=", ">", ">="] {
            #expect(try !filter(#"["\#(op)", "rank", 1]"#).evaluate(empty))
        }
        #expect(try !filter(#"["in", "iso_a2", "FR", "DE"]"#).evaluate(empty))
        #expect(try filter(#"["!in", "iso_a2", "FR", "DE"]"#).evaluate(empty))
        #expect(try !filter(#"["has", "iso_a2"]"#).evaluate(empty))
        #expect(try filter(#"["!has", "iso_a2"]"#).evaluate(empty))
    }

    @Test func legacySetsExistenceAndCombinations() throws {
        #expect(try filter(#"["in", "iso_a2", "DE", "FR"]"#).evaluate(france))
        #expect(try !filter(#"["!in", "iso_a2", "DE", "FR"]"#).evaluate(france))
        #expect(try !filter(#"["in", "rank", "2"]"#).evaluate(france))
        #expect(try filter(#"["has", "note"]"#).evaluate(france), "a null value still exists")
        #expect(try !filter(#"["!has", "NAME"]"#).evaluate(france))
        #expect(try filter(#"["all", ["has", "NAME"], ["==", "iso_a2", "FR"]]"#).evaluate(france))
        #expect(try !filter(#"["all", ["has", "NAME"], ["==", "iso_a2", "DE"]]"#).evaluate(france))
        #expect(try filter(#"["any", ["==", "iso_a2", "DE"], ["==", "iso_a2", "FR"]]"#).evaluate(france))
        #expect(try !filter(#"["none", ["==", "iso_a2", "DE"], ["==", "iso_a2", "FR"]]"#).evaluate(france))
        #expect(try filter(#"["none", ["==", "iso_a2", "DE"]]"#).evaluate(france))
        #expect(try filter(#"["all"]"#).evaluate(france))
        #expect(try !filter(#"["any"]"#).evaluate(france))
    }

    @Test func expressionComparisons() throws {
        #expect(try filter(#"["==", ["get", "iso_a2"], "FR"]"#).evaluate(france))
        #expect(try filter(#"["==", "FR", ["get", "iso_a2"]]"#).evaluate(france))
        #expect(try filter(#"["!=", ["get", "iso_a2"], "DE"]"#).evaluate(france))
        #expect(try filter(#"["<", ["get", "rank"], 3]"#).evaluate(france))
        #expect(try !filter(#"[">", ["get", "rank"], ["literal", 3]]"#).evaluate(france))
        #expect(try filter(#"["==", ["get", "rank"], ["get", "rank"]]"#).evaluate(france))
    }

    @Test func expressionMissingPropertySemantics() throws {
        let empty: [String: FeatureValue] = [:]
        #expect(try !filter(#"["==", ["get", "iso_a2"], "FR"]"#).evaluate(empty))
        #expect(try filter(#"["!=", ["get", "iso_a2"], "FR"]"#).evaluate(empty))
        #expect(try filter(#"["==", ["get", "iso_a2"], null]"#).evaluate(empty))
        #expect(try !filter(#"["<", ["get", "rank"], 3]"#).evaluate(empty))
        #expect(try !filter(#"[">=", ["get", "rank"], 3]"#).evaluate(empty))
        #expect(try !filter(#"["in", ["get", "iso_a2"], ["literal", ["FR"]]]"#).evaluate(empty))
        #expect(try filter(#"["!", ["in", ["get", "iso_a2"], ["literal", ["FR"]]]]"#).evaluate(empty))
    }

    @Test func expressionLogicMembershipAndExistence() throws {
        #expect(try filter(#"["in", ["get", "iso_a2"], ["literal", ["DE", "FR"]]]"#).evaluate(france))
        #expect(try !filter(#"["!", ["has", "NAME"]]"#).evaluate(france))
        #expect(try filter(#"["all", ["has", "NAME"], ["!=", ["get", "NAME"], ""]]"#).evaluate(france))
        #expect(try !filter(#"["all", ["has", "NAME"], ["!=", ["get", "NAME"], "France"]]"#).evaluate(france))
        #expect(try filter(#"["any", false, ["==", ["get", "eu"], true]]"#).evaluate(france))
        #expect(try !filter("false").evaluate(france))
    }

    @Test func unsupportedFiltersAreErrorsAtTheirPath() {
        let cases: [(String, String)] = [
            (
                #"["no-such-operator", "hover"]"#,
                "test.json: layers[0] (f).filter[0]: Unknown expression \"no-such-operator\""
            ),
            (#"["all", ["==", "k"]]"#, "layers[0] (f).filter[1]: Expected two or three arguments."),
            (
                #"["all", ["within", {"type": "Point"}]]"#,
                "layers[0] (f).filter[1]: 'within' expression requires valid geojson"
            ),
            (#"["match", ["get", "k"], [["a"]], true, false]"#, "filter[2]: Branch labels must be numbers or strings."),
            (#""yes""#, "filter: expected an array"),
        ]
        for (json, message) in cases {
            let error = #expect(throws: StyleError.self) { try filter(json) }
            #expect(error?.description.contains(message) == true, "\(String(describing: error)) lacks \(message)")
        }
    }
}
