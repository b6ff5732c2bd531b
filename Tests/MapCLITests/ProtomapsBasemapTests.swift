import Foundation
import ImageCodec
import ImageCompare
import MapTestSupport
import Testing

/// Street-level data of either schema under the default style: the same OpenStreetMap extract
/// built as OpenMapTiles tiles (`basemap build`) and as Protomaps tiles (Debian's tilemaker with
/// the test profile in Tests/Fixtures/osm/protomaps-profile/), each registered in a user's own
/// data folder, draws one look.
struct ProtomapsBasemapTests {
    private static let fixtures = MapwrightProcess.repository.appendingPathComponent("Tests/Fixtures/osm")

    @Test func eitherSchemaDrawsTheSameLookUnderTheDefaultStyle() throws {
        let directory = try TemporaryDirectory()
        let extract = Self.fixtures.appendingPathComponent("kluuvi.osm.pbf")

        // Protomaps' schema, written by tilemaker with the test profile (one thread: a stable file).
        let profile = Self.fixtures.appendingPathComponent("protomaps-profile")
        let tilemaker = Process()
        tilemaker.executableURL = URL(fileURLWithPath: "/usr/bin/tilemaker")
        tilemaker.arguments = [
            "--input", extract.path, "--output", directory.file("kluuvi protomaps.mbtiles").path, "--threads", "1",
            "--config", profile.appendingPathComponent("config-protomaps.json").path,
            "--process", profile.appendingPathComponent("process-protomaps.lua").path,
        ]
        tilemaker.currentDirectoryURL = directory.url
        tilemaker.standardOutput = FileHandle.nullDevice
        tilemaker.standardError = FileHandle.nullDevice
        try tilemaker.run()
        tilemaker.waitUntilExit()
        try #require(tilemaker.terminationStatus == 0, "tilemaker wrote the Protomaps-schema tiles")

        func user(_ name: String) throws -> [String: String?] {
            let folder = directory.file(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var environment = try MapwrightProcess.environmentWithoutStreets(in: folder)
            // basemap build reads tilemaker's OpenMapTiles profile from the data folder.
            let data = try #require(environment["MAPWRIGHT_DATA"] ?? nil)
            try FileManager.default.createSymbolicLink(
                at: URL(fileURLWithPath: data).appendingPathComponent("Tiles/tilemaker"),
                withDestinationURL: MapwrightProcess.repository.appendingPathComponent("Tiles/tilemaker"))
            environment["XDG_CACHE_HOME"] = folder.appendingPathComponent("cache").path
            return environment
        }
        let openMapTilesUser = try user("openmaptiles user")
        let protomapsUser = try user("protomaps user")

        let built = try MapwrightProcess.run(
            ["basemap", "build", extract.path], in: directory.url, environment: openMapTilesUser)
        #expect(built.status == 0, "\(built.standardError)")
        let added = try MapwrightProcess.run(
            ["basemap", "add", "kluuvi protomaps.mbtiles", "--name", "kluuvi"], in: directory.url,
            environment: protomapsUser)
        #expect(added.status == 0, "\(added.standardError)")
        let path = directory.file("kluuvi protomaps.mbtiles").standardizedFileURL.path
        #expect(
            added.standardOutput.hasPrefix("registered kluuvi: \(path), Protomaps schema, zooms 0-15"),
            "\(added.standardOutput)")

        // Around the Kluuvi cut, at street zoom: parks, streets, buildings, names.
        let render = ["render", "--center", "60.1695,24.9430", "--zoom", "16", "--size", "480x360"]
        for (name, environment) in [("openmaptiles.png", openMapTilesUser), ("protomaps.png", protomapsUser)] {
            let output = try MapwrightProcess.run(render + ["-o", name], in: directory.url, environment: environment)
            #expect(output.status == 0 && output.standardError.isEmpty, "\(name): \(output.standardError)")
        }
        let openMapTiles = try RGBAImage(contentsOf: directory.file("openmaptiles.png"))
        let protomaps = try RGBAImage(contentsOf: directory.file("protomaps.png"))
        // Both draw streets where the world basemap alone is one colour...
        func colourGroups(_ image: RGBAImage) -> Int {
            Set(
                stride(from: 0, to: image.pixels.count, by: 4 * 37).map {
                    image.pixels[$0..<$0 + 3].map { Int($0) / 16 }
                }
            ).count
        }
        #expect(colourGroups(protomaps) >= 8, "the Protomaps tiles are drawn: \(colourGroups(protomaps)) colour groups")
        // ...and the same look: the two schemas differ only where their profiles pick other
        // features (labels placed from other points, a few areas classed otherwise).
        let difference = try compare(openMapTiles, protomaps)
        let fraction = Double(difference.differentPixels) / Double(openMapTiles.size.pixelCount)
        #expect(fraction < 0.12, "differing pixels: \(fraction)")
        #expect(fraction > 0, "the images come from two tilesets")
    }
}
