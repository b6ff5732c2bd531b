import Foundation
import MapJSON
import Testing

@testable import MapStyle

struct Layers3DTests {
    @Test func heatmapReadsItsPaintAndAColourRampOfTheDensity() throws {
        let json = #"""
            {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
             "layers": [{"id": "h", "type": "heatmap", "source": "g",
                         "paint": {"heatmap-radius": ["get", "r"], "heatmap-intensity": 0.5, "heatmap-opacity": 0.7,
                                   "heatmap-color": ["interpolate", ["linear"], ["heatmap-density"], 0, "rgba(0,0,0,0)", 1, "#ff0000"]}}]}
            """#
        let loaded = try Style.parse(Data(json.utf8), file: "heatmap.json")
        #expect(loaded.warnings.isEmpty)
        guard case .heatmap(let heatmap) = loaded.style.layers[0].kind else {
            return #expect(Bool(false), "a heatmap layer expected")
        }
        #expect(heatmap.radius.value(atZoom: 0, properties: ["r": .number(12)]) == 12)
        #expect(heatmap.intensity.value(atZoom: 0) == 0.5 && heatmap.opacity.value(atZoom: 0) == 0.7)
        #expect(heatmap.weight.value(atZoom: 0) == 1)
        let ramp = heatmap.colorRamp(atZoom: 0)
        #expect(ramp.count == 256)
        #expect(ramp[0] == .transparent)
        #expect(ramp[255] == Color(red: 1, green: 0, blue: 0))
        // Entry 128 (density 128/255): premultiplied interpolation keeps the red hue; the alpha is 128/255.
        #expect(ramp[128].red == 1 && ramp[128].green == 0 && abs(ramp[128].alpha - 128.0 / 255) < 1e-9)
    }

    @Test func heatmapDefaultRampIsTheSpecificationsRamp() {
        let ramp = HeatmapLayer().colorRamp(atZoom: 0)
        #expect(ramp[0] == .transparent)
        #expect(ramp[255] == Color(red: 1, green: 0, blue: 0))
        // Density 0.5 (entry 127.5): between cyan and lime near lime.
        #expect(ramp[128].green == 1 && ramp[128].blue < 0.05)
        // Density 0.1 is royal blue, opaque.
        let royal = ramp.firstIndex { $0.alpha == 1 }!
        #expect(royal == 26)
    }

    @Test func heatmapColorMustBeAnExpression() {
        let json = #"""
            {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
             "layers": [{"id": "h", "type": "heatmap", "source": "g", "paint": {"heatmap-color": "red"}}]}
            """#
        #expect(throws: StyleError.self) { try Style.parse(Data(json.utf8), file: "heatmap.json") }
    }

    @Test func fillExtrusionReadsItsPaintAndTheStylesLight() throws {
        let json = #"""
            {"version": 8, "light": {"intensity": 1, "anchor": "map"},
             "sources": {"g": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
             "layers": [{"id": "e", "type": "fill-extrusion", "source": "g",
                         "paint": {"fill-extrusion-height": ["get", "h"], "fill-extrusion-base": 3, "fill-extrusion-color": "#808080",
                                   "fill-extrusion-opacity": 0.6, "fill-extrusion-vertical-gradient": false}}]}
            """#
        let loaded = try Style.parse(Data(json.utf8), file: "extrusion.json")
        #expect(loaded.warnings.isEmpty)
        guard case .fillExtrusion(let extrusion) = loaded.style.layers[0].kind else {
            return #expect(Bool(false), "a fill-extrusion layer expected")
        }
        #expect(extrusion.height.value(atZoom: 0, properties: ["h": .number(40)]) == 40)
        #expect(extrusion.base.value(atZoom: 0) == 3 && extrusion.opacity.value(atZoom: 0) == 0.6)
        #expect(!extrusion.verticalGradient)
        #expect(loaded.style.light.intensity == 1 && loaded.style.light.anchor == .map)
        #expect(Style(id: "plain").light == Light())
    }

    @Test func roofColourUnderTheDefaultLight() {
        // The default light is 30° from overhead: a roof gets cos 30° of it, 1.15 × 0.866 ≈ 0.996.
        let direction = Light().direction(bearingDegrees: 0)
        #expect(abs(direction.z - 1.15 * cos(.pi / 6)) < 1e-12)
        #expect(abs(direction.x - 0.2875) < 1e-9 && abs(direction.y + 0.498) < 1e-3)
        // Black: (0 + 0.03 ambient) × mix(0.5, 1.5, 0.996) ≈ 0.0449.
        let black = FillExtrusionLayer.litColor(.black, normal: (0, 0, 1), light: Light(), bearingDegrees: 0)
        #expect(abs(black.red - 0.03 * (0.5 + 0.996)) < 1e-3 && black.red == black.blue)
        // White: luminance 1, so the light's range is 0.5...1: (1.03) × 0.998 clamps to 1.
        let white = FillExtrusionLayer.litColor(.white, normal: (0, 0, 1), light: Light(), bearingDegrees: 0)
        #expect(white == .white)
        // A wall facing away from the light gets the dim end.
        let north = FillExtrusionLayer.litColor(
            Color(red: 0.5, green: 0.5, blue: 0.5), normal: (0, 1, 0), light: Light(), bearingDegrees: 0)
        #expect(abs(north.red - 0.53 * 0.5) < 1e-9)
    }
}
