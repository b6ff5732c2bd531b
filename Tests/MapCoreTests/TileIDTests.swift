import Foundation
import MapCore
import Testing

struct TileIDTests {
    // MARK: - Validation

    @Test func initRejectsTilesOutsideTheGrid() throws {
        let error = #expect(throws: MapCoreError.self) { try TileID(z: 3, x: 8, y: 0) }
        #expect(error == .invalidTile(z: 3, x: 8, y: 0))
        #expect(error?.description.contains("3/8/0") == true)
        #expect(throws: MapCoreError.self) { try TileID(z: 3, x: 0, y: -1) }
        #expect(throws: MapCoreError.self) { try TileID(z: 31, x: 0, y: 0) }
        #expect(throws: MapCoreError.self) { try TileID(z: -1, x: 0, y: 0) }
        #expect(try TileID(z: 30, x: (1 << 30) - 1, y: (1 << 30) - 1).tilesPerSide == 1 << 30)
    }

    @Test func descriptionIsZoomSlashXSlashY() throws {
        #expect(try TileID(z: 10, x: 518, y: 352).description == "10/518/352")
    }

    // MARK: - Tiles of positions

    @Test func parisAtZoomTenIsTile518Over352() throws {
        let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
        #expect(try TileID(coordinate: paris, zoom: 10) == TileID(z: 10, x: 518, y: 352))
    }

    @Test func tileOfCoordinateAtZoomZeroIsTheWorld() throws {
        let sydney = try Coordinate(latitude: -33.8688, longitude: 151.2093)
        #expect(try TileID(coordinate: sydney, zoom: 0) == TileID(z: 0, x: 0, y: 0))
    }

    @Test func coordinatesBeyondTheMercatorLimitFallInTheEdgeRows() throws {
        let northPole = try Coordinate(latitude: 90, longitude: 0)
        let southPole = try Coordinate(latitude: -90, longitude: 0)
        #expect(try TileID(coordinate: northPole, zoom: 4).y == 0)
        #expect(try TileID(coordinate: southPole, zoom: 4).y == 15)
    }

    @Test func longitude180FallsInTheFirstColumn() throws {
        let antimeridian = try Coordinate(latitude: 0, longitude: 180)
        #expect(try TileID(coordinate: antimeridian, zoom: 4).x == 0)
        #expect(try TileID(mapPoint: MapPoint(x: -1, y: 0), zoom: 4).x == 15)
    }

    @Test func tileOfCoordinateRejectsBadZoom() throws {
        let origin = try Coordinate(latitude: 0, longitude: 0)
        let error = #expect(throws: MapCoreError.self) { try TileID(coordinate: origin, zoom: 31) }
        #expect(error?.description.contains("31.0") == true)
    }

    // MARK: - TMS and quadkeys

    @Test func tmsRowIsFlippedFromTheSouth() throws {
        let tile = try TileID(z: 3, x: 3, y: 5)
        #expect(tile.tmsY == 2)
        #expect(try TileID(z: 3, x: 3, tmsY: 2) == tile)
        #expect(try TileID(z: 0, x: 0, y: 0).tmsY == 0)
        #expect(throws: MapCoreError.invalidTile(z: 3, x: 3, y: 8)) { try TileID(z: 3, x: 3, tmsY: 8) }
        #expect(throws: MapCoreError.invalidTile(z: 3, x: 9, y: 2)) { try TileID(z: 3, x: 9, tmsY: 2) }
    }

    @Test func quadkeyMatchesBingExample() throws {
        // The Bing Maps Tile System article's example: tile X 3, Y 5 at level 3 is "213".
        let tile = try TileID(z: 3, x: 3, y: 5)
        #expect(tile.quadkey == "213")
        #expect(try TileID(quadkey: "213") == tile)
    }

    @Test func quadkeyOfTheWorldTileIsEmpty() throws {
        #expect(try TileID(z: 0, x: 0, y: 0).quadkey == "")
        #expect(try TileID(quadkey: "") == TileID(z: 0, x: 0, y: 0))
    }

    @Test func quadkeyRoundTripsAtTheDeepestZoom() throws {
        let tile = try TileID(z: 30, x: 123_456_789, y: 987_654_321)
        #expect(tile.quadkey.count == 30)
        #expect(try TileID(quadkey: tile.quadkey) == tile)
    }

    @Test func quadkeyInitRejectsBadDigitsAndLength() throws {
        let error = #expect(throws: MapCoreError.self) { try TileID(quadkey: "214") }
        #expect(error?.description.contains("214") == true)
        #expect(throws: MapCoreError.self) { try TileID(quadkey: "2a") }
        #expect(throws: MapCoreError.self) { try TileID(quadkey: "２") }  // a full-width digit
        #expect(throws: MapCoreError.self) { try TileID(quadkey: String(repeating: "0", count: 31)) }
    }

    // MARK: - Bounds

    @Test func mapRectOfTheWorldTileIsTheWorld() throws {
        #expect(try TileID(z: 0, x: 0, y: 0).mapRect == .world)
    }

    @Test func mapRectIsWorldSizeOverTwoToTheZoomWide() throws {
        let tile = try TileID(z: 3, x: 3, y: 5)
        let size = WebMercator.worldSize / 8
        #expect(tile.mapRect == MapRect(x: 3 * size, y: 5 * size, width: size, height: size))
        #expect(try TileID(z: 30, x: 1, y: 0).mapRect == MapRect(x: 0.25, y: 0, width: 0.25, height: 0.25))
    }

    @Test func regionOfAZoomOneTileIsAQuarterOfTheWorld() throws {
        let region = try TileID(z: 1, x: 0, y: 0).region
        #expect(abs(region.west - -180) < 1e-9)
        #expect(abs(region.east - 0) < 1e-9)
        #expect(abs(region.north - WebMercator.maximumLatitude) < 1e-6)
        #expect(abs(region.south) < 1e-9)
    }

    @Test func tileContainsTheCentreOfItsRegion() throws {
        let tile = try TileID(z: 12, x: 2_074, y: 1_409)
        #expect(try TileID(coordinate: tile.region.center, zoom: 12) == tile)
    }

    // MARK: - Pyramid

    @Test func parentOfTheWorldTileIsNil() throws {
        #expect(try TileID(z: 0, x: 0, y: 0).parent == nil)
    }

    @Test func childrenComeInQuadkeyOrderAndHaveThisParent() throws {
        let tile = try TileID(z: 3, x: 3, y: 5)
        let children = tile.children
        #expect(children.map(\.quadkey) == ["2130", "2131", "2132", "2133"])
        #expect(children.allSatisfy { $0.parent == tile })
        #expect(children.allSatisfy { tile.mapRect.contains($0.mapRect) })
    }

    @Test func childrenOfADeepestTileAreNone() throws {
        #expect(try TileID(z: 30, x: 0, y: 0).children.isEmpty)
    }

    @Test func parentOfEveryTileAtZoomTwoContainsIt() throws {
        for x in 0..<4 {
            for y in 0..<4 {
                let tile = try TileID(z: 2, x: x, y: y)
                #expect(tile.parent?.children.contains(tile) == true)
            }
        }
    }

    // MARK: - Ordering and coding

    @Test func tilesSortByZoomThenRowThenColumn() throws {
        let unsorted = try [TileID(z: 2, x: 0, y: 1), TileID(z: 1, x: 1, y: 1), TileID(z: 2, x: 3, y: 0)]
        #expect(unsorted.sorted() == [unsorted[1], unsorted[2], unsorted[0]])
    }

    @Test func codableRoundTripsAndRejectsTilesOutsideTheGrid() throws {
        let tile = try TileID(z: 10, x: 518, y: 352)
        #expect(try JSONDecoder().decode(TileID.self, from: JSONEncoder().encode(tile)) == tile)
        let bad = Data(#"{"z":1,"x":2,"y":0}"#.utf8)
        #expect(throws: MapCoreError.invalidTile(z: 1, x: 2, y: 0)) { try JSONDecoder().decode(TileID.self, from: bad) }
    }
}
