import Foundation
import Testing

@testable import MapStyle

struct StyleValueTests {
    /// Parses `value` as the given property of a one-layer line style and returns the layer.
    private func lineLayer(paint: String) throws -> LineLayer {
        let json = """
            {"version": 8, "sources": {"b": {"type": "vector", "url": "basemap://world"}},
             "layers": [{"id": "l", "type": "line", "source": "b", "source-layer": "countries", "paint": \(paint)}]}
            """
        let (style, warnings) = try Style.parse(Data(json.utf8))
        #expect(warnings.isEmpty)
        guard case .line(let line) = style.layers[0].kind else { throw StyleError(.invalidValue("not a line layer")) }
        return line
    }

    @Test func constantIsTheSameAtEveryZoom() throws {
        let line = try lineLayer(paint: #"{"line-width": 2.5}"#)
        #expect(line.width.value(atZoom: 0) == 2.5)
        #expect(line.width.value(atZoom: 22) == 2.5)
        #expect(line.width.constantValue == 2.5)
    }

    @Test func legacyStopsInterpolateLinearlyByDefaultAndClampAtTheEnds() throws {
        let line = try lineLayer(paint: #"{"line-width": {"stops": [[2, 1], [6, 3]]}}"#)
        #expect(line.width.value(atZoom: 0) == 1)
        #expect(line.width.value(atZoom: 4) == 2)
        #expect(line.width.value(atZoom: 9) == 3)
        #expect(line.width.constantValue == nil)
    }

    @Test func legacyStopsWithABaseInterpolateExponentially() throws {
        let line = try lineLayer(paint: #"{"line-width": {"base": 2, "stops": [[1, 2], [3, 6]]}}"#)
        // (2^1 - 1) / (2^2 - 1) = 1/3 of the way from 2 to 6.
        #expect(abs(line.width.value(atZoom: 2) - 10.0 / 3) < 1e-12)
    }

    @Test func legacyStopsOfColoursInterpolateAndOfArraysStep() throws {
        let line = try lineLayer(
            paint: """
                {"line-color": {"stops": [[0, "#000000"], [10, "#ffffff"]]},
                 "line-dasharray": {"stops": [[0, [1, 1]], [5, [4, 2]]]}}
                """)
        #expect(line.color.value(atZoom: 5).hex == "#808080")
        #expect(line.dashArray?.value(atZoom: 4.9) == [1, 1])
        #expect(line.dashArray?.value(atZoom: 5) == [4, 2])
    }

    @Test func intervalTypeSteps() throws {
        let line = try lineLayer(paint: #"{"line-width": {"type": "interval", "stops": [[1, 1], [3, 2], [4, 3]]}}"#)
        #expect(line.width.value(atZoom: 0) == 1)
        #expect(line.width.value(atZoom: 2.9) == 1)
        #expect(line.width.value(atZoom: 3) == 2)
        #expect(line.width.value(atZoom: 10) == 3)
    }

    @Test func interpolateExpressionLinearAndExponential() throws {
        let linear = try lineLayer(paint: #"{"line-width": ["interpolate", ["linear"], ["zoom"], 0, 0, 10, 5]}"#)
        #expect(linear.width.value(atZoom: 4) == 2)
        let exponential = try lineLayer(
            paint: #"{"line-width": ["interpolate", ["exponential", 2], ["zoom"], 1, 2, 3, 6]}"#
        )
        #expect(abs(exponential.width.value(atZoom: 2) - 10.0 / 3) < 1e-12)
        #expect(exponential.width.value(atZoom: 0) == 2)
        #expect(exponential.width.value(atZoom: 20) == 6)
    }

    @Test func interpolateExpressionOfColoursMixesPremultiplied() throws {
        let line = try lineLayer(
            paint:
                #"{"line-color": ["interpolate", ["linear"], ["zoom"], 0, "rgba(255, 0, 0, 1)", 10, "rgba(0, 0, 255, 0)"]}"#
        )
        let middle = line.color.value(atZoom: 5)
        #expect(middle.red == 1 && middle.blue == 0 && abs(middle.alpha - 0.5) < 1e-12)
    }

    @Test func stepExpressionHoldsEachValueFromItsZoom() throws {
        let line = try lineLayer(
            paint:
                #"{"line-width": ["step", ["zoom"], 1, 4, 2, 8, 3], "line-dasharray": ["step", ["zoom"], ["literal", [2, 2]], 6, ["literal", [4, 1]]]}"#
        )
        #expect(line.width.value(atZoom: 3.99) == 1)
        #expect(line.width.value(atZoom: 4) == 2)
        #expect(line.width.value(atZoom: 7.5) == 2)
        #expect(line.width.value(atZoom: 8) == 3)
        #expect(line.dashArray?.value(atZoom: 0) == [2, 2])
        #expect(line.dashArray?.value(atZoom: 6) == [4, 1])
    }

    /// Functions may repeat a stop's zoom, as MapLibre's validator allows and OSM Bright's shield
    /// layers do (`symbol-placement` stops at 7, 7, 8): the later stop applies from that zoom on.
    @Test func functionsMayRepeatAStopsZoom() throws {
        let line = try lineLayer(paint: #"{"line-width": {"base": 1, "stops": [[5, 1], [7, 2], [7, 4], [8, 6]]}}"#)
        #expect(line.width.value(atZoom: 5) == 1)
        #expect(line.width.value(atZoom: 7) == 4)
        #expect(line.width.value(atZoom: 7.5) == 5)
        let json = """
            {"version": 8, "sources": {"b": {"type": "vector", "url": "basemap://world"}},
             "layers": [{"id": "shield", "type": "symbol", "source": "b", "source-layer": "countries",
                         "layout": {"symbol-placement": {"base": 1, "stops": [[7, "point"], [7, "line"], [8, "line"]]}}}]}
            """
        let (style, _) = try Style.parse(Data(json.utf8))
        #expect(style.layers.count == 1)
    }

    @Test func badFunctionsAreErrorsAtTheirPath() {
        let cases: [(String, String)] = [
            (
                #"{"line-width": {"stops": [[5, 1], [2, 3]]}}"#,
                "layers[0] (l).paint.line-width.stops: stop zooms must not decrease: [5, 2]"
            ),
            (#"{"line-width": {"stops": []}}"#, "a zoom function needs at least one stop"),
            (
                #"{"line-width": ["interpolate", ["cubic-bezier", 0, 0, 2, 1], ["zoom"], 0, 1, 5, 2]}"#,
                "Cubic bezier interpolation requires four numeric arguments"
            ),
            (
                #"{"line-width": ["interpolate", ["linear"], ["get", "rank"], 5, 1, 2, 2]}"#,
                "line-width[5]: Input/output pairs for \"interpolate\" expressions must be arranged with input values in strictly ascending order."
            ),
            (#"{"line-width": ["let", "x", 1, ["var", "y"]]}"#, "line-width[3][1]: Unknown variable \"y\""),
            (#"{"line-width": ["+", ["zoom"], 1]}"#, "\"zoom\" expression may only be used as input to a top-level"),
            (
                ##"{"line-color": ["match", ["get", "k"], "a", "blu", "#fff"]}"##,
                "line-color[3]: Could not parse color from value 'blu'"
            ),
            (
                #"{"line-dasharray": ["interpolate", ["linear"], ["zoom"], 0, ["literal", [1, 1]], 5, ["literal", [2, 2]]]}"#,
                "cannot be interpolated"
            ),
            (#"{"line-width": -1}"#, "line-width: -1 is out of range"),
            (#"{"line-opacity": 1.5}"#, "line-opacity: 1.5 is out of range"),
            (
                ##"{"line-color": {"stops": [[0, "#fff"], [5, "blu"]]}}"##,
                "line-color.stops[1][1]: 'blu' is not a colour"
            ),
        ]
        for (paint, message) in cases {
            let error = #expect(throws: StyleError.self) { try lineLayer(paint: paint) }
            #expect(error?.description.contains(message) == true, "\(String(describing: error)) lacks \(message)")
        }
    }

    @Test func fontListsAreConstantsNotExpressions() throws {
        let json = """
            {"version": 8, "sources": {"b": {"type": "vector", "url": "basemap://world"}},
             "layers": [{"id": "s", "type": "symbol", "source": "b", "source-layer": "countries",
                         "layout": {"text-font": ["DejaVu Sans Bold", "DejaVu Sans Book"],
                                    "text-size": ["step", ["zoom"], 10, 5, 14]}}]}
            """
        let (style, _) = try Style.parse(Data(json.utf8))
        guard case .symbol(let symbol) = style.layers[0].kind else { return #expect(Bool(false)) }
        #expect(symbol.textFont.value(atZoom: 3) == ["DejaVu Sans Bold", "DejaVu Sans Book"])
        #expect(symbol.textSize.value(atZoom: 6) == 14)
    }
}
