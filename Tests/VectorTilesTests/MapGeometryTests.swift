import MapCore
import MapTestSupport
import Testing
import VectorTiles

/// `VectorTileGeometry.mapPoints(in:extent:)` against MapCore's tile math: `TileID.mapRect` and
/// `TileID(mapPoint:zoom:)`.
struct MapGeometryTests {
    private func tiles() throws -> [TileID] {
        [
            try TileID(z: 0, x: 0, y: 0), try TileID(z: 1, x: 1, y: 0), try TileID(z: 14, x: 9326, y: 4742),
            try TileID(z: 22, x: 4_000_000, y: 17),
        ]
    }

    @Test func theTilesCornersLandOnItsMapRectsCorners() throws {
        for tile in try tiles() {
            for extent in [4096, 512, 1] {
                let e = Int32(extent)
                let corners = VectorTileGeometry.points(points((0, 0), (e, 0), (e, e), (0, e))).mapPoints(
                    in: tile, extent: extent)
                let rect = tile.mapRect
                #expect(
                    corners
                        == .points([
                            MapPoint(x: rect.minX, y: rect.minY), MapPoint(x: rect.maxX, y: rect.minY),
                            MapPoint(x: rect.maxX, y: rect.maxY), MapPoint(x: rect.minX, y: rect.maxY),
                        ]), "\(tile) extent \(extent)")
            }
        }
    }

    @Test func aPointAtHalfTheExtentIsTheTilesCentre() throws {
        for tile in try tiles() {
            let centre = VectorTileGeometry.points(points((2048, 2048))).mapPoints(in: tile, extent: 4096)
            #expect(centre == .points([tile.mapRect.center]), "\(tile)")
        }
    }

    @Test func bufferPointsLandInTheNeighbouringTiles() throws {
        let tile = try TileID(z: 14, x: 9326, y: 4742)
        guard
            case .points(let placed) = VectorTileGeometry.points(points((-1, 2048), (4097, 4097))).mapPoints(
                in: tile, extent: 4096)
        else {
            Issue.record("not points")
            return
        }
        #expect(
            try placed.map { try TileID(mapPoint: $0, zoom: 14) } == [
                TileID(z: 14, x: 9325, y: 4742), TileID(z: 14, x: 9327, y: 4743),
            ])
    }

    @Test func linesAndPolygonsKeepTheirShapeAndNoneStaysNone() throws {
        let tile = try TileID(z: 1, x: 0, y: 0)  // the world's north-west quarter, 2^27 points wide
        let unit = 134_217_728.0 / 4
        let rings = [points((0, 0), (4, 0), (4, 4)), points((1, 1), (1, 2), (2, 2))]
        #expect(
            VectorTileGeometry.lines([points((0, 0), (2, 1))]).mapPoints(in: tile, extent: 4)
                == .lines([[MapPoint(x: 0, y: 0), MapPoint(x: 2 * unit, y: unit)]]))
        #expect(
            VectorTileGeometry.polygons([rings]).mapPoints(in: tile, extent: 4)
                == .polygons([
                    [
                        [MapPoint(x: 0, y: 0), MapPoint(x: 4 * unit, y: 0), MapPoint(x: 4 * unit, y: 4 * unit)],
                        [
                            MapPoint(x: unit, y: unit), MapPoint(x: unit, y: 2 * unit),
                            MapPoint(x: 2 * unit, y: 2 * unit),
                        ],
                    ]
                ]))
        #expect(VectorTileGeometry.none.mapPoints(in: tile, extent: 4) == MapGeometry.none)
    }
}
