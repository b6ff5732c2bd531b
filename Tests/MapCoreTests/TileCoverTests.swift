import Foundation
import MapCore
import Testing

struct TileCoverTests {
    @Test func regionAcrossTheAntimeridianGetsTilesFromBothEdges() throws {
        let pacific = try CoordinateRegion(west: 170, south: -10, east: -170, north: 10)
        let tiles = try TileID.tiles(covering: pacific, zoom: 2)
        #expect(
            try tiles == [
                TileID(z: 2, x: 0, y: 1), TileID(z: 2, x: 3, y: 1),
                TileID(z: 2, x: 0, y: 2), TileID(z: 2, x: 3, y: 2),
            ])
    }

    @Test func coversAreSorted() throws {
        let pacific = try CoordinateRegion(west: 150, south: -40, east: -120, north: 60)
        let tiles = try TileID.tiles(covering: pacific, zoom: 5)
        #expect(!tiles.isEmpty)
        #expect(tiles == tiles.sorted())
        #expect(Set(tiles).count == tiles.count)
    }

    @Test func theWholeWorldGetsEveryTile() throws {
        let world = CoordinateRegion(MapRect.world)
        #expect(try TileID.tiles(covering: world, zoom: 2).count == 16)
        #expect(try TileID.tiles(covering: MapRect.world, zoom: 3).count == 64)
    }

    @Test func aTilesOwnRectGetsOnlyThatTile() throws {
        let tile = try TileID(z: 7, x: 40, y: 90)
        #expect(try TileID.tiles(covering: tile.mapRect, zoom: 7) == [tile])
        #expect(try TileID.tiles(covering: tile.mapRect, zoom: 8) == tile.children.sorted())
    }

    @Test func aRegionOfZeroSpanGetsTheTileHoldingItsCentre() throws {
        let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
        let point = CoordinateRegion(center: paris, span: try CoordinateSpan(latitudeDelta: 0, longitudeDelta: 0))
        #expect(try TileID.tiles(covering: point, zoom: 10) == [TileID(z: 10, x: 518, y: 352)])
    }

    @Test func aRectStartingWestOfTheWorldWraps() throws {
        let tileSize = WebMercator.worldSize / 4
        let rect = MapRect(x: -tileSize / 2, y: 0, width: tileSize, height: tileSize / 2)
        #expect(try TileID.tiles(covering: rect, zoom: 2) == [TileID(z: 2, x: 0, y: 0), TileID(z: 2, x: 3, y: 0)])
    }

    @Test func latitudesBeyondTheMercatorLimitAreClamped() throws {
        let arctic = try CoordinateRegion(west: -10, south: 80, east: 10, north: 90)
        let tiles = try TileID.tiles(covering: arctic, zoom: 3)
        #expect(try tiles == [TileID(z: 3, x: 3, y: 0), TileID(z: 3, x: 4, y: 0)])
    }

    @Test func nullRectGetsNoTiles() throws {
        #expect(try TileID.tiles(covering: MapRect.null, zoom: 5).isEmpty)
    }

    @Test func coverRejectsBadZoom() throws {
        #expect(throws: MapCoreError.invalidZoomLevel(31, range: 0...30)) {
            try TileID.tiles(covering: MapRect.world, zoom: 31)
        }
        #expect(throws: MapCoreError.invalidZoomLevel(-1, range: 0...30)) {
            try TileID.tiles(covering: MapRect.world, zoom: -1)
        }
    }

    @Test func coverLargerThanTheLimitThrowsWithItsCount() throws {
        let error = #expect(throws: MapCoreError.self) { try TileID.tiles(covering: MapRect.world, zoom: 11) }
        #expect(error == .tooManyTiles(count: 1 << 22, limit: TileID.defaultMaximumCoverCount))
        #expect(error?.description.contains("4194304") == true)
        // The whole world at zoom 30 is 2^60 tiles: counted without overflow.
        #expect(throws: MapCoreError.tooManyTiles(count: 1 << 60, limit: 10)) {
            try TileID.tiles(covering: MapRect.world, zoom: 30, maximumCount: 10)
        }
        #expect(try TileID.tiles(covering: MapRect.world, zoom: 1, maximumCount: 4).count == 4)
    }
}
