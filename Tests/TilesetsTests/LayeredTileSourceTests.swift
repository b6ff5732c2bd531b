import Foundation
import MBTiles
import MapCore
import MapTestSupport
import Testing
import TileSources
import Tilesets

/// Several tilesets read as one, as the registered street-level basemaps are: the first that
/// covers a tile's place and zoom and has it gives it.
struct LayeredTileSourceTests {
    /// An MBTiles file of `tiles`, each tile's bytes its name and address, with `bounds` and zooms.
    private func tileset(
        _ name: String, in folder: TemporaryDirectory, tiles: [TileID], bounds: BoundingBox?, zooms: ClosedRange<Int>
    ) throws -> URL {
        let url = folder.file("\(name).mbtiles")
        let store = try MBTilesStore(url: url, mode: .create)
        try store.writeMetadata(
            TileMetadata(
                name: name, format: .pbf, bounds: bounds, minZoom: zooms.lowerBound, maxZoom: zooms.upperBound,
                attribution: "© \(name)"))
        let writer = try MBTilesWriter(store: store)
        try writer.add(Dictionary(uniqueKeysWithValues: tiles.map { ($0, Data("\(name) \($0)".utf8)) }))
        try writer.finish()
        return url
    }

    @Test func theFirstCoveringSourceThatHasATileGivesIt() throws {
        let folder = try TemporaryDirectory()
        // A city (one zoom-14 tile and its parent) listed before its country (both zoom-14
        // tiles side by side, and the parent).
        let city = try TileID(z: 14, x: 9326, y: 4740)
        let neighbour = try TileID(z: 14, x: 9327, y: 4740)
        let parent = try TileID(z: 13, x: 4663, y: 2370)
        let region = city.region
        let cityBounds = BoundingBox(
            west: region.west + 1e-4, south: region.south + 1e-4, east: region.east - 1e-4, north: region.north - 1e-4)
        let cityURL = try tileset("city", in: folder, tiles: [city, parent], bounds: cityBounds, zooms: 13...14)
        let countryURL = try tileset(
            "country", in: folder, tiles: [city, neighbour, parent], bounds: nil, zooms: 0...14)
        let layered = try TileSourceLocation.layered([.file(cityURL), .file(countryURL)]).open()

        #expect(try layered.tile(at: city).map { String(decoding: $0, as: UTF8.self) } == "city \(city)")
        #expect(try layered.tile(at: parent).map { String(decoding: $0, as: UTF8.self) } == "city \(parent)")
        // Outside the city's bounds, the country's tile, even where the city's file has none.
        #expect(try layered.tile(at: neighbour).map { String(decoding: $0, as: UTF8.self) } == "country \(neighbour)")
        // Beyond every source's zooms, or where none has a tile: none.
        #expect(try layered.tile(at: try TileID(z: 15, x: 18652, y: 9480)) == nil)
        #expect(try layered.tile(at: try TileID(z: 14, x: 0, y: 0)) == nil)

        let metadata = try layered.metadata()
        #expect(metadata.minZoom == 0 && metadata.maxZoom == 14)
        #expect(metadata.bounds == nil, "the country has no bounds: the set covers wherever it does")
        #expect(metadata.attribution == "© city · © country")
        #expect(metadata.format == .pbf)

        // Every address once, the city's shadowing the country's.
        var listed: [TileID: String] = [:]
        try layered.forEachTile { id, data in
            #expect(listed[id] == nil)
            listed[id] = String(decoding: data, as: UTF8.self)
        }
        #expect(listed == [city: "city \(city)", parent: "city \(parent)", neighbour: "country \(neighbour)"])
    }

    @Test func noSourceIsAnError() {
        #expect(throws: TilesetsError.self) { try LayeredTileSource([]) }
    }
}
