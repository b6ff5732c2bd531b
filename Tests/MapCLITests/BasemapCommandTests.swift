import Foundation
import ImageCodec
import MapTestSupport
import Testing

/// `mapwright basemap` as a user types it: a tileset with spaces in its name registered from a
/// folder of their own, then drawn by `render` in the default style with no option.
struct BasemapCommandTests {
    @Test func aRegisteredBasemapIsDrawnByTheDefaultStyle() throws {
        // (The build itself is tested in MapAssemblyTests' StreetBasemapBuildTests, on real extracts.)
        let directory = try TemporaryDirectory()
        try FileManager.default.copyItem(
            at: RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki.mbtiles"),
            to: directory.file("city tiles.mbtiles"))
        let environment = try MapwrightProcess.environmentWithoutStreets(in: directory.url)
        func run(_ arguments: [String]) throws -> MapwrightProcess.Output {
            try MapwrightProcess.run(arguments, in: directory.url, environment: environment)
        }
        let render = ["render", "--center", "60.17165,24.94425", "--zoom", "15", "--size", "400x300"]
        let before = try run(render + ["-o", "before.png"])
        #expect(before.status == 0, "\(before.standardError)")
        // Without street-level data, the map is drawn with one warning naming the remedy.
        #expect(
            before.standardError
                == "mapwright: warning: no street-level data covers this map (zoom 15): it shows the world basemap only; register your region's with `mapwright basemap build EXTRACT.osm.pbf` (an OpenStreetMap extract from Geofabrik or BBBike) or `mapwright basemap add FILE.mbtiles`\n"
        )

        let empty = try run(["basemap", "list"])
        #expect(
            empty.standardOutput.hasPrefix(
                "no street-level basemap: register one with `mapwright basemap add FILE.mbtiles`"))
        let added = try run(["basemap", "add", "city tiles.mbtiles", "--name", "helsinki"])
        #expect(added.status == 0, "\(added.standardError)")
        let path = directory.file("city tiles.mbtiles").standardizedFileURL.path
        #expect(
            added.standardOutput == "registered helsinki: \(path), zooms 0-14, bounds 24.9352,60.1642,24.9534,60.1791\n"
        )
        #expect(
            try run(["basemap", "list"]).standardOutput
                == "helsinki: \(path), zooms 0-14, bounds 24.9352,60.1642,24.9534,60.1791\n")

        let after = try run(render + ["-o", "after.png"])
        #expect(after.status == 0 && after.standardError.isEmpty, "\(after.standardError)")
        // Streets, buildings and water where there was beige land and a few names.
        func colourGroups(_ name: String) throws -> Int {
            let image = try RGBAImage(contentsOf: directory.file(name))
            return Set(
                stride(from: 0, to: image.pixels.count, by: 4 * 37).map {
                    image.pixels[$0..<$0 + 3].map { Int($0) / 16 }
                }
            ).count
        }
        #expect(try colourGroups("after.png") > 3 * colourGroups("before.png"))

        let mistake = try run(["basemap", "remove", "helsinky"])
        #expect(mistake.status == 2)
        #expect(
            mistake.standardError
                == "mapwright: basemap: no registered basemap is named 'helsinky' (registered: helsinki)\n")
        #expect(try run(["basemap", "remove", "helsinki"]).standardOutput == "removed helsinki (\(path))\n")
        let raster = try run(["basemap", "add", "before.png"])
        #expect(raster.status == 2)
        #expect(
            raster.standardError.hasPrefix(
                "mapwright: basemap: \(directory.file("before.png").standardizedFileURL.path): "))
    }
}
