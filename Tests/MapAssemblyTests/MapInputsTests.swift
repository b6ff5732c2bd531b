import Foundation
import ImageCodec
import MapAssembly
import MapComposer
import MapCore
import MapData
import MapRenderer
import MapServer
import MapStyle
import MapTestSupport
import MapUtilities
import PhotoSources
import Testing
import TileExport
import TileSources

/// A style with its data, a place, photos and a server's content assembled without the command line.
struct MapInputsTests {
    private static let vectorSource = RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki.mbtiles").path

    @Test func aStyleIsLoadedWithItsVectorSource() throws {
        let map = try MapInputs(vectorSource: Self.vectorSource).load(style: "streets")
        #expect(map.style.drawsVectorTiles)
        try map.style.requireConfiguredVectorSources()
    }

    @Test func theMapDataTakesTheDataFoldersBasemapAndFonts() throws {
        let data = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: data.file("Fonts"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: data.file("Tiles"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: data.file("Tiles/basemap"), withDestinationURL: RepositoryFiles.basemap)
        let inputs = MapInputs(
            locations: DataLocations(
                environment: ["MAPWRIGHT_DATA": data.url.path, "MAPWRIGHT_NO_CHECKOUT": "1"], executableURL: nil))
        let places = try inputs.placeData()
        #expect(places.fontsDirectory?.path == data.file("Fonts").path)
        #expect(places.basemapDirectory.path == data.file("Tiles/basemap").path)
        #expect(try places.resolvePlace(named: "Finland").name == "Finland")

        // Without a data folder's fonts, the pinned fonts only.
        let plain = MapInputs(
            basemapDirectory: RepositoryFiles.basemap.path,
            locations: DataLocations(
                environment: ["HOME": data.url.path, "MAPWRIGHT_NO_CHECKOUT": "1"], executableURL: nil))
        #expect(try plain.placeData().fontsDirectory == nil)
    }

    @Test func anExportIsBuiltWithoutTheCommandLine() throws {
        let output = URL(fileURLWithPath: "/nonexistent/iberia.mbtiles")
        var inputs = ExportInputs(area: .place("Portugal"), zoomLevels: 0...3, version: "9.9")
        let made = try inputs.makeExport(output: output)
        #expect(made.export.metadata.name == "iberia")
        #expect(
            made.export.metadata.description?.hasPrefix("Rendered by Mapwright 9.9: style standard, zooms 0-3") == true)
        #expect(made.export.cover.zoomLevels == 0...3 && made.export.tileCount > 0)
        // The fingerprint --resume checks is the same for the same inputs, and follows the drawing.
        #expect(try inputs.makeExport(output: output).export.options.fingerprint == made.export.options.fingerprint)
        inputs.drawing = PhotoDrawing(clustering: .never)
        #expect(try inputs.makeExport(output: output).export.options.fingerprint != made.export.options.fingerprint)

        inputs.zoomLevels = 0...14
        inputs.maximumTileCount = 1_000
        #expect {
            try inputs.makeExport(output: output)
        } throws: { error in
            "\(error)".hasPrefix("--zoom: 0-14 over this area is ")
                && "\(error)".contains("more than --max-tiles 1,000")
        }
    }

    @Test func aVectorSourceForAStyleThatDrawsNoneIsRefusedNamingTheInput() {
        #expect {
            _ = try MapInputs(
                rasterSource: "https://tiles.example.org/{z}/{x}/{y}.jpg", vectorSource: Self.vectorSource
            ).load(style: "satellite")
        } throws: { error in
            guard let error = error as? AssemblyError, case .invalid(.vectorSource, let reason) = error else {
                return false
            }
            return reason.contains("draws no vector tiles") && error.description.hasPrefix("--vector-source: ")
                && error.exitStatus == 2
        }
        // A server's styles may be of both kinds: the source goes only to those that draw it.
        #expect(throws: Never.self) {
            try MapInputs(vectorSource: Self.vectorSource).load(style: "standard", vectorSourceOnlyIfDrawn: true)
        }
    }

    @Test func aStyleThatNeedsAVectorSourceSaysWhichInput() {
        #expect {
            let home = try TemporaryDirectory()
            _ = try MapInputs(
                stylesDirectory: RepositoryFiles.root.appendingPathComponent("Styles").path,
                locations: DataLocations(
                    environment: ["HOME": home.url.path, "MAPWRIGHT_NO_CHECKOUT": "1"], executableURL: nil)
            ).load(style: "streets")
        } throws: { error in
            guard let error = error as? AssemblyError, case .needs(.vectorSource, _) = error else { return false }
            return error.description.hasSuffix(", with --vector-source")
        }
    }

    @Test func aPlaceIsResolvedOnceAndAnUnknownOneSuggestsNames() throws {
        let map = try MapInputs().load(style: "standard", needsPlaces: true)
        let germany = try map.resolvePlace(named: "Germany")
        #expect(germany.name == "Germany")
        #expect(germany.region.center.latitude > 47 && germany.region.center.latitude < 55)
        #expect {
            _ = try map.resolvePlace(named: "Germny")
        } throws: { error in
            guard case PhotoMapError.unknownPlace("Germny", let suggestions) = error else { return false }
            return suggestions.first == "Germany"
                && (error as? PhotoMapError)?.description
                    == "--place: no country, state/province or town named 'Germny' in the basemap; did you mean "
                    + suggestions.map { "'\($0)'" }.joined(separator: ", ") + "?"
        }
        // A request framed by the resolved place is framed as by its name, without a lookup.
        let builder = PhotoMapBuilder(data: map.data)
        let byName = try builder.options(
            for: PhotoMapRequest(
                photos: [], style: map.style, framing: .place("Germany"), size: ViewSize(width: 600, height: 400)))
        let resolved = try builder.options(
            for: PhotoMapRequest(
                photos: [], style: map.style, framing: .resolvedPlace(germany), size: ViewSize(width: 600, height: 400))
        )
        #expect(byName.viewport == resolved.viewport)
    }

    @Test func photosAskedForButNoneLocatedIsANegativeOutcome() throws {
        let temporary = try TemporaryDirectory()
        let csv = temporary.url.appendingPathComponent("none.csv")
        try Data("id,latitude,longitude,title\n".utf8).write(to: csv)
        #expect {
            _ = try PhotoInputs(sources: [csv.path]).load()
        } throws: { error in
            guard let error = error as? AssemblyError, case .photoMap(.noLocatedPhotos) = error else { return false }
            return error.exitStatus == 1
        }
        #expect(try PhotoInputs(sources: [csv.path]).load(requireLocated: false).photos.isEmpty)
        let empty = temporary.url.appendingPathComponent("empty", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect {
            _ = try PhotoInputs(sources: [empty.path]).load()
        } throws: { error in
            guard let error = error as? AssemblyError, case .photos(.noJPEGFiles) = error else { return false }
            return error.exitStatus == 1
        }
    }

    @Test func aServersContentIsBuiltWithoutTheCommandLine() throws {
        let inputs = ServeInputs(
            styles: ["standard", "dark"],
            photos: PhotoInputs(sources: [RepositoryFiles.samples.appendingPathComponent("flickr-photos.json").path]),
            drawing: PhotoDrawing(select: "first"))
        let styles = try inputs.loadStyles()
        #expect(styles.styles.map(\.name) == ["standard", "dark"])
        let content = try inputs.loadContent(styles: styles.styles)
        #expect(content.content.overlay != nil)
        #expect(content.content.photos?.request.photos.isEmpty == false)
        #expect(content.content.photos?.request.selection == .first)
        #expect(content.content.photoFeed == nil)
        #expect {
            _ = try ServeInputs(styles: ["standard", "standard"]).loadStyles()
        } throws: { error in
            (error as? AssemblyError)?.description == "--style: 'standard' is given twice"
        }
    }

    /// Public styles as their repositories lay them out, each a `style.json` in its own folder,
    /// are served under their folders' names; another file under its own name.
    @Test func styleFilesNamedStyleJSONAreServedUnderTheirFolders() throws {
        let styles = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/styles")
        let inputs = ServeInputs(
            styles: [
                styles.appendingPathComponent("positron/style.json").path,
                styles.appendingPathComponent("dark-matter/style.json").path,
            ],
            map: MapInputs(
                vectorSource: RepositoryFiles.root.appendingPathComponent("Samples/helsinki/helsinki.mbtiles").path))
        #expect(try inputs.loadStyles().styles.map(\.name) == ["positron", "dark-matter"])
        let temporary = try TemporaryDirectory()
        let file = temporary.url.appendingPathComponent("my style.json")
        try Data(#"{"version": 8, "sources": {}, "layers": []}"#.utf8).write(to: file)
        #expect(try ServeInputs(styles: [file.path]).loadStyles().styles.map(\.name) == ["my style"])
    }

    @Test func aMarkerLargerThanTheMapIsRefused() throws {
        let temporary = try TemporaryDirectory()
        let marker = temporary.url.appendingPathComponent("marker.png")
        try RGBAImage(width: 100, height: 40, filledWith: .white).writePNG(to: marker)
        #expect(try MarkerImage.load(marker.path, mapSize: ViewSize(width: 50, height: 20)).width == 100)
        #expect {
            _ = try MarkerImage.load(marker.path, mapSize: ViewSize(width: 40, height: 20))
        } throws: { error in
            (error as? AssemblyError)?.description
                == "--marker-image: '\(marker.path)' is 100x40 pixels, a 50x20-point marker (@2x), larger than the 40x20-point map (--size)"
        }
    }

    /// `--marker-image NAME` draws an image of the style's sprite: OSM Bright's airport, from its
    /// SVG folder at @2x; a name the sprite lacks is one line naming it.
    @Test func aMarkerMayBeAnImageOfTheStylesSprite() throws {
        let file = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/styles/osm-bright/style.json")
        let style = try Style.load(from: file).style
        let data = MapData(basemapDirectory: RepositoryFiles.basemap)
        let airport = try MarkerImage.load(
            "airport_11", mapSize: ViewSize(width: 200, height: 200), style: style, data: data)
        #expect(airport.width == 34 && airport.height == 34)
        #expect {
            _ = try MarkerImage.load("harbour_99", mapSize: ViewSize(width: 200, height: 200), style: style, data: data)
        } throws: { error in
            (error as? AssemblyError)?.description
                == "--marker-image: 'harbour_99' is neither a file nor an image in the sprite of style 'Bright'"
        }
    }
}
