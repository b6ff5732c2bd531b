import Foundation
import ImageCodec
import ImageCompare
import MapAssembly
import MapComposer
import MapCore
import MapRenderer
import MapTestSupport
import PhotoLibrary
import Testing

/// `render`, `flyover` and `cluster` assembled without the command line: what they draw and
/// answer, and the warnings gathered before an input fails.
struct CommandAssemblyTests {
    private static let helsinkiPhotos = RepositoryFiles.samples.appendingPathComponent("helsinki/photos.csv").path
    private static let walk = RepositoryFiles.samples.appendingPathComponent("helsinki/walk.gpx").path

    /// The checkout's styles and basemap, and nothing registered or bundled besides.
    private func map(_ home: TemporaryDirectory) -> MapInputs {
        MapInputs(
            stylesDirectory: RepositoryFiles.styles.path, basemapDirectory: RepositoryFiles.basemap.path,
            locations: DataLocations(
                environment: ["HOME": home.url.path, "MAPWRIGHT_NO_CHECKOUT": "1"], executableURL: nil))
    }

    @Test func aRenderIsWrittenAsEachFormat() throws {
        let home = try TemporaryDirectory()
        let inputs = RenderInputs(
            map: map(home), photos: PhotoInputs(sources: [Self.helsinkiPhotos], photographer: "Signe Brander"),
            overlays: OverlayInputs(files: [Self.walk]), drawing: PhotoDrawing(select: "first"),
            size: ViewSize(width: 200, height: 150),
            scale: 2)
        var warnings: [String] = []
        let render = try inputs.makeRender(warnings: &warnings)
        // Nothing but the world basemap here: the one warning says so.
        #expect(warnings.count == 1 && warnings[0].hasPrefix("no street-level data covers this map (zoom 12)"))
        #expect(render.options.viewport.pixelWidth == 400 && render.options.viewport.pixelHeight == 300)
        let png = try render.encoded(.png)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let file = home.file("map.png")
        try render.write(to: file)
        #expect(try Data(contentsOf: file) == png, "a file and the bytes are the same map")
        let svg = String(decoding: try render.encoded(.svg), as: UTF8.self)
        #expect(svg.contains("<svg"))
    }

    @Test func warningsFoundBeforeAFailureAreKept() throws {
        let home = try TemporaryDirectory()
        let photos = RepositoryFiles.samples.appendingPathComponent("photos").path
        let inputs = RenderInputs(
            map: map(home), photos: PhotoInputs(sources: [photos]), drawing: PhotoDrawing(select: "nothing like this"))
        var warnings: [String] = []
        #expect { try inputs.makeRender(warnings: &warnings) } throws: { error in
            "\(error)".hasPrefix("--select: no photo has the id or title 'nothing like this'")
        }
        #expect(warnings == ["\(photos): 2 photos have no GPS location and were skipped"])
    }

    @Test func anUnknownPlaceIsReportedBeforeAnyPhotoIsRead() throws {
        let home = try TemporaryDirectory()
        var inputs = RenderInputs(
            map: map(home), photos: PhotoInputs(sources: ["/nonexistent/photos.csv"]), framing: .place("Finlandd"))
        var warnings: [String] = []
        #expect { try inputs.makeRender(warnings: &warnings) } throws: { error in
            "\(error)"
                == "--place: no country, state/province or town named 'Finlandd' in the basemap; did you mean 'Finland'?"
        }
        inputs.framing = .place("Finland")
        #expect { try inputs.makeRender(warnings: &warnings) } throws: { error in
            "\(error)".hasPrefix("/nonexistent/photos.csv")
        }
    }

    @Test func aFlyoverWritesItsFramesAndCameras() throws {
        let home = try TemporaryDirectory()
        let helsinki = try Coordinate(latitude: 60.17, longitude: 24.94)
        var inputs = FlyoverInputs(
            map: map(home), photos: PhotoInputs(sources: [Self.helsinkiPhotos]),
            from: .init(framing: .place("Finland")),
            to: .init(framing: .center(helsinki, zoomLevel: 12), headingDegrees: 30), frameCount: 3,
            size: ViewSize(width: 64, height: 48))
        var warnings: [String] = []
        let flight = try inputs.makeFlyover(warnings: &warnings)
        #expect(flight.frameCount == 3 && flight.pixelWidth == 64 && flight.pixelHeight == 48)
        let output = FlyoverWriter.Output.frames(home.file("frames"))
        let cameras = try flight.write(to: output, warnings: &warnings)
        #expect(cameras == home.file("frames/cameras.json"))
        #expect(FileManager.default.fileExists(atPath: home.file("frames/frame-00003.png").path))
        #expect(MapFlyover.defaultCamerasURL(for: .video(home.file("flight.mp4"))) == home.file("flight.cameras.json"))

        inputs.to = .init(framing: .place("Finlandd"))
        #expect { try inputs.makeFlyover(warnings: &warnings) } throws: { error in
            "\(error)".hasPrefix(
                "--to: 'Finlandd' is not LAT,LON@ZOOM, LAT,LON,LATDELTA,LONDELTA, bbox:WEST,SOUTH,EAST,NORTH or a country"
            )
        }
    }

    @Test func clustersAreAnsweredAsTextAndGeoJSON() throws {
        let home = try TemporaryDirectory()
        let photos = PhotoInputs(sources: [Self.helsinkiPhotos])
        var warnings: [String] = []
        let world = try ClusterInputs(photos: photos, zoomLevel: 12.5, map: map(home)).query(warnings: &warnings)
        #expect(world.clusterZoomLevel == 12 && world.clusterCount > 0 && world.items.count > world.clusterCount)
        let finland = try ClusterInputs(photos: photos, zoomLevel: 12.5, area: .place("Finland"), map: map(home)).query(
            warnings: &warnings)
        #expect(finland.items == world.items)

        var bytes: [UInt8] = []
        world.writeGeoJSON { bytes += $0 }
        #expect(bytes.last == UInt8(ascii: "\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let features = try #require(object["features"] as? [[String: Any]])
        #expect(features.count == world.items.count)
        let single = try #require(features.first { ($0["properties"] as? [String: Any])?["cluster"] as? Bool == false })
        #expect((single["properties"] as? [String: Any])?["photographer"] != nil)

        #expect {
            try ClusterInputs(photos: PhotoInputs(), zoomLevel: 3, map: map(home)).query(warnings: &warnings)
        } throws: { error in
            guard let error = error as? AssemblyError, case .nothingToCluster = error else { return false }
            return error.exitStatus == 1 && error.description == "no photo has a location: nothing to cluster"
        }
    }

    @Test func everyCommandMakesTheSameRequest() throws {
        let home = try TemporaryDirectory()
        let style = try map(home).loadStyle(named: "standard").style
        let drawing = PhotoDrawing(
            select: "first", showsAccuracy: true, clustering: .never, clusterGrouping: .none, pinColor: "green")
        let request = drawing.request(
            photos: [], style: style, overlays: [], size: ViewSize(width: 256, height: 256), scale: 2)
        #expect(
            request.selection == .first && request.showsAccuracy && request.clustering == .never
                && request.clusterGrouping == .none)
        #expect(
            request.pinColor == PhotoDrawing.pinColor("green") && request.scale == 2 && request.framing == .fitContent)
        var warnings: [String] = []
        let loaded = try drawing.request(
            loading: PhotoInputs(sources: [Self.helsinkiPhotos]), overlays: OverlayInputs(files: [Self.walk]),
            style: style,
            size: ViewSize(width: 256, height: 256), scale: 1, warnings: &warnings)
        #expect(!loaded.photos.isEmpty && !loaded.overlays.isEmpty && loaded.selection == .first)
    }
}

/// `photos import` and `compare` assembled without the command line.
struct FileCommandAssemblyTests {
    @Test func photosAreImportedOnceAndUpdatedAfter() throws {
        let home = try TemporaryDirectory()
        let source = RepositoryFiles.samples.appendingPathComponent("helsinki/photos.csv").path
        let library = home.file("library.sqlite")
        let first = try PhotoInputs(sources: [source]).importPhotos(into: library)
        #expect(first.count > 0 && first.photos.added == first.count && first.library.path == library.path)
        let again = try PhotoInputs(sources: [source]).importPhotos(into: library)
        #expect(again.photos.unchanged == first.count && again.photos.added == 0)
        #expect { try PhotoInputs(sources: ["/nonexistent/photos.csv"]).importPhotos(into: library) } throws: { error in
            "\(error)".hasPrefix("/nonexistent/photos.csv")
        }
    }

    @Test func imagesAreComparedAndTheDiffWritten() throws {
        let home = try TemporaryDirectory()
        let black = RGBAImage(
            width: 4, height: 2,
            pixels: [UInt8](repeating: 0, count: 4 * 2 * 4).enumerated().map { $0.offset % 4 == 3 ? 255 : 0 })
        var pixels = black.pixels
        pixels[0] = 255
        let spotted = RGBAImage(width: 4, height: 2, pixels: pixels)
        try black.writePNG(to: home.file("a.png"))
        try spotted.writePNG(to: home.file("b.png"))
        let result = try CompareInputs(
            expected: home.file("a.png").path, actual: home.file("b.png").path, diffImage: home.file("d.jpg").path
        ).compare()
        #expect(result.differentPixels == 1 && result.totalPixels == 8)
        #expect(try Data(contentsOf: home.file("d.jpg")).starts(with: [0xFF, 0xD8]), "a JPEG by its extension")

        try RGBAImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16)).writePNG(to: home.file("c.png"))
        #expect {
            try CompareInputs(expected: home.file("a.png").path, actual: home.file("c.png").path).compare()
        } throws: { error in
            "\(error)".hasSuffix("only images of the same size can be compared")
        }
    }
}
