import Foundation
import MBTiles
import MapAssembly
import MapCore
import MapStyle
import MapTestSupport
import Testing
import TileSources

/// The street-level basemaps a user registers, and how every style's loading takes them.
struct StreetBasemapsTests {
    private static let helsinki = RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki.mbtiles")

    /// A lookup whose user data folder is `home`'s own, with no data folder but `data`'s.
    private func locations(home: TemporaryDirectory, data: URL? = nil) -> DataLocations {
        var environment = [
            "HOME": home.url.path, "XDG_DATA_HOME": home.file("data").path, "MAPWRIGHT_NO_CHECKOUT": "1",
        ]
        if let data { environment["MAPWRIGHT_DATA"] = data.path }
        return DataLocations(environment: environment, executableURL: nil)
    }

    @Test func registeringListingAndRemoving() throws {
        let home = try TemporaryDirectory()
        let basemaps = StreetBasemaps(locations: locations(home: home))
        #expect(try basemaps.all().isEmpty)
        #expect(basemaps.tilesetURLs().isEmpty)

        let entry = try basemaps.add(path: Self.helsinki.path)
        #expect(entry.name == "helsinki" && entry.path == Self.helsinki.path)
        #expect(entry.minZoom == 0 && entry.maxZoom == 14)
        #expect(entry.bounds == BoundingBox(west: 24.935176, south: 60.164155, east: 24.953415, north: 60.179113))
        // A second file, newer, comes first; the same path again replaces its entry.
        let copy = home.file("city of Helsinki.mbtiles")
        try FileManager.default.copyItem(at: Self.helsinki, to: copy)
        try basemaps.add(path: copy.path, name: "city")
        try basemaps.add(path: Self.helsinki.path)
        #expect(try basemaps.registered().map(\.name) == ["helsinki", "city"])
        #expect(basemaps.tilesetURLs().map(\.path) == [Self.helsinki.path, copy.path])
        // Registered in the user's data folder, readable by another lookup of the same folders.
        #expect(FileManager.default.fileExists(atPath: home.file("data/mapwright/basemaps.json").path))
        #expect(try StreetBasemaps(locations: locations(home: home)).registered().count == 2)

        // A name taken by another file is refused, naming both.
        #expect { try basemaps.add(path: copy.path, name: "helsinki") } throws: { error in
            "\(error)".hasPrefix("basemap: the name 'helsinki' is taken by \(Self.helsinki.path)")
        }
        let removed = try basemaps.remove(name: "city")
        #expect(removed.path == copy.path)
        #expect(FileManager.default.fileExists(atPath: copy.path), "the file stays where it is")
        #expect { try basemaps.remove(name: "city") } throws: { error in
            "\(error)" == "basemap: no registered basemap is named 'city' (registered: helsinki)"
        }
    }

    @Test func filesThatAreNotOpenMapTilesVectorTilesAreRefusedNamingThem() throws {
        let home = try TemporaryDirectory()
        let basemaps = StreetBasemaps(locations: locations(home: home))
        #expect { try basemaps.add(path: home.file("missing.mbtiles").path) } throws: { error in
            "\(error)" == "basemap: '\(home.file("missing.mbtiles").path)' does not exist"
        }
        // Raster tiles, and vector tiles of Protomaps' schema.
        let raster = home.file("raster.mbtiles")
        let store = try MBTilesStore(url: raster, mode: .create)
        try store.writeMetadata(TileMetadata(name: "Imagery", format: .png))
        let protomaps = home.file("protomaps.mbtiles")
        let other = try MBTilesStore(url: protomaps, mode: .create)
        try other.writeMetadata(
            TileMetadata(
                name: "Protomaps", format: .pbf,
                json:
                    #"{"vector_layers":[{"id":"earth","fields":{}},{"id":"roads","fields":{}},{"id":"water","fields":{}}]}"#
            ))
        let neither = home.file("neither.mbtiles")
        let third = try MBTilesStore(url: neither, mode: .create)
        try third.writeMetadata(
            TileMetadata(
                name: "Other", format: .pbf,
                json: #"{"vector_layers":[{"id":"contours","fields":{}},{"id":"peaks","fields":{}}]}"#))
        #expect { try basemaps.add(path: raster.path) } throws: { error in
            "\(error)".contains("holds png tiles, not vector tiles")
        }
        #expect { try basemaps.add(path: neither.path) } throws: { error in
            "\(error)".contains("is of neither the OpenMapTiles nor the Protomaps schema (its layers: contours, peaks)")
        }
        #expect(try basemaps.registered().isEmpty, "nothing registered")
        // Protomaps' schema is registered as such, for the styles' basemap://streets-protomaps.
        #expect(try basemaps.add(path: protomaps.path).schema == .protomaps)
        #expect(basemaps.tilesets() == [.protomaps: [protomaps.standardizedFileURL]])
    }

    @Test func everyStyleTakesTheBasemapsWithoutAnOption() throws {
        let home = try TemporaryDirectory()
        let locations = locations(home: home)
        let styles = RepositoryFiles.root.appendingPathComponent("Styles").path
        // None: the standard look's streets draw nothing; the streets style still asks for tiles.
        let none = MapInputs(stylesDirectory: styles, locations: locations)
        let plain = try none.loadStyle(named: "standard").style
        guard case .vector(let empty)? = plain.sources["streets"] else { return #expect(Bool(false)) }
        #expect(empty.location == .tilesets([]))
        #expect(throws: AssemblyError.self) { try none.loadStyle(named: "streets") }
        #expect(none.vectorSourceIdentity == "-")

        try StreetBasemaps(locations: locations).add(path: Self.helsinki.path)
        let inputs = MapInputs(stylesDirectory: styles, locations: locations)
        for name in ["standard", "muted", "dark"] {
            let style = try inputs.loadStyle(named: name).style
            guard case .vector(let streets)? = style.sources["streets"] else { return #expect(Bool(false)) }
            #expect(streets.location == .tilesets([Self.helsinki]), "\(name)")
        }
        let streets = try inputs.loadStyle(named: "streets").style
        guard case .vector(let openMapTiles)? = streets.sources["openmaptiles"] else { return #expect(Bool(false)) }
        #expect(openMapTiles.location == .tilesets([Self.helsinki]))
        #expect(inputs.vectorSourceIdentity.hasPrefix("streets:\(Self.helsinki.path):"))
    }

    @Test func aDataFoldersStreetTilesetsAreDrawnAfterTheRegisteredOnes() throws {
        let home = try TemporaryDirectory()
        let data = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: data.file("Tiles/streets"), withIntermediateDirectories: true)
        let bundled = data.file("Tiles/streets/helsinki.mbtiles")
        try FileManager.default.copyItem(at: Self.helsinki, to: bundled)
        let basemaps = StreetBasemaps(locations: locations(home: home, data: data.url))
        #expect(basemaps.tilesetURLs().map(\.path) == [bundled.standardizedFileURL.path])
        #expect(try basemaps.all().map(\.isBundled) == [true])
        try basemaps.add(path: Self.helsinki.path)
        #expect(basemaps.tilesetURLs().map(\.path) == [Self.helsinki.path, bundled.standardizedFileURL.path])
        #expect { try basemaps.remove(name: "nowhere") } throws: { error in "\(error)".contains("registered: helsinki")
        }
    }
}
