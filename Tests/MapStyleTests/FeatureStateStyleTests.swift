import Foundation
import MapJSON
import Testing

@testable import MapStyle

/// `promoteId` and `feature-state`.
struct FeatureStateStyleTests {
    @Test func promoteIDIsAPropertyOrOnePerSourceLayer() throws {
        let json = #"""
            {"version": 8, "sources": {
                "g": {"type": "geojson", "promoteId": "foo", "data": {"type": "Point", "coordinates": [0, 0]}},
                "v": {"type": "vector", "tiles": ["file:///t/{z}/{x}/{y}.mvt"], "promoteId": {"roads": "osm_id"}}},
             "layers": []}
            """#
        let loaded = try Style.parse(Data(json.utf8), file: "promote.json")
        #expect(loaded.warnings.isEmpty)
        guard case .geoJSON(let geoJSON)? = loaded.style.sources["g"],
            case .vector(let vector)? = loaded.style.sources["v"]
        else {
            return #expect(Bool(false), "a geojson and a vector source")
        }
        #expect(geoJSON.promoteID?.property(forSourceLayer: nil) == "foo")
        #expect(vector.promoteID?.property(forSourceLayer: "roads") == "osm_id")
        #expect(vector.promoteID?.property(forSourceLayer: "water") == nil)
    }

    @Test func featureStateReadsTheStateKeysOfTheProperties() throws {
        let parsed = try ExpressionParser.parse(.array([.string("feature-state"), .string("hover")]), expecting: nil)
        let stated = ExpressionContext(
            zoom: 0, properties: [ExpressionContext.featureStateKeyPrefix + "hover": .bool(true)])
        #expect(parsed.expression.evaluate(in: stated) == .bool(true))
        #expect(parsed.expression.evaluate(in: ExpressionContext(zoom: 0, properties: ["hover": .bool(true)])) == .null)
    }
}
