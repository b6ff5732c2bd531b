import Foundation
import ImageCodec
import MapTestSupport
import Testing

/// `mapwright` run from a folder that is not the checkout, as an installed tool is: styles and
/// the basemap are found through the data lookup (docs/data-and-caches.md), and when nothing
/// is found the one error line lists every place looked in.
struct DataLookupCommandTests {
    private func run(_ arguments: [String], in directory: URL, environment: [String: String?]) throws
        -> MapwrightProcess.Output
    {
        try MapwrightProcess.run(arguments, in: directory, environment: environment)
    }

    private let photos = RepositoryFiles.samples.appendingPathComponent("photos").path

    @Test func rendersFromAnotherDirectoryWithTheCheckoutsData() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.file("out dir"), withIntermediateDirectories: true)
        let result = try run(
            ["render", "--photos", photos, "--size", "300x200", "-o", "out dir/map.png"], in: directory.url,
            environment: [
                "MAPWRIGHT_DATA": nil, "XDG_DATA_HOME": directory.path("no-user-data"),
                "XDG_CACHE_HOME": directory.path("cache"),
            ])
        #expect(result.status == 0, "\(result.standardError)")
        let image = try RGBAImage(contentsOf: directory.file("out dir/map.png"))
        #expect(image.width == 300 && image.height == 200)
        // Nothing but the map (and the caches asked for) is written in the working directory.
        let written = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        #expect(written.allSatisfy { ["out dir", "cache"].contains($0) }, "\(written)")
    }

    @Test func rendersWithMapwrightDataAlone() throws {
        let directory = try TemporaryDirectory()
        let result = try run(
            ["render", "--photos", photos, "--place", "Greece", "--size", "300x200", "-o", "map.png"],
            in: directory.url,
            environment: [
                "MAPWRIGHT_DATA": RepositoryFiles.root.path, "MAPWRIGHT_NO_CHECKOUT": "1",
                "XDG_DATA_HOME": directory.path("no-user-data"), "XDG_CACHE_HOME": directory.path("cache"),
            ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: directory.path("map.png")))
    }

    @Test func nothingFoundIsOneLineListingThePlacesLookedIn() throws {
        let directory = try TemporaryDirectory()
        let empty = directory.file("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        // Photos that all have a location, so no warning comes before the error.
        let located = try directory.write("latitude,longitude,title\n37.8,-122.4,Bay\n", to: "photos.csv")
        let environment: [String: String?] = [
            "MAPWRIGHT_DATA": empty.path, "MAPWRIGHT_NO_CHECKOUT": "1", "XDG_DATA_HOME": directory.path("xdg"),
            "XDG_CACHE_HOME": directory.path("cache"),
        ]
        let styles = try run(
            ["render", "--photos", photos, "-o", "map.png"], in: directory.url, environment: environment)
        #expect(styles.status == 2)
        #expect(
            styles.standardError == """
                mapwright: --styles-directory: no styles found: looked in \(empty.path)/Styles (MAPWRIGHT_DATA), \
                \(directory.path("xdg"))/mapwright/Styles (user data); set MAPWRIGHT_DATA to a folder holding Styles/

                """)

        let style = RepositoryFiles.styles.appendingPathComponent("standard.json").path
        let basemap = try run(
            ["render", "--photos", located, "--style", style, "-o", "map.png"], in: directory.url,
            environment: environment)
        #expect(basemap.status == 2)
        #expect(
            basemap.standardError.hasPrefix(
                "mapwright: --basemap-directory: the basemap (world_map.gpkg) is missing: looked in \(empty.path)/Tiles/basemap (MAPWRIGHT_DATA), "
            ))
        #expect(basemap.standardError.filter { $0 == "\n" }.count == 1)

        let cluster = try run(
            ["cluster", "--photos", located, "--zoom", "3", "--place", "Greece"], in: directory.url,
            environment: environment)
        #expect(cluster.status == 2)
        #expect(
            cluster.standardError.hasPrefix(
                "mapwright: --basemap-directory: the basemap (world_map.gpkg) is missing: looked in"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("map.png")))
    }

    @Test func rasterTilesAreCachedInTheUsersCacheNotTheWorkingDirectory() throws {
        let directory = try TemporaryDirectory()
        let result = try run(
            [
                "render", "--style", "satellite", "--place", "Greece", "--raster-source",
                "http://127.0.0.1:1/{z}/{x}/{y}.png", "-o", "map.png",
            ],
            in: directory.url, environment: ["XDG_CACHE_HOME": directory.path("cache")])
        #expect(result.status == 2)
        #expect(result.standardError.contains("offline"), "\(result.standardError)")
        let tiles = try FileManager.default.contentsOfDirectory(atPath: directory.path("cache/mapwright/tiles"))
        #expect(tiles.contains { $0.hasSuffix(".mbtiles") }, "\(tiles)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["cache"])
    }

    /// The layout `scripts/install.sh` makes, `PREFIX/bin/mapwright` beside `PREFIX/share/mapwright/`,
    /// run from another folder with no checkout to fall back on: a style only the installed data
    /// holds is found.
    @Test func rendersFromTheInstalledLayout() throws {
        let directory = try TemporaryDirectory()
        let prefix = directory.file("my prefix")
        let data = prefix.appendingPathComponent("share/mapwright")
        let manager = FileManager.default
        try manager.createDirectory(at: prefix.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try manager.createDirectory(at: data.appendingPathComponent("Tiles"), withIntermediateDirectories: true)
        // A copy, not a link: the lookup follows links to the executable's real place.
        let executable = prefix.appendingPathComponent("bin/mapwright")
        try manager.copyItem(at: try MapwrightProcess.executableURL(), to: executable)
        try manager.copyItem(at: RepositoryFiles.styles, to: data.appendingPathComponent("Styles"))
        try manager.copyItem(
            at: RepositoryFiles.styles.appendingPathComponent("muted.json"),
            to: data.appendingPathComponent("Styles/installed only.json"))
        try manager.copyItem(
            at: RepositoryFiles.root.appendingPathComponent("Tiles/basemap"),
            to: data.appendingPathComponent("Tiles/basemap"))
        let elsewhere = directory.file("else where")
        try manager.createDirectory(at: elsewhere, withIntermediateDirectories: true)

        let result = try MapwrightProcess.run(
            [
                "render", "--photos", photos, "--style", "installed only", "--place", "Greece", "--size", "300x200",
                "-o", "map.png",
            ],
            in: elsewhere,
            environment: [
                "MAPWRIGHT_DATA": nil, "MAPWRIGHT_NO_CHECKOUT": "1", "XDG_DATA_HOME": directory.path("no-user-data"),
                "XDG_CACHE_HOME": directory.path("cache"),
            ],
            executable: executable)
        #expect(result.status == 0, "\(result.standardError)")
        let image = try RGBAImage(contentsOf: elsewhere.appendingPathComponent("map.png"))
        #expect(image.width == 300 && image.height == 200)
    }

    /// With no cache folder it may write (here `XDG_CACHE_HOME` is a file), the map is still
    /// made and every line on standard error is Mapwright's own: fontconfig's "No writable cache
    /// directories" never shows, and its temporary cache folder is gone afterwards.
    @Test func anUnwritableCacheFolderGivesOnlyMapwrightsOwnLines() throws {
        let directory = try TemporaryDirectory()
        let notAFolder = try directory.write("a file, not a folder\n", to: "cache")
        let temporary = directory.file("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let result = try run(
            ["render", "--photos", photos, "--select", "first", "--size", "300x200", "-o", "map.png"],
            in: directory.url,
            environment: ["XDG_CACHE_HOME": notAFolder, "TMPDIR": temporary.path])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("mapwright: ") }, "\(result.standardError)")
        #expect(!result.standardError.contains("Fontconfig"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
        #expect(FileManager.default.fileExists(atPath: directory.path("map.png")))
    }

    @Test func anExplicitFolderThatDoesNotExistIsNamed() throws {
        let directory = try TemporaryDirectory()
        let result = try run(
            ["render", "--photos", photos, "--styles-directory", "nowhere", "-o", "map.png"], in: directory.url,
            environment: [:])
        #expect(result.status == 2)
        #expect(result.standardError == "mapwright: --styles-directory: \(directory.path("nowhere")): no such folder\n")
    }
}
