import Foundation
import MapJSON
import Testing

@testable import MapStyle

/// Expressions as real OpenMapTiles styles write them, read through a style file and evaluated
/// per feature; expected values are worked from the MapLibre Style Specification's definitions
/// (its formulas and examples), not from the code.
struct StyleExpressionTests {
    /// A one-layer style of `type` with `layer` members (paint, layout, filter), parsed.
    private func layer(_ type: String, _ members: String) throws -> StyleLayer {
        let json = """
            {"version": 8, "sources": {"v": {"type": "vector", "url": "basemap://world"}},
             "layers": [{"id": "x", "type": "\(type)", "source": "v", "source-layer": "countries", \(members)}]}
            """
        let (style, warnings) = try Style.parse(Data(json.utf8), file: "test.json")
        #expect(warnings.isEmpty, "\(warnings)")
        return style.layers[0]
    }

    private func lineWidth(_ json: String) throws -> StyleValue<Double> {
        guard case .line(let line) = try layer("line", #""paint": {"line-width": \#(json)}"#).kind else {
            throw CancellationError()
        }
        return line.width
    }

    private func lineColor(_ json: String) throws -> StyleValue<Color> {
        guard case .line(let line) = try layer("line", #""paint": {"line-color": \#(json)}"#).kind else {
            throw CancellationError()
        }
        return line.color
    }

    @Test func matchPicksTheArmOfTheInputAndFallsBack() throws {
        let width = try lineWidth(#"["match", ["get", "class"], ["motorway", "trunk"], 4, "primary", 3, 1]"#)
        #expect(width.isDataDriven)
        #expect(width.value(atZoom: 12, properties: ["class": "trunk"]) == 4)
        #expect(width.value(atZoom: 12, properties: ["class": "primary"]) == 3)
        #expect(width.value(atZoom: 12, properties: ["class": "path"]) == 1)
        #expect(width.value(atZoom: 12, properties: [:]) == 1)
        // Numeric labels match numbers, not their text.
        let byRank = try lineWidth(#"["match", ["get", "rank"], [1, 2], 5, 0.5]"#)
        #expect(byRank.value(atZoom: 0, properties: ["rank": 2]) == 5)
        #expect(byRank.value(atZoom: 0, properties: ["rank": "2"]) == 0.5)
    }

    @Test func exponentialInterpolationFollowsTheSpecificationsFormula() throws {
        // Between stops (10, 1) and (12, 4) with base 2, at zoom 11 the fraction is
        // (2^(11-10) - 1) / (2^(12-10) - 1) = 1/3, so the width is 1 + 3/3 = 2.
        let width = try lineWidth(#"["interpolate", ["exponential", 2], ["zoom"], 10, ["get", "a"], 12, ["get", "b"]]"#)
        #expect(width.isDataDriven)
        #expect(abs(width.value(atZoom: 11, properties: ["a": 1, "b": 4]) - 2) < 1e-12)
        #expect(width.value(atZoom: 9, properties: ["a": 1, "b": 4]) == 1)
        #expect(width.value(atZoom: 13, properties: ["a": 1, "b": 4]) == 4)
        // Linear on a property: rank 5 is halfway from (0, 1) to (10, 3).
        let byRank = try lineWidth(#"["interpolate", ["linear"], ["get", "rank"], 0, 1, 10, 3]"#)
        #expect(byRank.value(atZoom: 0, properties: ["rank": 5]) == 2)
        #expect(byRank.value(atZoom: 0, properties: [:]) == 1, "not a number: the property's default")
    }

    @Test func zoomRampsWithDataDrivenOutputsAndColourRamps() throws {
        let width = try lineWidth(
            #"["interpolate", ["linear"], ["zoom"], 10, ["match", ["get", "class"], "motorway", 2, 1], 14, ["match", ["get", "class"], "motorway", 10, 4]]"#
        )
        #expect(width.value(atZoom: 12, properties: ["class": "motorway"]) == 6)
        #expect(width.value(atZoom: 12, properties: ["class": "minor"]) == 2.5)
        // Colours blend premultiplied: halfway from opaque black to opaque white is mid grey.
        let color = try lineColor(##"["interpolate", ["linear"], ["zoom"], 0, "#000000", 10, "#ffffff"]"##)
        #expect(abs(color.value(atZoom: 5).red - 0.5) < 1e-9)
        let byClass = try lineColor(##"["match", ["get", "class"], "water", "#a0c8f0", "hsl(0, 0%, 100%)"]"##)
        #expect(byClass.value(atZoom: 3, properties: ["class": "water"]) == (try Color(css: "#a0c8f0")))
        #expect(byClass.value(atZoom: 3, properties: [:]) == .white)
    }

    @Test func stepCaseAndCoalesce() throws {
        // step: the output of the last stop at or below the input; the base below the first.
        let width = try lineWidth(#"["step", ["get", "rank"], 1, 3, 2, 6, 3]"#)
        #expect(width.value(atZoom: 0, properties: ["rank": 2]) == 1)
        #expect(width.value(atZoom: 0, properties: ["rank": 3]) == 2)
        #expect(width.value(atZoom: 0, properties: ["rank": 99]) == 3)
        let cased = try lineWidth(
            #"["case", ["==", ["get", "brunnel"], "bridge"], 5, [">", ["get", "lanes"], 2], 3, 1]"#)
        #expect(cased.value(atZoom: 0, properties: ["brunnel": "bridge"]) == 5)
        #expect(cased.value(atZoom: 0, properties: ["lanes": 4]) == 3)
        #expect(cased.value(atZoom: 0, properties: ["lanes": "4"]) == 1, "a string is not greater than a number")
        let coalesced = try lineWidth(#"["coalesce", ["get", "width"], ["get", "w"], 7]"#)
        #expect(coalesced.value(atZoom: 0, properties: ["w": 2]) == 2)
        #expect(coalesced.value(atZoom: 0, properties: [:]) == 7)
    }

    @Test func filtersWithExpressionsGeometryTypeAndZoom() throws {
        let byType = try #require(try layer("fill", #""filter": ["==", "$type", "Polygon"]"#).filter)
        #expect(byType.evaluate(["$type": "Polygon"]))
        #expect(!byType.evaluate(["$type": "LineString"]))
        let expression = try #require(
            try layer(
                "fill",
                #""filter": ["all", ["==", ["geometry-type"], "Polygon"], ["match", ["get", "class"], ["park", "wood"], true, false], [">=", ["zoom"], 12]]"#
            ).filter)
        #expect(expression.evaluate(["$type": "Polygon", "class": "wood"], zoom: 12))
        #expect(!expression.evaluate(["$type": "Polygon", "class": "wood"], zoom: 11.9))
        #expect(!expression.evaluate(["$type": "Polygon", "class": "farm"], zoom: 14))
        let membership = try #require(try layer("fill", #""filter": ["in", "class", "park", "wood"]"#).filter)
        #expect(membership.evaluate(["class": "park"]) && !membership.evaluate(["class": "farm"]))
        let notIn = try #require(try layer("fill", #""filter": ["!in", "class", "park"]"#).filter)
        #expect(notIn.evaluate([:]))
        let substring = try #require(try layer("fill", #""filter": ["in", "ark", ["get", "class"]]"#).filter)
        #expect(substring.evaluate(["class": "park"]) && !substring.evaluate(["class": "wood"]))
        let byID = try #require(try layer("fill", #""filter": ["==", ["id"], 42]"#).filter)
        #expect(byID.evaluate(["$id": 42]) && !byID.evaluate([:]))
    }

    @Test func textFieldsFromTokensAndExpressions() throws {
        let tokenLayer = try layer("symbol", #""layout": {"text-field": "{name:latin}\n{name:nonlatin}"}"#)
        guard case .symbol(let tokens) = tokenLayer.kind else {
            Issue.record("a symbol layer parsed as \(tokenLayer.kind)")
            return
        }
        #expect(
            tokens.label(for: ["name:latin": "Helsinki", "name:nonlatin": "Хельсинки"], atZoom: 12)
                == "Helsinki\nХельсинки")
        #expect(tokens.label(for: ["name:latin": "Espoo"], atZoom: 12) == "Espoo")
        let expressionLayer = try layer(
            "symbol",
            #"""
            "layout": {"text-field": ["case", ["has", "ref"], ["concat", ["upcase", ["get", "ref"]], " ", ["to-string", ["get", "lanes"]]], ["coalesce", ["get", "name:en"], ["get", "name"]]],
                       "symbol-sort-key": ["-", 100, ["get", "rank"]]}
            """#)
        guard case .symbol(let expression) = expressionLayer.kind else {
            Issue.record("a symbol layer parsed as \(expressionLayer.kind)")
            return
        }
        #expect(expression.label(for: ["ref": "e18", "lanes": 4], atZoom: 10) == "E18 4")
        #expect(expression.label(for: ["name": "Mannerheimintie"], atZoom: 10) == "Mannerheimintie")
        #expect(expression.label(for: ["name": "Helsinki", "name:en": "Helsinki (en)"], atZoom: 10) == "Helsinki (en)")
        #expect(expression.label(for: [:], atZoom: 10) == nil)
        #expect(expression.sortKey?.value(for: ["rank": 30]) == 70)
    }

    /// `json` parsed as an expression of any type and evaluated in `context`.
    private func evaluate(_ json: String, _ context: ExpressionContext) throws -> ExpressionValue {
        try ExpressionParser.parse(try JSONValue.parse(Data(json.utf8)), expecting: nil).expression.evaluate(
            in: context)
    }

    @Test func toStringWritesNumbersAsJavaScriptDoes() throws {
        let context = ExpressionContext(zoom: 0, properties: ["n": 3, "x": 2.5, "t": true, "big": 1e21, "small": 1e-7])
        #expect(try evaluate(#"["to-string", ["get", "n"]]"#, context) == .string("3"))
        #expect(try evaluate(#"["to-string", ["get", "x"]]"#, context) == .string("2.5"))
        #expect(try evaluate(#"["to-string", ["get", "t"]]"#, context) == .string("true"))
        #expect(try evaluate(#"["to-string", ["get", "missing"]]"#, context) == .string(""))
        #expect(try evaluate(#"["to-string", ["get", "big"]]"#, context) == .string("1e+21"))
        #expect(try evaluate(#"["to-string", ["get", "small"]]"#, context) == .string("1e-7"))
        #expect(try evaluate(#"["concat", "A", ["get", "missing"], ["get", "n"]]"#, context) == .string("A3"))
        #expect(try evaluate(#"["/", ["get", "n"], 2]"#, context) == .number(1.5))
        #expect(
            try evaluate(#"["+", ["get", "n"], ["get", "missing"]]"#, context) == .null,
            "not a number: an evaluation error")
    }

    @Test func legacyPropertyFunctionsAreTheirExpressions() throws {
        let categorical = try lineWidth(
            #"{"property": "class", "type": "categorical", "stops": [["motorway", 4], ["primary", 2]], "default": 1}"#)
        #expect(categorical.value(atZoom: 0, properties: ["class": "motorway"]) == 4)
        #expect(categorical.value(atZoom: 0, properties: ["class": "path"]) == 1)
        let interval = try lineWidth(#"{"property": "rank", "type": "interval", "stops": [[0, 1], [5, 2], [10, 3]]}"#)
        #expect(interval.value(atZoom: 0, properties: ["rank": 7]) == 2)
        #expect(interval.value(atZoom: 0, properties: ["rank": -3]) == 1)
        let exponential = try lineWidth(#"{"property": "rank", "base": 2, "stops": [[0, 0], [2, 3]]}"#)
        // (2^1 - 1) / (2^2 - 1) = 1/3 of the way from 0 to 3.
        #expect(abs(exponential.value(atZoom: 0, properties: ["rank": 1]) - 1) < 1e-12)
        let identity = try lineWidth(#"{"property": "width", "type": "identity"}"#)
        #expect(identity.value(atZoom: 0, properties: ["width": 6]) == 6)
    }

    @Test func zoomAndPropertyFunctionsInterpolateBothWays() throws {
        let width = try lineWidth(
            #"{"property": "rank", "stops": [[{"zoom": 0, "value": 0}, 0], [{"zoom": 0, "value": 10}, 10], [{"zoom": 10, "value": 0}, 20], [{"zoom": 10, "value": 10}, 40]]}"#
        )
        // Rank 5 is 5 at zoom 0 and 30 at zoom 10, so 17.5 at zoom 5.
        #expect(width.value(atZoom: 5, properties: ["rank": 5]) == 17.5)
        #expect(width.value(atZoom: 10, properties: ["rank": 10]) == 40)
    }

    @Test func globalStateReadsTheStylesStateDefaults() throws {
        let json = #"""
            {"version": 8, "state": {"roadWidth": {"default": 3}}, "sources": {"v": {"type": "vector", "url": "basemap://world"}},
             "layers": [{"id": "x", "type": "line", "source": "v", "source-layer": "countries",
                         "paint": {"line-width": ["*", 2, ["number", ["global-state", "roadWidth"], 1]]}}]}
            """#
        let (style, warnings) = try Style.parse(Data(json.utf8), file: "test.json")
        #expect(warnings.isEmpty, "\(warnings)")
        guard case .line(let line) = style.layers[0].kind else {
            Issue.record("not a line layer")
            return
        }
        #expect(line.width.value(atZoom: 0, properties: [:]) == 6)
    }

    @Test func aValueOfTheWrongTypeFallsBackToTheDefault() throws {
        let width = try lineWidth(#"["get", "name"]"#)
        #expect(width.value(atZoom: 0, properties: ["name": "Kamppi"]) == 1, "line-width's default")
        let color = try lineColor(#"["get", "colour"]"#)
        #expect(color.value(atZoom: 0, properties: ["colour": "teal"]) == (try Color(css: "teal")))
        #expect(color.value(atZoom: 0, properties: ["colour": "no such"]) == .black)
    }

    /// The names a value reads, which let a renderer make one look for features alike: named by
    /// `get` and `has` anywhere in the expression; nil where the feature is read otherwise.
    @Test func featurePropertyNamesAreThoseReadByName() throws {
        #expect(try lineWidth("3").featurePropertyNames == [])
        #expect(try lineWidth(#"["interpolate", ["linear"], ["zoom"], 10, 1, 14, 4]"#).featurePropertyNames == [])
        #expect(try lineWidth(#"["match", ["get", "class"], "motorway", 4, 1]"#).featurePropertyNames == ["class"])
        #expect(
            try lineWidth(#"["interpolate", ["linear"], ["zoom"], 10, ["get", "a"], 14, ["case", ["has", "b"], 2, 1]]"#)
                .featurePropertyNames == ["a", "b"])
        // `get` from an object of the style reads no feature property.
        #expect(try lineWidth(#"["get", "w", ["literal", {"w": 2}]]"#).featurePropertyNames == [])
        // A name computed as it runs, every property, the type or the id: no names to share by.
        #expect(try lineWidth(#"["to-number", ["get", ["get", "key"]]]"#).featurePropertyNames == nil)
        #expect(try lineWidth(#"["case", ["==", ["geometry-type"], "Polygon"], 2, 1]"#).featurePropertyNames == nil)
        #expect(try lineWidth(#"["to-number", ["id"]]"#).featurePropertyNames == nil)
        #expect(try lineColor(#"["to-color", ["get", "c", ["properties"]]]"#).featurePropertyNames == nil)
    }
}
