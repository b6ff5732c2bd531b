import Foundation
import MapJSON
import Testing

@testable import MapStyle

/// `interpolate` and `step` given NaN (`["/", 0, 0]`): GL finds no stop for it, an error, so
/// the property keeps its default.
struct ExpressionNaNInputTests {
    private func radius(_ json: String) throws -> Double {
        let style = #"""
            {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
             "layers": [{"id": "c", "type": "circle", "source": "g", "paint": {"circle-radius": \#(json)}}]}
            """#
        let (parsed, _) = try Style.parse(Data(style.utf8), file: "nan.json")
        guard case .circle(let circle) = parsed.layers[0].kind else { throw CancellationError() }
        return circle.radius.value(atZoom: 0, properties: ["zero": .number(0)])
    }

    @Test func aNaNInputBetweenStopsGivesThePropertysDefault() throws {
        #expect(try radius(#"["interpolate", ["linear"], ["/", 0, ["get", "zero"]], 1, 1, 2, 2]"#) == 5)
        #expect(try radius(#"["step", ["/", 0, ["get", "zero"]], 1, 2, 2]"#) == 5)
        // A number still finds its stop.
        #expect(try radius(#"["step", ["get", "zero"], 1, 2, 2]"#) == 1)
    }
}
