import Foundation
import MapCore
import Testing

@testable import MapStyle

/// Raster and hillshade paint, raster-dem and image sources, and TileJSON `url`s.
struct RasterLayerTests {
    private func parse(_ json: String, baseURL: URL? = nil) throws(StyleError) -> (
        style: Style, warnings: [StyleWarning]
    ) {
        try Style.parse(Data(json.utf8), id: "x", file: "x.json", baseURL: baseURL)
    }

    @Test func rasterPaintIsReadWithMapLibresDefaults() throws {
        let (style, warnings) = try parse(
            """
            {"version": 8, "sources": {"r": {"type": "raster", "tiles": ["https://x/{z}/{x}/{y}.png"], "tileSize": 256}},
             "layers": [{"id": "plain", "type": "raster", "source": "r"},
                        {"id": "tuned", "type": "raster", "source": "r", "paint": {
                          "raster-brightness-min": 0.2, "raster-brightness-max": 0.8, "raster-saturation": -1,
                          "raster-contrast": 0.5, "raster-hue-rotate": 90, "raster-resampling": "nearest",
                          "raster-fade-duration": 0, "raster-opacity": {"stops": [[0, 0], [10, 1]]}}}]}
            """)
        #expect(warnings.isEmpty)
        guard case .raster(let plain) = style.layers[0].kind, case .raster(let tuned) = style.layers[1].kind else {
            return #expect(Bool(false))
        }
        #expect(plain == RasterLayer())
        #expect(plain.colorAdjustment(atZoom: 3).isIdentity)
        #expect(tuned.resampling.value(atZoom: 0) == .nearest)
        #expect(tuned.opacity.value(atZoom: 5) == 0.5)
        #expect(
            tuned.colorAdjustment(atZoom: 0)
                == RasterColorAdjustment(
                    hueRotateDegrees: 90, brightnessMin: 0.2, brightnessMax: 0.8, saturation: -1, contrast: 0.5))
    }

    @Test func colorAdjustmentFollowsMapLibresShader() {
        // Brightness maps black and white to the bounds.
        let dim = RasterColorAdjustment(brightnessMin: 0.25, brightnessMax: 0.75)
        #expect(dim.adjusted(red: 0, green: 0, blue: 0) == (0.25, 0.25, 0.25))
        #expect(dim.adjusted(red: 1, green: 1, blue: 1) == (0.75, 0.75, 0.75))
        // Saturation −1 makes every component the mean.
        let grey = RasterColorAdjustment(saturation: -1).adjusted(red: 0.9, green: 0.3, blue: 0)
        #expect(abs(grey.red - 0.4) < 1e-12 && abs(grey.green - 0.4) < 1e-12 && abs(grey.blue - 0.4) < 1e-12)
        // Contrast 0.5 doubles the distance from mid-grey, clamped.
        let contrast = RasterColorAdjustment(contrast: 0.5).adjusted(red: 0.6, green: 0.5, blue: 0.9)
        #expect(abs(contrast.red - 0.7) < 1e-12 && contrast.green == 0.5 && contrast.blue == 1)
        // A hue turned by 120° moves red to green; by 360°, nothing changes.
        let turned = RasterColorAdjustment(hueRotateDegrees: 120).adjusted(red: 1, green: 0, blue: 0)
        #expect(abs(turned.red) < 1e-9 && abs(turned.green - 1) < 1e-9 && abs(turned.blue) < 1e-9)
        #expect(RasterColorAdjustment(hueRotateDegrees: 360).isIdentity)
    }

    @Test func hillshadeLayersReadEveryPaintPropertyOverARasterDEMSource() throws {
        let (style, warnings) = try parse(
            """
            {"version": 8, "sources": {"dem": {"type": "raster-dem", "tiles": ["https://x/{z}/{x}/{y}.png"], "encoding": "terrarium",
                                               "tileSize": 256, "maxzoom": 15, "bounds": [-10, -20, 30, 40]}},
             "layers": [{"id": "h", "type": "hillshade", "source": "dem", "paint": {
               "hillshade-illumination-direction": 90, "hillshade-illumination-anchor": "map", "hillshade-exaggeration": 0.8,
               "hillshade-shadow-color": "#ff0000", "hillshade-highlight-color": "rgba(0, 255, 0, 0.5)",
               "hillshade-accent-color": "blue", "hillshade-method": "igor", "hillshade-illumination-altitude": 30}}]}
            """)
        #expect(warnings.isEmpty)
        guard case .rasterDEM(let dem)? = style.sources["dem"], case .hillshade(let hillshade) = style.layers[0].kind
        else {
            return #expect(Bool(false))
        }
        #expect(dem.encoding == .terrarium && dem.tiles.tileSize == 256 && dem.tiles.maxZoom == 15)
        #expect(dem.tiles.bounds == BoundingBox(west: -10, south: -20, east: 30, north: 40))
        #expect(style.layers[0].type == .hillshade)
        #expect(
            hillshade.illuminationDirection.value(atZoom: 0) == 90
                && hillshade.illuminationAnchor.value(atZoom: 0) == .map)
        #expect(hillshade.exaggeration.value(atZoom: 0) == 0.8 && hillshade.method.value(atZoom: 0) == .igor)
        #expect(hillshade.shadowColor.value(atZoom: 0) == Color(red: 1, green: 0, blue: 0))
        #expect(hillshade.highlightColor.value(atZoom: 0) == Color(red: 0, green: 1, blue: 0, alpha: 0.5))
        #expect(hillshade.accentColor.value(atZoom: 0) == Color(red: 0, green: 0, blue: 1))
        #expect(HillshadeLayer().illuminationDirection.value(atZoom: 0) == 335)
        #expect(HillshadeLayer().illuminationAnchor.value(atZoom: 0) == .viewport)
    }

    @Test func demEncodingsGiveKnownElevations() {
        // Terrarium: R·256 + G + B/256 − 32768.
        #expect(DEMEncoding.terrarium.elevationMeters(red: 128, green: 0, blue: 0) == 0)
        #expect(DEMEncoding.terrarium.elevationMeters(red: 139, green: 8, blue: 128) == 2824.5)
        // Mapbox Terrain-RGB: (R·65536 + G·256 + B)/10 − 10000.
        #expect(abs(DEMEncoding.mapbox.elevationMeters(red: 1, green: 134, blue: 160) - 0) < 1e-9)
        #expect(abs(DEMEncoding.mapbox.elevationMeters(red: 1, green: 204, blue: 160) - 1792) < 1e-9)
        // Custom factors.
        #expect(
            DEMEncoding(redFactor: 1, greenFactor: 2, blueFactor: 3, baseShift: 4).elevationMeters(
                red: 1, green: 1, blue: 1) == 2)
    }

    @Test func hillshadeNeedsARasterDEMSource() {
        let json =
            #"{"version": 8, "sources": {"r": {"type": "raster", "tiles": ["https://x/{z}/{x}/{y}.png"]}}, "layers": [{"id": "h", "type": "hillshade", "source": "r"}]}"#
        let error = #expect(throws: StyleError.self) { try parse(json) }
        #expect(
            error?.description
                == "x.json: layers[0] (h).source: a hillshade layer needs a raster-dem source; 'r' is not one")
    }

    @Test func imageSourcesReadTheirFileAndFourCorners() throws {
        let (style, _) = try parse(
            """
            {"version": 8, "sources": {"i": {"type": "image", "url": "overlay.png",
               "coordinates": [[-10, 20], [10, 20], [10, -20], [-10, -20]]}},
             "layers": [{"id": "i", "type": "raster", "source": "i", "paint": {"raster-opacity": 0.5}}]}
            """, baseURL: URL(fileURLWithPath: "/maps", isDirectory: true))
        guard case .image(let image)? = style.sources["i"] else { return #expect(Bool(false)) }
        #expect(image.url == URL(fileURLWithPath: "/maps/overlay.png"))
        #expect(
            image.corners.map(\.longitude) == [-10, 10, 10, -10] && image.corners.map(\.latitude) == [20, 20, -20, -20])
        let threeCorners =
            #"{"version": 8, "sources": {"i": {"type": "image", "url": "a.png", "coordinates": [[0, 0], [1, 0], [1, 1]]}}, "layers": []}"#
        let error = #expect(throws: StyleError.self) { try parse(threeCorners) }
        #expect(error?.description.contains("sources.i.coordinates: an image source has four corners") == true)
    }

    @Test func imageCornersKeepTheirLongitudesAsWritten() throws {
        let (style, _) = try parse(
            """
            {"version": 8, "sources": {"i": {"type": "image", "url": "overlay.png",
               "coordinates": [[-270, 80], [90, 80], [90, -80], [-270, -80]]}}, "layers": []}
            """)
        guard case .image(let image)? = style.sources["i"] else { return #expect(Bool(false)) }
        #expect(image.longitudes == [-270, 90, 90, -270])
        #expect(image.corners.map(\.longitude) == [90, 90, 90, 90])
    }

    @Test func aTileJSONURLGivesTilesZoomsBoundsAndSchemeTheSourceLeavesOut() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapwright-tilejson-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(
            """
            {"tilejson": "2.2.0", "tiles": ["tiles/{z}/{x}/{y}.png"], "minzoom": 2, "maxzoom": 9, "scheme": "tms",
             "bounds": [-5, 40, 10, 52], "attribution": "© Example"}
            """.utf8
        ).write(to: directory.appendingPathComponent("imagery.json"))
        try Data(#"{"tiles": ["file:///data/{z}/{x}/{y}.mvt"], "maxzoom": 14, "bounds": [0, 0, 1, 1]}"#.utf8)
            .write(to: directory.appendingPathComponent("vector.json"))
        let (style, warnings) = try parse(
            """
            {"version": 8, "sources": {
               "r": {"type": "raster", "url": "imagery.json", "tileSize": 256, "maxzoom": 8},
               "v": {"type": "vector", "url": "file://\(directory.path)/vector.json", "bounds": [2, 3, 4, 5]}},
             "layers": []}
            """, baseURL: URL(fileURLWithPath: directory.path, isDirectory: true))
        #expect(warnings.isEmpty)
        guard case .raster(let raster)? = style.sources["r"], case .vector(let vector)? = style.sources["v"] else {
            return #expect(Bool(false))
        }
        #expect(raster.tiles == .templates(["file://\(directory.path)/tiles/{z}/{x}/{y}.png"]))
        // The source's own maxzoom wins over the TileJSON's.
        #expect(raster.minZoom == 2 && raster.maxZoom == 8 && raster.scheme == .tms && raster.tileSize == 256)
        #expect(
            raster.bounds == BoundingBox(west: -5, south: 40, east: 10, north: 52) && raster.attribution == "© Example")
        #expect(vector.location == .templates(["file:///data/{z}/{x}/{y}.mvt"], scheme: .xyz))
        #expect(vector.maxZoom == 14 && vector.bounds == BoundingBox(west: 2, south: 3, east: 4, north: 5))
    }

    @Test func aMissingTileJSONIsAnErrorAtTheURL() {
        let json =
            #"{"version": 8, "sources": {"r": {"type": "raster", "url": "file:///nowhere/tiles.json"}}, "layers": []}"#
        let error = #expect(throws: StyleError.self) { try parse(json) }
        #expect(
            error?.description.hasPrefix("x.json: sources.r.url: cannot read the TileJSON 'file:///nowhere/tiles.json'")
                == true)
    }
}
