import Foundation
import Testing

@testable import MapStyle

struct MapwrightMetadataTests {
    @Test func sectionValuesOverrideDefaultsKeyByKey() throws {
        let json = """
            {"version": 8, "sources": {}, "layers": [], "metadata": {"mapwright": {
              "pins": {"palette": ["#111111", "#222222"], "default": "red", "shadow-opacity": 0.5},
              "callout": {"background": "#1c1c1e", "title-size": 17},
              "overlay": {"line-width": 6},
              "cluster": {"max-radius": 40},
              "attribution": {"text": "© Me"},
              "labels": {"collision-padding": 8}
            }}}
            """
        let (style, warnings) = try Style.parse(Data(json.utf8))
        #expect(warnings.isEmpty)
        let metadata = style.mapwright
        #expect(metadata.pins.palette.map(\.hex) == ["#111111", "#222222"])
        #expect(metadata.pins.defaultColor.hex == "#ff0000")
        #expect(metadata.pins.shadowOpacity == 0.5)
        #expect(metadata.pins.selectedScale == 1.25)
        #expect(metadata.callout.background.hex == "#1c1c1e" && metadata.callout.titleSize == 17)
        #expect(metadata.callout.subtitleFont == "DejaVu Sans Book")
        #expect(metadata.overlay.lineWidth == 6 && metadata.overlay.lineColor.hex == "#007aff")
        #expect(metadata.cluster.maxRadius == 40 && metadata.cluster.minRadius == 14)
        #expect(style.attributionText == "© Me")
        #expect(metadata.labels.collisionPadding == 8)
    }

    @Test func paletteColoursAreStablePerKey() {
        let pins = MapwrightMetadata.Pins()
        #expect(pins.color(forKey: "Ansel Adams") == pins.color(forKey: "Ansel Adams"))
        let colours = Set(
            ["Ansel", "Berenice", "Cartier", "Dorothea", "Eugène", "Fan Ho", "Garry"].map(pins.color(forKey:)))
        #expect(colours.count > 3, "keys should spread over the palette")
        var empty = MapwrightMetadata.Pins()
        empty.palette = []
        #expect(empty.color(forKey: "anyone") == empty.defaultColor)
    }

    @Test func outOfRangeSettingsAreErrors() {
        let json =
            #"{"version": 8, "sources": {}, "layers": [], "metadata": {"mapwright": {"cluster": {"min-radius": 30, "max-radius": 20}}}}"#
        let error = #expect(throws: StyleError.self) { try Style.parse(Data(json.utf8)) }
        #expect(error?.description == "metadata.mapwright.cluster: min-radius is larger than max-radius")
    }
}
