import Foundation
import MapJSON
import Testing

@testable import MapStyle

struct StyleLayerTests {
    @Test func lineJoinLimitsAreReadWithMapLibresDefaults() throws {
        let json = #"""
            {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
             "layers": [{"id": "a", "type": "line", "source": "g"},
                        {"id": "b", "type": "line", "source": "g", "layout": {"line-miter-limit": 4, "line-round-limit": 1.2}}]}
            """#
        let loaded = try Style.parse(Data(json.utf8), file: "limits.json")
        #expect(loaded.warnings.isEmpty)
        guard case .line(let plain) = loaded.style.layers[0].kind, case .line(let set) = loaded.style.layers[1].kind
        else {
            return #expect(Bool(false), "line layers expected")
        }
        #expect(plain.miterLimit.value(atZoom: 0) == 2 && plain.roundLimit.value(atZoom: 0) == 1.05)
        #expect(set.miterLimit.value(atZoom: 0) == 4 && set.roundLimit.value(atZoom: 0) == 1.2)
    }

    @Test func linesFillsAndCirclesReadTheirOffsetsTranslationsAndSortKeys() throws {
        let json = #"""
            {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
             "layers": [{"id": "plain", "type": "line", "source": "g"},
                        {"id": "l", "type": "line", "source": "g", "layout": {"line-sort-key": ["get", "rank"]},
                         "paint": {"line-offset": -3, "line-gap-width": 4, "line-blur": 1.5, "line-translate": [2, -1],
                                   "line-translate-anchor": "viewport"}},
                        {"id": "f", "type": "fill", "source": "g", "layout": {"fill-sort-key": 2},
                         "paint": {"fill-antialias": false, "fill-translate": {"stops": [[0, [0, 0]], [10, [10, 20]]]}}},
                        {"id": "c", "type": "circle", "source": "g",
                         "paint": {"circle-pitch-scale": "viewport", "circle-pitch-alignment": "map", "circle-translate": [1, 1]}}]}
            """#
        let loaded = try Style.parse(Data(json.utf8), file: "paint.json")
        #expect(loaded.warnings.isEmpty)
        let kinds = loaded.style.layers.map(\.kind)
        guard case .line(let plain) = kinds[0], case .line(let line) = kinds[1], case .fill(let fill) = kinds[2],
            case .circle(let circle) = kinds[3]
        else { return #expect(Bool(false), "line, fill and circle layers expected") }
        #expect(
            plain.offset.value(atZoom: 0) == 0 && plain.gapWidth.value(atZoom: 0) == 0
                && plain.blur.value(atZoom: 0) == 0)
        #expect(
            plain.translate.value(atZoom: 0) == .zero && plain.translateAnchor.value(atZoom: 0) == .map
                && plain.sortKey == nil)
        #expect(
            line.offset.value(atZoom: 0) == -3 && line.gapWidth.value(atZoom: 0) == 4
                && line.blur.value(atZoom: 0) == 1.5)
        #expect(
            line.translate.value(atZoom: 0) == Translation(xPoints: 2, yPoints: -1)
                && line.translateAnchor.value(atZoom: 0) == .viewport)
        #expect(line.sortKey?.value(atZoom: 0, properties: ["rank": .number(7)]) == 7)
        #expect(!fill.antialias.value(atZoom: 0) && fill.sortKey?.value(atZoom: 0) == 2)
        // A translation interpolates between zoom stops.
        #expect(fill.translate.value(atZoom: 5) == Translation(xPoints: 5, yPoints: 10))
        #expect(circle.pitchScale.value(atZoom: 0) == .viewport && circle.pitchAlignment.value(atZoom: 0) == .map)
        #expect(circle.translate.value(atZoom: 0) == Translation(xPoints: 1, yPoints: 1))
    }

    @Test func symbolsReadTheirIconsAndCollisionFlagsWithMapLibresDefaults() throws {
        let json = #"""
            {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Point", "coordinates": [0, 0]}}},
             "layers": [{"id": "plain", "type": "symbol", "source": "g", "layout": {"text-field": "x"}},
                        {"id": "icons", "type": "symbol", "source": "g",
                         "layout": {"icon-image": "{class}_15", "icon-size": ["get", "size"], "icon-anchor": "bottom", "icon-offset": [0, -2],
                                    "icon-rotate": 45, "icon-padding": 1, "icon-allow-overlap": true, "icon-ignore-placement": true,
                                    "icon-optional": true, "text-allow-overlap": true, "text-optional": true, "text-padding": 3},
                         "paint": {"icon-color": "rgb(255, 0, 0)", "icon-halo-width": 1, "icon-opacity": 0.5}},
                        {"id": "legacy", "type": "symbol", "source": "g", "layout": {"icon-image": {"stops": [[0, "a"], [5, "b"]]}}}]}
            """#
        let loaded = try Style.parse(Data(json.utf8), file: "icons.json")
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        let kinds = loaded.style.layers.map(\.kind)
        guard case .symbol(let plain) = kinds[0], case .symbol(let icons) = kinds[1],
            case .symbol(let legacy) = kinds[2]
        else {
            return #expect(Bool(false), "symbol layers expected")
        }
        #expect(
            plain.iconImage == nil && plain.iconSize.value(atZoom: 0) == 1 && plain.iconPadding.value(atZoom: 0) == 2)
        #expect(plain.iconAnchor.value(atZoom: 0) == .center && plain.textPadding.value(atZoom: 0) == 2)
        #expect(!plain.iconAllowOverlap.value(atZoom: 0) && !plain.textOptional.value(atZoom: 0))
        #expect(icons.iconName(for: ["class": "park", "size": 2], atZoom: 0) == "park_15")
        #expect(icons.iconSize.value(atZoom: 0, properties: ["size": 2]) == 2)
        #expect(
            icons.iconAnchor.value(atZoom: 0) == .bottom
                && icons.iconOffset.value(atZoom: 0) == Translation(xPoints: 0, yPoints: -2))
        #expect(
            icons.iconAllowOverlap.value(atZoom: 0) && icons.iconIgnorePlacement.value(atZoom: 0)
                && icons.iconOptional.value(atZoom: 0))
        #expect(
            icons.textAllowOverlap.value(atZoom: 0) && icons.textOptional.value(atZoom: 0)
                && icons.textPadding.value(atZoom: 0) == 3)
        #expect(
            icons.iconColor.value(atZoom: 0) == Color(red: 1, green: 0, blue: 0)
                && icons.iconOpacity.value(atZoom: 0) == 0.5)
        #expect(legacy.iconName(for: [:], atZoom: 2) == "a" && legacy.iconName(for: [:], atZoom: 6) == "b")
    }

    @Test func labelPlacementRulesAreNamedInTheMetadata() throws {
        func placement(_ labels: String) throws -> MapwrightMetadata.Labels.Placement {
            let json =
                #"{"version": 8, "metadata": {"mapwright": {"labels": "# + labels + #"}}, "sources": {}, "layers": []}"#
            return try Style.parse(Data(json.utf8), file: "labels.json").style.mapwright.labels.placement
        }
        #expect(try placement("{}") == .maplibre)
        #expect(try placement(#"{"placement": "inside-view"}"#) == .insideView)
        #expect(throws: StyleError.self) { try placement(#"{"placement": "nowhere"}"#) }
        do {
            _ = try placement(#"{"placement": "nowhere"}"#)
        } catch {
            #expect("\(error)".contains("placement is 'maplibre' or 'inside-view', found 'nowhere'"), "\(error)")
        }
    }

    @Test func zoomRangeIsHalfOpen() {
        let layer = StyleLayer(id: "l", kind: .fill(FillLayer()), source: "b", minZoom: 3, maxZoom: 6)
        #expect(!layer.isVisible(atZoom: 2.99))
        #expect(layer.isVisible(atZoom: 3))
        #expect(layer.isVisible(atZoom: 5.99))
        #expect(!layer.isVisible(atZoom: 6))
    }

    @Test func layersWithoutLimitsShowAtEveryZoom() {
        let layer = StyleLayer(id: "l", kind: .background(BackgroundLayer()))
        #expect(layer.isVisible(atZoom: 0) && layer.isVisible(atZoom: 24))
        #expect(layer.type == .background)
    }

    @Test func visibilityNoneHidesTheLayer() {
        let layer = StyleLayer(id: "l", kind: .line(LineLayer()), source: "b", visibility: .none)
        #expect(!layer.isVisible(atZoom: 5))
    }

    @Test func layersWithoutAFilterIncludeEveryFeature() {
        let layer = StyleLayer(id: "l", kind: .line(LineLayer()), source: "b")
        #expect(layer.includes([:]))
        let filtered = StyleLayer(id: "l", kind: .line(LineLayer()), source: "b", filter: .has("name"))
        #expect(!filtered.includes([:]) && filtered.includes(["name": "x"]))
    }

    @Test func styleListsTheLayersVisibleAtAZoom() {
        let style = Style(
            id: "s",
            layers: [
                StyleLayer(id: "sea", kind: .background(BackgroundLayer())),
                StyleLayer(id: "states", kind: .line(LineLayer()), source: "b", minZoom: 4),
                StyleLayer(id: "world", kind: .line(LineLayer()), source: "b", maxZoom: 4),
            ])
        #expect(style.layers(visibleAtZoom: 3).map(\.id) == ["sea", "world"])
        #expect(style.layers(visibleAtZoom: 4).map(\.id) == ["sea", "states"])
    }

    @Test func defaultsFollowTheSpecificationExceptTheFont() {
        let symbol = SymbolLayer()
        #expect(symbol.textSize.value(atZoom: 0) == 16)
        #expect(symbol.textMaxWidth.value(atZoom: 0) == 10)
        #expect(symbol.textHaloColor.value(atZoom: 0) == .transparent)
        #expect(symbol.textFont.value(atZoom: 0) == ["DejaVu Sans Book"])
        let line = LineLayer()
        #expect(
            line.width.value(atZoom: 0) == 1 && line.cap.value(atZoom: 0) == .butt
                && line.join.value(atZoom: 0) == .miter)
        #expect(FillLayer().outlineColor == nil && FillLayer().color.value(atZoom: 0) == .black)
    }
}
