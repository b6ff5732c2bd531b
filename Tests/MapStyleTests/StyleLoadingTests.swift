import Foundation
import MapCore
import MapJSON
import Testing

@testable import MapStyle

struct StyleLoadingTests {
    private func parse(_ json: String) throws(StyleError) -> (style: Style, warnings: [StyleWarning]) {
        try Style.parse(Data(json.utf8), id: "x", file: "Styles/x.json")
    }

    private func expectError(_ json: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: StyleError.self, sourceLocation: sourceLocation) { try parse(json) }
        #expect(error?.description == message, sourceLocation: sourceLocation)
    }

    private let basemap = #""sources": {"b": {"type": "vector", "url": "basemap://world"}}"#

    @Test func minimalStyleLoadsWithDefaults() throws {
        let (style, warnings) = try parse(#"{"version": 8, "sources": {}, "layers": []}"#)
        #expect(warnings.isEmpty)
        #expect(style.id == "x" && style.name == nil && style.layers.isEmpty)
        #expect(style.mapwright == MapwrightMetadata())
    }

    @Test func unknownKeysAreWarningsWithPaths() throws {
        let (style, warnings) = try parse(
            """
            {"version": 8, "glyphs": "https://example.com/{fontstack}/{range}.pbf", "colour": 1,
             "metadata": {"maputnik:renderer": "mlgljs", "mapwright": {"pins": {"glow": 1}, "extras": {}}},
             "sources": {"b": {"type": "vector", "url": "basemap://world", "volatile": true}},
             "layers": [
               {"id": "sea", "type": "background", "paint": {"background-color": "#aad3df"}, "interactive": true},
               {"id": "land", "type": "fill", "source": "b", "source-layer": "countries", "paint": {"fill-pattern": "dots"}},
               {"id": "borders", "type": "line", "source": "b", "source-layer": "countries",
                "paint": {"line-cap": "round", "line-width": {"stops": [[0, 1]], "colorSpace": "lab"}}},
               {"id": "country-labels", "type": "symbol", "source": "b", "source-layer": "countries",
                "layout": {"text-field": "{NAME}", "text-color": "#000"}, "paint": {"text-glow": 2}}
             ]}
            """)
        #expect(style.layers.count == 4)
        // Glyphs over HTTP are kept as written (text is then drawn with the installed fonts).
        #expect(style.glyphs == "https://example.com/{fontstack}/{range}.pbf")
        // A fill with a pattern draws the sprite's image (no sprite here: a warning once drawn).
        guard case .fill(let land) = style.layers[1].kind else { return #expect(Bool(false), "not a fill") }
        #expect(style.layers[1].visibility == .visible && land.pattern?.value(atZoom: 3).name == "dots")
        #expect(
            warnings.map(\.description) == [
                "Styles/x.json: unknown root key 'colour' (ignored)",
                "Styles/x.json: metadata.mapwright: unknown Mapwright section 'extras' (ignored)",
                "Styles/x.json: metadata.mapwright.pins: unknown key 'glow' (ignored)",
                "Styles/x.json: sources.b: unknown or unsupported key 'volatile' of a vector source (ignored)",
                "Styles/x.json: layers[0] (sea): unknown layer key 'interactive' (ignored)",
                "Styles/x.json: layers[2] (borders): 'line-cap' is a layout property, not a paint property (ignored)",
                "Styles/x.json: layers[2] (borders).paint.line-width: unknown or unsupported key 'colorSpace' in a zoom function (ignored)",
                "Styles/x.json: layers[3] (country-labels): unknown paint property 'text-glow' for a symbol layer (ignored)",
                "Styles/x.json: layers[3] (country-labels): 'text-color' is a paint property, not a layout property (ignored)",
            ])
    }

    /// The root `sprite`: a path (the sprite `default`, resolved against the style's folder) or
    /// an array of `{id, url}`; `*-pattern` properties name its images, as constants or expressions.
    @Test func spritesAndPatternsAreRead() throws {
        let (style, warnings) = try parse(
            """
            {"version": 8, "sprite": "sprites/bright", "sources": {}, "layers": [
              {"id": "paper", "type": "background", "paint": {"background-pattern": "paper"}}]}
            """)
        #expect(warnings.isEmpty)
        #expect(style.sprites.map(\.id) == ["default"])
        let base = try #require(style.sprites.first)
        #expect(base.url.path.hasSuffix("/sprites/bright"))
        #expect(base.indexURL(pixelRatio: 1).lastPathComponent == "bright.json")
        #expect(base.imageURL(pixelRatio: 2).lastPathComponent == "bright@2x.png")
        guard case .background(let background) = style.layers[0].kind else {
            return #expect(Bool(false), "not a background")
        }
        #expect(background.pattern?.value(atZoom: 0).name == "paper")

        let (several, _) = try parse(
            """
            {"version": 8, "sprite": [{"id": "default", "url": "/srv/sprites/base"}, {"id": "signs", "url": "https://example.com/signs?key=1"}],
             "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
             "layers": [{"id": "roads", "type": "line", "source": "s",
                         "paint": {"line-pattern": ["case", ["==", ["get", "kind"], "rail"], "signs:rail", ["image", "dots"]]}}]}
            """)
        #expect(several.sprites.map(\.id) == ["default", "signs"])
        #expect(several.sprites[1].imageURL(pixelRatio: 2).absoluteString == "https://example.com/signs@2x.png?key=1")
        #expect(several.sprites[1].qualifiedName("rail") == "signs:rail")
        guard case .line(let roads) = several.layers[0].kind, let pattern = roads.pattern else {
            return #expect(Bool(false), "no pattern")
        }
        #expect(pattern.value(atZoom: 5, properties: ["kind": .string("rail")]).name == "signs:rail")
        #expect(pattern.value(atZoom: 5, properties: [:]).name == "dots")

        let error = try #require(throws: StyleError.self) {
            try parse(
                #"{"version": 8, "sprite": [{"id": "a", "url": "x"}, {"id": "a", "url": "y"}], "sources": {}, "layers": []}"#
            )
        }
        #expect(error.description == "Styles/x.json: sprite[1].id: the sprite id 'a' is used twice")
    }

    /// The root `sky` (MapLibre Style Specification, "Sky"): colours and blends, constants or
    /// zoom functions; the blends MapLibre draws for its globe are warned about; a blend outside
    /// [0, 1] is an error naming its path.
    @Test func theRootSkyIsReadWithItsZoomFunctions() throws {
        let (style, warnings) = try parse(
            """
            {"version": 8, "sources": {}, "layers": [],
             "sky": {"sky-color": "#199EF3", "horizon-color": "rgb(255, 255, 255)", "fog-color": "#0000ff",
                     "sky-horizon-blend": 0.5, "fog-ground-blend": ["interpolate", ["linear"], ["zoom"], 0, 0.2, 10, 0.8],
                     "horizon-fog-blend": 0.8, "atmosphere-blend": 1, "sky-glow": 2}}
            """)
        #expect(style.sky.skyColor?.value(atZoom: 3) == (try Color(css: "#199EF3")))
        #expect(style.sky.horizonColor?.value(atZoom: 3) == .white)
        #expect(style.sky.fogColor?.value(atZoom: 3) == Color(red: 0, green: 0, blue: 1))
        #expect(style.sky.skyHorizonBlend?.value(atZoom: 12) == 0.5)
        #expect(abs((style.sky.fogGroundBlend?.value(atZoom: 5) ?? 0) - 0.5) < 1e-12)
        #expect(
            warnings.map(\.description) == [
                "Styles/x.json: sky: unknown sky property 'sky-glow' (ignored)",
                "Styles/x.json: sky: 'atmosphere-blend' is not used by Mapwright (ignored)",
                "Styles/x.json: sky: 'horizon-fog-blend' is not used by Mapwright (ignored)",
            ])
        #expect(try parse(#"{"version": 8, "sources": {}, "layers": []}"#).style.sky == Sky())
        let error = #expect(throws: StyleError.self) {
            try parse(#"{"version": 8, "sources": {}, "layers": [], "sky": {"sky-horizon-blend": 2}}"#)
        }
        #expect(
            error?.description.hasPrefix("Styles/x.json: sky.sky-horizon-blend:") == true,
            "\(String(describing: error))")
    }

    @Test func malformedStylesAreErrorsNamingFileAndPath() {
        let jsonError = #expect(throws: StyleError.self) { try parse(#"{"version": 8,"#) }
        #expect(jsonError?.description == "Styles/x.json: is not valid JSON: it ends early, at line 1")
        expectError(
            #"{"version": 7, "sources": {}, "layers": []}"#,
            "Styles/x.json: version: style version 7 is not supported: the MapLibre Style Specification version is 8")
        expectError(#"{"version": 8, "layers": []}"#, "Styles/x.json: missing required key 'sources'")
        expectError(
            #"{"version": 8, \#(basemap), "layers": {}}"#,
            #"Styles/x.json: layers: expected an array, found an object ({})"#)
        expectError(
            #"{"version": 8, \#(basemap), "layers": [{"id": "a", "type": "model", "source": "b"}]}"#,
            "Styles/x.json: layers[0] (a).type: unknown layer type 'model': expected one of background, fill, line, symbol, raster, circle, hillshade, heatmap, fill-extrusion"
        )
        expectError(
            #"{"version": 8, \#(basemap), "layers": [{"type": "fill"}]}"#,
            "Styles/x.json: layers[0]: missing required key 'id'")
        expectError(
            """
            {"version": 8, \(basemap), "layers": [{"id": "sea", "type": "background"},
             {"id": "bad", "type": "background"}, {"id": "land", "type": "fill", "source": "b", "source-layer": "c",
             "paint": {"fill-color": "blu"}}]}
            """, "Styles/x.json: layers[2] (land).paint.fill-color: 'blu' is not a colour")
        expectError(
            #"{"version": 8, \#(basemap), "layers": [{"id": "a", "type": "fill", "source": "b", "source-layer": "c", "paint": {"fill-opacity": "half"}}]}"#,
            #"Styles/x.json: layers[0] (a).paint.fill-opacity: expected a number, found a string ("half")"#)
        expectError(
            #"{"version": 8, \#(basemap), "layers": [{"id": "a", "type": "background"}, {"id": "a", "type": "background"}]}"#,
            "Styles/x.json: layers[1] (a).id: layer id 'a' is used by an earlier layer")
        expectError(
            #"{"version": 8, \#(basemap), "layers": [{"id": "a", "type": "fill", "source": "nope", "source-layer": "c"}]}"#,
            "Styles/x.json: layers[0] (a).source: no source named 'nope' in the style's sources")
        expectError(
            #"{"version": 8, \#(basemap), "layers": [{"id": "a", "type": "fill", "source": "b"}]}"#,
            "Styles/x.json: layers[0] (a): missing required key 'source-layer'")
        expectError(
            #"{"version": 8, \#(basemap), "layers": [{"id": "a", "type": "raster", "source": "b"}]}"#,
            "Styles/x.json: layers[0] (a).source: a raster layer needs a raster or image source; 'b' is neither")
        expectError(
            #"{"version": 8, \#(basemap), "layers": [{"id": "a", "type": "line", "source": "b", "source-layer": "c", "minzoom": 5, "maxzoom": 5}]}"#,
            "Styles/x.json: layers[0] (a).maxzoom: minzoom 5 is not below maxzoom 5: the layer would never show")
        expectError(
            #"{"version": 8, "sources": {"t": {"type": "vector", "url": "mapbox://mapbox.mapbox-streets-v8"}}, "layers": []}"#,
            "Styles/x.json: sources.t.url: vector source url 'mapbox://mapbox.mapbox-streets-v8' is not supported: use mbtiles://PATH, pmtiles://PATH, a PMTiles archive's https:// URL, basemap://NAME or the path of a GeoPackage (Mapwright reads tileset files, not TileJSON from tile servers)"
        )
        expectError(
            #"{"version": 8, "sources": {"t": {"type": "video", "urls": ["x.mp4"]}}, "layers": []}"#,
            "Styles/x.json: sources.t.type: source type 'video' is outside Mapwright's subset: expected vector, raster, raster-dem, image or geojson"
        )
        expectError(
            ##"{"version": 8, "sources": {}, "layers": [], "metadata": {"mapwright": {"pins": {"palette": ["#fff", "nope"]}}}}"##,
            "Styles/x.json: metadata.mapwright.pins.palette[1]: 'nope' is not a colour")
    }

    /// Public styles name a tile server's TileJSON (`https://api.maptiler.com/tiles/v3/tiles.json?key={key}`):
    /// the style loads, the source waits for `--vector-source`, and without it the error names the server.
    @Test func aTileServersTileJSONWaitsForTiles() throws {
        let json =
            #"{"version": 8, "sources": {"t": {"type": "vector", "url": "https://example.com/tiles.json?key={key}"}}, "layers": [{"id": "a", "type": "line", "source": "t", "source-layer": "road"}]}"#
        let (style, warnings) = try Style.parse(Data(json.utf8), id: "x")
        #expect(warnings.isEmpty)
        #expect(style.unconfiguredVectorSourceIDs == ["t"])
        #expect(throws: StyleError.self) { try style.requireConfiguredVectorSources() }
        do {
            try style.requireConfiguredVectorSources()
        } catch {
            #expect(
                error.description.contains(
                    "from a tile server (https://example.com/tiles.json?key={key}), which Mapwright does not fetch"))
        }
        let configured = try style.configuringVectorSources(URL(fileURLWithPath: "/data/helsinki.mbtiles"))
        #expect(configured.unconfiguredVectorSourceIDs.isEmpty)
    }

    @Test func sourcesResolveRelativePathsAgainstTheStyleFile() throws {
        let json = """
            {"version": 8, "sources": {
              "world": {"type": "vector", "url": "basemap://world", "attribution": "Natural Earth"},
              "mine": {"type": "vector", "url": "../data/trips.gpkg"},
              "abs": {"type": "vector", "url": "file:///srv/maps/x.gpkg"},
              "track": {"type": "geojson", "data": "track.geojson"},
              "photo": {"type": "raster", "url": "mbtiles://aerial.mbtiles", "scheme": "tms", "tileSize": 256,
                        "minzoom": 2, "maxzoom": 18, "attribution": "Aerial"}
            }, "layers": []}
            """
        let base = URL(fileURLWithPath: "/home/me/styles", isDirectory: true)
        let (style, warnings) = try Style.parse(Data(json.utf8), baseURL: base)
        #expect(warnings.isEmpty)
        let basemapDirectory = URL(fileURLWithPath: "/opt/mapwright/Tiles/basemap")
        guard case .vector(let world) = style.sources["world"], case .vector(let mine) = style.sources["mine"],
            case .vector(let absolute) = style.sources["abs"], case .geoJSON(let track) = style.sources["track"],
            case .raster(let photo) = style.sources["photo"]
        else { return #expect(Bool(false), "wrong source types") }
        #expect(world.location == .basemap(name: "world"))
        #expect(
            world.location.geoPackageURL(basemapDirectory: basemapDirectory)?.path
                == "/opt/mapwright/Tiles/basemap/world_map.gpkg")
        #expect(mine.location.geoPackageURL(basemapDirectory: basemapDirectory)?.path == "/home/me/data/trips.gpkg")
        #expect(absolute.location == .file(URL(fileURLWithPath: "/srv/maps/x.gpkg")))
        #expect(track.data == .file(URL(fileURLWithPath: "/home/me/styles/track.geojson")))
        #expect(photo.tiles == .file(URL(fileURLWithPath: "/home/me/styles/aerial.mbtiles")))
        #expect(photo.scheme == .tms && photo.tileSize == 256 && photo.minZoom == 2 && photo.maxZoom == 18)
        #expect(style.sources["world"]?.attribution == "Natural Earth")
    }

    @Test func stylesAreFoundByNameAndUnknownNamesListTheAvailableOnes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapwright-styles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["light", "night"] {
            try Data(#"{"version": 8, "name": "N", "sources": {}, "layers": []}"#.utf8)
                .write(to: directory.appendingPathComponent("\(name).json"))
        }
        #expect(Style.availableNames(in: directory) == ["light", "night"])
        #expect(try Style.named("night", in: directory).style.id == "night")
        let error = #expect(throws: StyleError.self) { try Style.named("dusk", in: directory) }
        #expect(error?.description == "no style named 'dusk'; available styles: light, night")
    }

    @Test func unreadableFilesAreErrorsNamingTheFile() {
        let url = URL(fileURLWithPath: "/nonexistent/mapwright/broken.json")
        let error = #expect(throws: StyleError.self) { try Style.load(from: url) }
        #expect(error?.file == "/nonexistent/mapwright/broken.json")
        #expect(
            error?.description == "/nonexistent/mapwright/broken.json: cannot read the style: there is no such file")
    }

    @Test func aFolderGivenAsAStyleSaysSoInPlainWords() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapwright-style-\(UUID().uuidString).json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: StyleError.self) { try Style.load(from: folder) }
        #expect(error?.description == "\(folder.path): cannot read the style: it is a folder, not a file")
    }

    /// A prefetched load is taken by the load of the same URL while the file is as it was, and
    /// only then: a file changed since is read again.
    @Test func aPrefetchedStyleIsTakenOnlyWhileItsFileIsUnchanged() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "prefetch-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("x.json")
        func write(_ color: String) throws {
            try Data(
                #"{"version": 8, "sources": {}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "\#(color)"}}]}"#
                    .utf8
            ).write(to: url)
        }
        try write("#111111")
        Style.prefetch(from: url)
        let prefetched = try Style.load(from: url)
        #expect(prefetched.style == (try Style.read(from: url)).style)
        #expect(prefetched.style.id == "x" && prefetched.warnings.isEmpty)
        // Taken once: a second load reads the file.
        try write("#222222")
        #expect(try Style.load(from: url).style == (try Style.read(from: url)).style)
        // Changed after the prefetch: read again, not taken.
        Style.prefetch(from: url)
        Thread.sleep(forTimeInterval: 0.05)
        try write("#333333")
        let loaded = try Style.load(from: url)
        #expect(loaded.style == (try Style.read(from: url)).style)
        #expect(loaded.style != prefetched.style)
    }
}
