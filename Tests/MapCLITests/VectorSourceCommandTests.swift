import Foundation
import ImageCodec
import MBTiles
import MapTestSupport
import Testing
import TileSources
import Tilesets

/// `--vector-source` as people type it: relative names with spaces, from a folder of their
/// own, in `render` and `tiles export`; each mistake one line naming the option.
struct VectorSourceCommandTests {
    /// A folder holding "city tiles.mbtiles" (the Helsinki sample) and "my photos.csv".
    private func folder() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(
            at: RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki.mbtiles"),
            to: directory.file("city tiles.mbtiles"))
        try FileManager.default.copyItem(
            at: RepositoryFiles.samples.appendingPathComponent("helsinki/photos.csv"),
            to: directory.file("my photos.csv"))
        return directory
    }

    @Test func renderDrawsStreetsFromRelativeNamesWithSpaces() throws {
        let directory = try folder()
        let result = try MapwrightProcess.run(
            [
                "render", "--style", "streets", "--vector-source", "city tiles.mbtiles", "--photos", "my photos.csv",
                "--size", "600x400",
                "-o", "street map.png",
            ], in: directory.url)
        #expect(result.status == 0, "\(result.standardError)")
        let image = try RGBAImage(contentsOf: directory.file("street map.png"))
        #expect(image.width == 600 && image.height == 400)
        // Streets, buildings and water: many colours, not an empty background.
        let colours = Set(
            stride(from: 0, to: image.pixels.count, by: 4 * 97).map { image.pixels[$0..<$0 + 3].map { Int($0) / 16 } })
        #expect(colours.count > 20, "\(colours.count) colour groups")
    }

    @Test(arguments: [
        (
            ["--style", "streets"],
            "mapwright: style 'streets' draws vector tiles and its source 'openmaptiles' has none: give it an OpenMapTiles-schema .mbtiles or .pmtiles file (Samples/helsinki/helsinki.mbtiles is one), with --vector-source"
        ),
        (
            ["--style", "satellite", "--raster-source", "raster.mbtiles", "--vector-source", "city tiles.mbtiles"],
            "mapwright: --vector-source: style 'satellite' draws no vector tiles; use --style streets (or streets-dark, streets-muted)"
        ),
        (
            ["--style", "streets", "--vector-source", "my photos.csv"],
            "mapwright: --vector-source: 'my photos.csv' must end in .mbtiles or .pmtiles"
        ),
        (
            ["--style", "streets", "--vector-source", "missing.pmtiles"],
            "mapwright: --vector-source: 'missing.pmtiles' does not exist"
        ),
        (
            ["--style", "streets", "--vector-source", "raster.mbtiles"],
            "mapwright: raster.mbtiles: it holds png tiles, not vector tiles (pbf): use it as a raster source"
        ),
        (
            ["--style", "streets", "--vector-source", "fake.mbtiles"],
            "mapwright: fake.mbtiles: not a tileset (MBTiles or PMTiles): it is neither an SQLite database nor a PMTiles archive"
        ),
    ])
    func mistakesAreOneLineNamingTheOption(arguments: [String], message: String) throws {
        let directory = try folder()
        try Data("not a database".utf8).write(to: directory.file("fake.mbtiles"))
        let raster = try MapwrightProcess.run(
            ["tiles", "export", "--bbox", "24.9,60.1,25,60.2", "--zoom", "2", "-o", "raster.mbtiles"], in: directory.url
        )
        #expect(raster.status == 0, "\(raster.standardError)")
        let result = try MapwrightProcess.run(
            ["render"] + arguments + ["--center", "60.17,24.94", "--zoom", "15", "-o", "map.png"], in: directory.url,
            environment: try MapwrightProcess.environmentWithoutStreets(in: directory.url))
        #expect(result.status == 2)
        #expect(result.standardError == message + "\n")
        #expect(!FileManager.default.fileExists(atPath: directory.file("map.png").path), "nothing written")
    }

    /// A street map placed where the tileset has no tiles is drawn, with a warning naming the
    /// file and where its tiles are, rather than silently empty.
    @Test func aMapOutsideTheTilesetsTilesSaysSo() throws {
        let directory = try folder()
        let paris = try MapwrightProcess.run(
            [
                "render", "--style", "streets", "--vector-source", "city tiles.mbtiles", "--center", "48.85,2.35",
                "--zoom", "14",
                "--size", "300x200", "-o", "paris.png",
            ], in: directory.url)
        #expect(paris.status == 0, "\(paris.standardError)")
        #expect(
            paris.standardError.hasPrefix(
                "mapwright: warning: city tiles.mbtiles: the map lies outside its tiles, which cover 24."),
            "\(paris.standardError)")
        #expect(paris.standardError.hasSuffix("(west,south,east,north); it shows none of their streets\n"))
        let helsinki = try MapwrightProcess.run(
            [
                "render", "--style", "streets", "--vector-source", "city tiles.mbtiles", "--center", "60.17,24.94",
                "--zoom", "14",
                "--size", "300x200", "-o", "helsinki.png",
            ], in: directory.url)
        #expect(helsinki.status == 0 && helsinki.standardError.isEmpty, "\(helsinki.standardError)")
    }

    /// `serve` gives `--vector-source` to the served styles that draw vector tiles; when none
    /// does, the option would do nothing, so it is refused before the server listens.
    @Test func serveRefusesAVectorSourceNoServedStyleDraws() throws {
        let directory = try folder()
        let result = try MapwrightProcess.run(
            [
                "serve", "--style", "satellite", "--style", "hybrid", "--raster-source",
                "https://tiles.example.org/{z}/{x}/{y}.jpg",
                "--vector-source", "city tiles.mbtiles", "--port", "18457",
            ], in: directory.url)
        #expect(result.status == 2)
        #expect(
            result.standardError
                == "mapwright: --vector-source: no served style draws vector tiles ('satellite', 'hybrid'); add --style streets (or streets-dark, streets-muted)\n"
        )
    }

    @Test func tilesExportDrawsStreetTilesCreditedToOpenStreetMap() throws {
        let directory = try folder()
        let result = try MapwrightProcess.run(
            [
                "tiles", "export", "--style", "streets", "--vector-source", "city tiles.mbtiles", "--bbox",
                "24.935,60.164,24.954,60.180",
                "--zoom", "14-15", "-o", "streets.pmtiles",
            ], in: directory.url)
        #expect(result.status == 0, "\(result.standardError)")
        let reader = try TileSourceLocation.file(directory.file("streets.pmtiles")).open()
        let metadata = try reader.metadata()
        #expect(metadata.attribution == "© OpenStreetMap contributors")
        #expect(metadata.minZoom == 14 && metadata.maxZoom == 15)
    }
}
