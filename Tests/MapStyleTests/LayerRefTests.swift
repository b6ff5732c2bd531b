import Foundation
import Testing

@testable import MapStyle

/// Legacy `ref` layers, resolved at parse time as MapLibre's style specification resolves them.
struct LayerRefTests {
    @Test func aRefLayerTakesTheNamedLayersTypeSourceZoomsFilterAndLayout() throws {
        let json = #"""
            {"version": 8, "sources": {"v": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
             "layers": [{"id": "copy", "ref": "water", "type": "circle", "minzoom": 9, "paint": {"fill-color": "red"}},
                        {"id": "water", "type": "fill", "source": "v", "minzoom": 2, "maxzoom": 8,
                         "filter": ["==", "kind", "lake"], "layout": {"visibility": "none"}}]}
            """#
        let loaded = try Style.parse(Data(json.utf8), file: "ref.json")
        #expect(loaded.warnings.isEmpty)
        let copy = loaded.style.layers[0]
        guard case .fill(let fill) = copy.kind else { return #expect(Bool(false), "the fill of the layer named") }
        #expect(fill.color.value(atZoom: 3) == Color(red: 1, green: 0, blue: 0))
        #expect(copy.source == "v" && copy.minZoom == 2 && copy.maxZoom == 8 && copy.visibility == .none)
        #expect(copy.filter != nil)
    }

    @Test func aRefNamingNoLayerIsRefused() {
        let json = #"{"version": 8, "sources": {}, "layers": [{"id": "a", "ref": "gone"}]}"#
        #expect(throws: StyleError.self) { try Style.parse(Data(json.utf8), file: "ref.json") }
    }
}
