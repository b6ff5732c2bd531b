import MapCore
import MapData
import Testing

struct RasterTileCoverTests {
    private let world = WebMercator.worldSize

    /// "z/x/y@offset" for each placement, in order.
    private func names(_ placements: [RasterTilePlacement]) -> [String] {
        placements.map { "\($0.tile)@\($0.worldOffset)" }
    }

    @Test func tileZoomRoundsTheZoomLevelForTheTileSize() {
        #expect(RasterTileCover.tileZoom(forZoomLevel: 10.4, tileSizePoints: 256) == 10)
        #expect(RasterTileCover.tileZoom(forZoomLevel: 10.6, tileSizePoints: 256) == 11)
        #expect(RasterTileCover.tileZoom(forZoomLevel: 10.4, tileSizePoints: 512) == 9)
        #expect(RasterTileCover.tileZoom(forZoomLevel: 3.6, tileSizePoints: 512) == 3)
        #expect(RasterTileCover.tileZoom(forZoomLevel: 0.2, tileSizePoints: 512) == 0)
        #expect(RasterTileCover.tileZoom(forZoomLevel: 40, tileSizePoints: 256) == 30)
    }

    @Test func tilesInsideTheWorldAreHalfOpen() throws {
        // Exactly the four middle tiles at zoom 2: the edges on tile boundaries add nothing.
        let rect = MapRect(x: world / 4, y: world / 4, width: world / 2, height: world / 2)
        let placements = try RasterTileCover.placements(covering: rect, zoomLevel: 2, tileSizePoints: 256)
        #expect(names(placements) == ["2/1/1@0", "2/2/1@0", "2/1/2@0", "2/2/2@0"])
        #expect(placements.allSatisfy { $0.mapRect == $0.tile.mapRect })
    }

    @Test func aViewAcrossTheAntimeridianDrawsTheEastEdgeOneWorldEast() throws {
        let rect = MapRect(x: 0.97 * world, y: 0.4 * world, width: 0.06 * world, height: 0.2 * world)
        let placements = try RasterTileCover.placements(covering: rect, zoomLevel: 2, tileSizePoints: 256)
        #expect(names(placements) == ["2/3/1@0", "2/0/1@1", "2/3/2@0", "2/0/2@1"])
        #expect(placements[1].mapRect == MapRect(x: world, y: world / 4, width: world / 4, height: world / 4))
    }

    @Test func aViewWestOfTheWorldDrawsTheWestCopy() throws {
        let rect = MapRect(x: -0.1 * world, y: 0.1 * world, width: 0.2 * world, height: 0.1 * world)
        let placements = try RasterTileCover.placements(covering: rect, zoomLevel: 2, tileSizePoints: 256)
        #expect(names(placements) == ["2/3/0@-1", "2/0/0@0"])
        #expect(placements[0].mapRect.minX == -world / 4)
    }

    @Test func aViewWiderThanTheWorldDrawsEveryCopyItShows() throws {
        let rect = MapRect(x: -0.5 * world, y: 0, width: 2 * world, height: world)
        let placements = try RasterTileCover.placements(covering: rect, zoomLevel: 0, tileSizePoints: 256)
        #expect(names(placements) == ["0/0/0@-1", "0/0/0@0", "0/0/0@1"])
        #expect(placements.map(\.mapRect.minX) == [-world, 0, world])
    }

    @Test func theSourceZoomRangeLimitsTheTiles() throws {
        let paris = MapRect(x: 0.5064 * world, y: 0.3440 * world, width: 1, height: 1)
        #expect(try RasterTileCover.placements(covering: paris, zoomLevel: 2, tileSizePoints: 256, minZoom: 3).isEmpty)
        let deep = try RasterTileCover.placements(covering: paris, zoomLevel: 16, tileSizePoints: 256, maxZoom: 12)
        #expect(deep.map(\.tile) == [try TileID(mapPoint: paris.origin, zoom: 12)])
        let large = try RasterTileCover.placements(covering: paris, zoomLevel: 16, tileSizePoints: 512)
        #expect(large.map(\.tile.z) == [15])
    }

    @Test func degenerateAndHugeViews() throws {
        #expect(try RasterTileCover.placements(covering: .null, zoomLevel: 3, tileSizePoints: 256).isEmpty)
        #expect(
            try RasterTileCover.placements(
                covering: MapRect(x: .nan, y: 0, width: 1, height: 1), zoomLevel: 3, tileSizePoints: 256
            ).isEmpty)
        #expect(throws: MapCoreError.tooManyTiles(count: 1 << 20, limit: 4_096)) {
            try RasterTileCover.placements(covering: .world, zoomLevel: 10, tileSizePoints: 256)
        }
    }
}
