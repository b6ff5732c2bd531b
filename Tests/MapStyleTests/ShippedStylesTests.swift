import Foundation
import MapJSON
import Testing

@testable import MapStyle

struct ShippedStylesTests {
    /// The repository's `Styles` directory.
    private static let stylesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Styles")

    private static let shipped = [
        "dark", "hybrid", "muted", "satellite", "standard", "streets", "streets-dark", "streets-muted",
    ]

    @Test func everyShippedStyleIsListed() {
        #expect(Style.availableNames(in: Self.stylesDirectory) == Self.shipped)
    }

    @Test(arguments: shipped)
    func shippedStyleLoadsWithoutWarnings(name: String) throws {
        let (style, warnings) = try Style.named(name, in: Self.stylesDirectory)
        #expect(warnings.isEmpty, "\(warnings.map(\.description))")
        #expect(style.id == name)
        #expect(style.layers.first?.type == .background, "the background is the sea and must come first")
    }

    @Test(arguments: ["dark", "muted", "standard"])
    func vectorStylesDrawTheBasemapWithLabelsThatGrowWithZoom(name: String) throws {
        let style = try Style.named(name, in: Self.stylesDirectory).style
        #expect(style.unconfiguredRasterSourceIDs.isEmpty)
        try style.requireConfiguredRasterSources()
        guard case .vector(let basemap) = style.sources["basemap"] else { return #expect(Bool(false)) }
        #expect(basemap.location == .basemap(name: "world"))
        #expect(
            Set(
                style.layers.filter { !["streets", "streets-protomaps"].contains($0.source) }.compactMap(\.sourceLayer))
                == [
                    "countries", "states_provinces", "disputed_borders", "populated_places", "rivers", "lakes",
                ])
        guard case .vector(let places) = style.sources["places"] else { return #expect(Bool(false)) }
        #expect(places.location == .basemap(name: "places"))
        #expect(
            style.attributionText
                == "Made with Natural Earth · GeoNames (CC BY 4.0) · GSHHG · © OpenStreetMap contributors")
        // Street-level layers from the registered basemaps (basemap://streets), from MapLibre
        // zoom 10 (render --zoom 11), between the world's areas and its labels.
        guard case .vector(let streets) = style.sources["streets"] else { return #expect(Bool(false)) }
        #expect(streets.location == .streetBasemaps(.openMapTiles))
        let streetLayers = style.layers.filter { $0.source == "streets" }
        #expect(
            streetLayers.count > 20
                && streetLayers.allSatisfy { $0.id.hasPrefix("streets-") && ($0.minZoom ?? 0) >= 10 })
        let ids = style.layers.map(\.id)
        #expect(try #require(ids.firstIndex(of: "streets-road")) > #require(ids.firstIndex(of: "land")))
        #expect(try #require(ids.firstIndex(of: "streets-road-name")) < #require(ids.firstIndex(of: "place-labels")))
        // Each drawn again from Protomaps' schema (basemap://streets-protomaps), right after it.
        guard case .vector(let protomaps) = style.sources["streets-protomaps"] else { return #expect(Bool(false)) }
        #expect(protomaps.location == .streetBasemaps(.protomaps))
        for layer in streetLayers {
            let twin = layer.id.replacingOccurrences(of: "streets-", with: "streets-protomaps-")
            #expect(ids.firstIndex(of: twin) == ids.firstIndex(of: layer.id).map { $0 + 1 }, "\(twin)")
        }
        // Towns by population: more of them the closer the view, capitals sooner.
        let towns = try #require(style.layers.first { $0.id == "place-labels" })
        let capitals = try #require(style.layers.first { $0.id == "capital-labels" })
        let lyon: [String: FeatureValue] = ["name": "Lyon", "capital": 0, "scalerank": 3]
        let bern: [String: FeatureValue] = ["name": "Bern", "capital": 1, "scalerank": 5]
        // The style's zooms are MapLibre's: `render --zoom 5` reads it at 4.
        #expect(!towns.includes(lyon, zoom: 3.5) && towns.includes(lyon, zoom: 4))
        #expect(!capitals.includes(bern, zoom: 3) && capitals.includes(bern, zoom: 4))
        #expect(!towns.includes(bern, zoom: 12), "capitals are in the capitals' layer")
        #expect(
            style.layers.firstIndex { $0.id == "capital-labels" }! < style.layers.firstIndex {
                $0.id == "country-labels"
            }!,
            "country names place before capitals (upper layers place first)")

        let labels = try #require(style.layers.first { $0.id == "country-labels" })
        guard case .symbol(let symbol) = labels.kind else { return #expect(Bool(false)) }
        #expect(symbol.label(for: ["NAME": "France"], atZoom: 3)?.lowercased() == "france")
        #expect(symbol.textSize.value(atZoom: 6) > symbol.textSize.value(atZoom: 2))
        #expect(!labels.isVisible(atZoom: 0) && labels.isVisible(atZoom: 1))
        #expect(
            labels.isVisible(atZoom: 4.9) && !labels.isVisible(atZoom: 5),
            "from render zoom 6 a view is a region: its towns, not its country's name")

        let states = try #require(style.layers.first { $0.id == "state-borders" })
        guard case .line(let line) = states.kind else { return #expect(Bool(false)) }
        #expect(line.dashArray != nil)
        #expect(line.width.value(atZoom: 8) > line.width.value(atZoom: 4))
        #expect(!states.isVisible(atZoom: 2) && states.isVisible(atZoom: 3))
    }

    /// The OpenMapTiles schema's layers (openmaptiles.org/schema) the streets styles draw.
    private static let openMapTilesLayers: Set<String> = [
        "water", "waterway", "landcover", "landuse", "park", "transportation", "transportation_name", "building",
        "place",
        "poi", "boundary", "aeroway", "water_name", "housenumber",
    ]

    @Test(arguments: ["streets", "streets-dark", "streets-muted"])
    func streetStylesDrawEveryOpenMapTilesLayerAndWaitForVectorTiles(name: String) throws {
        let style = try Style.named(name, in: Self.stylesDirectory).style
        #expect(Set(style.layers.compactMap(\.sourceLayer)) == Self.openMapTilesLayers)
        #expect(style.unconfiguredVectorSourceIDs == ["openmaptiles"])
        #expect(style.drawsVectorTiles)
        let error = #expect(throws: StyleError.self) { try style.requireConfiguredVectorSources() }
        #expect(error?.kind == .unconfiguredVectorSources(style: name, sourceIDs: ["openmaptiles"]))
        let configured = try style.configuringVectorSources(URL(fileURLWithPath: "/data/city.pmtiles"))
        guard case .vector(let source) = configured.sources["openmaptiles"] else { return #expect(Bool(false)) }
        #expect(source.location == .tileset(URL(fileURLWithPath: "/data/city.pmtiles")))
        try configured.requireConfiguredVectorSources()
        // Street names along streets, place and POI names at points.
        let names = try #require(style.layers.first { $0.id == "road-name" })
        guard case .symbol(let symbol) = names.kind else { return #expect(Bool(false)) }
        #expect(symbol.placement.value(atZoom: 15) == .line)
        #expect(
            symbol.label(for: ["name:latin": "Mannerheimintie", "name": "Mannerheimintie"], atZoom: 15)
                == "Mannerheimintie")
    }

    @Test func theStreetVariantsAreCurrentWithStreets() throws {
        // scripts/tools/street-styles.py writes them from streets.json; run it into a
        // temporary folder and compare.
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("street-styles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let script = Self.stylesDirectory.deletingLastPathComponent().appendingPathComponent(
            "scripts/tools/street-styles.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, Self.stylesDirectory.path, output.path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for variant in ["streets-dark.json", "streets-muted.json"] {
            let made = try Data(contentsOf: output.appendingPathComponent(variant))
            let shipped = try Data(contentsOf: Self.stylesDirectory.appendingPathComponent(variant))
            #expect(
                made == shipped,
                "Styles/\(variant) is not what scripts/tools/street-styles.py makes from streets.json: run it")
        }
    }

    @Test(arguments: ["hybrid", "satellite"])
    func imageryStylesReportTheirUnconfiguredRasterSource(name: String) throws {
        let style = try Style.named(name, in: Self.stylesDirectory).style
        #expect(style.unconfiguredRasterSourceIDs == ["imagery"])
        let error = #expect(throws: StyleError.self) { try style.requireConfiguredRasterSources() }
        #expect(error?.kind == .unconfiguredRasterSources(style: name, sourceIDs: ["imagery"]))
        #expect(error?.description.hasPrefix("style '\(name)' needs a raster source ('imagery' has no tiles)") == true)
    }

    @Test(arguments: ["hybrid", "satellite"])
    func imageryStylesCanBeConfiguredWithTilesOrMBTiles(name: String) throws {
        let style = try Style.named(name, in: Self.stylesDirectory).style
        let templated = try style.configuringRasterSources(
            RasterTileLocation(argument: "https://t.example.com/{z}/{x}/{y}.jpg"))
        try templated.requireConfiguredRasterSources()
        guard case .raster(let raster) = templated.sources["imagery"] else { return #expect(Bool(false)) }
        #expect(raster.tiles == .templates(["https://t.example.com/{z}/{x}/{y}.jpg"]))

        let mbtiles = try style.configuringRasterSources(
            RasterTileLocation(argument: "/data/aerial.mbtiles"), id: "imagery")
        #expect(mbtiles.unconfiguredRasterSourceIDs.isEmpty)
        #expect(throws: StyleError(.unknownSource("basemap"))) {
            try style.configuringRasterSources(.templates(["x/{z}/{x}/{y}"]), id: "basemap")
        }
    }

    @Test func hybridDrawsWhiteLabelsWithDarkHalosOverTheImagery() throws {
        let style = try Style.named("hybrid", in: Self.stylesDirectory).style
        #expect(style.layers.map(\.type).prefix(2) == [.background, .raster])
        let labels = try #require(style.layers.first { $0.id == "country-labels" })
        guard case .symbol(let symbol) = labels.kind else { return #expect(Bool(false)) }
        #expect(symbol.textColor.value(atZoom: 4) == .white)
        #expect(symbol.textHaloColor.value(atZoom: 4).red == 0 && symbol.textHaloWidth.value(atZoom: 4) > 1)
    }
}
