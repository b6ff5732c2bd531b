import MapCore
import Testing

@testable import PMTiles

struct TileIDHilbertTests {
    /// The specification's table (4.1) and the ids the reference implementations test.
    @Test(arguments: [
        (0, 0, 0, UInt64(0)),
        (1, 0, 0, 1),
        (1, 0, 1, 2),
        (1, 1, 1, 3),
        (1, 1, 0, 4),
        (2, 0, 0, 5),
        (12, 3423, 1763, 19_078_479),
    ])
    func specificationIDs(z: Int, x: Int, y: Int, id: UInt64) throws {
        let tile = try TileID(z: z, x: x, y: y)
        #expect(tile.pmtilesID == id)
        #expect(TileID(pmtilesID: id) == tile)
    }

    @Test func eachZoomStartsAfterAllTilesAbove() throws {
        // (4^z - 1) / 3 tiles above zoom z: 0, 1, 5, 21, 85, ...
        #expect((0...5).map { TileID.firstPMTilesID(atZoom: $0) } == [0, 1, 5, 21, 85, 341])
        for z in 0...TileID.maximumZoom {
            #expect(try TileID(z: z, x: 0, y: 0).pmtilesID == TileID.firstPMTilesID(atZoom: z))
        }
    }

    @Test func everyTileToZoomSixRoundTripsAndIDsAreDenseAndDistinct() throws {
        for z in 0...6 {
            var ids = Set<UInt64>()
            for x in 0..<(1 << z) {
                for y in 0..<(1 << z) {
                    let tile = try TileID(z: z, x: x, y: y)
                    ids.insert(tile.pmtilesID)
                    #expect(TileID(pmtilesID: tile.pmtilesID) == tile)
                }
            }
            let first = TileID.firstPMTilesID(atZoom: z)
            #expect(ids == Set(first..<first + UInt64(1 << (2 * z))))
        }
    }

    @Test func theCurveStepsBetweenNeighbours() throws {
        // A Hilbert curve moves one tile at a time: consecutive ids are edge neighbours.
        let z = 5
        let first = TileID.firstPMTilesID(atZoom: z)
        for id in first..<first + UInt64(1 << (2 * z)) - 1 {
            let a = try #require(TileID(pmtilesID: id))
            let b = try #require(TileID(pmtilesID: id + 1))
            #expect(abs(a.x - b.x) + abs(a.y - b.y) == 1, "\(a) then \(b)")
        }
    }

    @Test func cornersRoundTripAtEveryZoom() throws {
        for z in 0...TileID.maximumZoom {
            let last = (1 << z) - 1
            for (x, y) in [(0, 0), (last, 0), (0, last), (last, last)] {
                let tile = try TileID(z: z, x: x, y: y)
                #expect(TileID(pmtilesID: tile.pmtilesID) == tile)
            }
        }
    }

    @Test func idsBeyondZoomThirtyAreNoTile() throws {
        #expect(TileID(pmtilesID: TileID.firstPMTilesID(atZoom: 31)) == nil)
        #expect(TileID(pmtilesID: UInt64.max) == nil)
        let lastAtThirty = TileID.firstPMTilesID(atZoom: 31) - 1
        #expect(TileID(pmtilesID: lastAtThirty)?.z == 30)
    }
}
