import Foundation
import MapCore
import Testing

struct MetatileIDTests {
    @Test func aTileBelongsToTheMetatileOfItsColumnAndRowDividedBySize() throws {
        let tile = try TileID(z: 10, x: 518, y: 352)
        let metatile = MetatileID(containing: tile)
        #expect(metatile == (try MetatileID(z: 10, x: 64, y: 44)))
        #expect(metatile.tileColumns == 512...519)
        #expect(metatile.tileRows == 352...359)
        #expect(metatile.contains(tile))
        #expect(!metatile.contains(try TileID(z: 10, x: 520, y: 352)))
        #expect(!metatile.contains(try TileID(z: 11, x: 518, y: 352)))
        #expect(MetatileID(containing: tile, size: 4) == (try MetatileID(z: 10, x: 129, y: 88, size: 4)))
        #expect(metatile.description == "10/64/44")
        #expect(MetatileID(containing: tile, size: 4).description == "10/129/88 (4x4)")
    }

    @Test func metatilesAtSmallZoomsAreClippedToTheWorld() throws {
        // Zoom 0: one tile; 1: 2 x 2; 2: 4 x 4; 3: the whole 8 x 8 metatile.
        for (zoom, side) in [(0, 1), (1, 2), (2, 4), (3, 8)] {
            let metatile = try MetatileID(z: zoom, x: 0, y: 0)
            #expect(metatile.tileCount == side * side, "zoom \(zoom)")
            #expect(metatile.tiles == (try TileID.tiles(covering: .world, zoom: zoom)), "zoom \(zoom)")
            #expect(metatile.mapRect == .world, "zoom \(zoom)")
            #expect(MetatileID.metatilesPerSide(atZoom: zoom, size: 8) == 1)
            #expect(throws: MapCoreError.invalidMetatile(z: zoom, x: 1, y: 0, size: 8)) {
                try MetatileID(z: zoom, x: 1, y: 0)
            }
        }
        // A size that does not divide the world: zoom 3 in 3 x 3 metatiles is 3 + 3 + 2 tiles wide.
        let last = try MetatileID(z: 3, x: 2, y: 2, size: 3)
        #expect(last.tileColumns == 6...7 && last.tileRows == 6...7)
        #expect(last.tiles.map(\.description) == ["3/6/6", "3/7/6", "3/6/7", "3/7/7"])
        #expect(MetatileID.metatilesPerSide(atZoom: 3, size: 3) == 3)
    }

    @Test func tilesComeRowByRowAndEveryTileOfAZoomIsInExactlyOneMetatile() throws {
        let metatile = try MetatileID(z: 4, x: 1, y: 0)
        #expect(metatile.tiles.first?.description == "4/8/0")
        #expect(metatile.tiles.last?.description == "4/15/7")
        #expect(metatile.tiles == metatile.tiles.sorted())
        for zoom in 0...5 {
            var seen: [TileID: MetatileID] = [:]
            let side = MetatileID.metatilesPerSide(atZoom: zoom, size: 8)
            for y in 0..<side {
                for x in 0..<side {
                    let metatile = try MetatileID(z: zoom, x: x, y: y)
                    for tile in metatile.tiles {
                        #expect(seen[tile] == nil, "\(tile) is in two metatiles")
                        seen[tile] = metatile
                        #expect(MetatileID(containing: tile) == metatile)
                    }
                }
            }
            #expect(seen.count == 1 << (2 * zoom))
        }
    }

    @Test func sizesOutsideOneToSixteenAreRefused() throws {
        #expect(throws: MapCoreError.invalidMetatileSize(0, range: 1...16)) {
            try MetatileID(z: 0, x: 0, y: 0, size: 0)
        }
        #expect(throws: MapCoreError.invalidMetatileSize(17, range: 1...16)) {
            try MetatileID(z: 5, x: 0, y: 0, size: 17)
        }
        #expect(
            MapCoreError.invalidMetatileSize(17, range: 1...16).description
                == "metatile size 17 is outside [1, 16] tiles per side")
        #expect(throws: MapCoreError.invalidMetatile(z: 31, x: 0, y: 0, size: 8)) { try MetatileID(z: 31, x: 0, y: 0) }
    }

    @Test func metatilesOrderByZoomRowColumn() throws {
        let a = try MetatileID(z: 4, x: 1, y: 0)
        let b = try MetatileID(z: 4, x: 0, y: 1)
        let c = try MetatileID(z: 5, x: 0, y: 0)
        #expect([c, b, a].sorted() == [a, b, c])
    }
}

struct MetatileCoverTests {
    @Test func theWorldToZoomSixIs5461TilesIn88Metatiles() throws {
        let world = try MetatileCover.world(zoomLevels: 0...6)
        #expect(world.tileCount == 5_461)
        #expect((0...6).map(world.tileCount(atZoom:)) == [1, 4, 16, 64, 256, 1_024, 4_096])
        #expect((0...6).map(world.metatileCount(atZoom:)) == [1, 1, 1, 1, 4, 16, 64])
        #expect(world.metatileCount == 88)
        let metatiles = Array(world.metatiles)
        #expect(metatiles.count == 88)
        #expect(metatiles == metatiles.sorted())
        #expect(metatiles.reduce(0) { $0 + world.tiles(in: $1).count } == 5_461)
        #expect(metatiles.allSatisfy { world.tiles(in: $0) == $0.tiles })
        let beyond = try MetatileID(z: 7, x: 0, y: 0)
        #expect(world.tileCount(atZoom: 7) == 0 && world.tiles(in: beyond).isEmpty)
    }

    @Test func countsAreArithmeticEvenForTheWholePyramid() throws {
        let world = try MetatileCover.world(zoomLevels: 0...30)
        // 1 + 4 + ... + 4^30 = (4^31 - 1) / 3.
        #expect(world.tileCount == ((1 << 62) - 1) / 3)
        #expect(world.metatileCount(atZoom: 30) == 1 << 54)
        #expect(world.metatiles.first { $0.z == 4 } == (try MetatileID(z: 4, x: 0, y: 0)))
    }

    @Test func aRegionsCoverHasTheTilesOfTheTileCoverAtEveryZoom() throws {
        let alps = try CoordinateRegion(west: 5.5, south: 43.5, east: 16.5, north: 48.5)
        let cover = try MetatileCover(region: alps, zoomLevels: 2...9)
        for zoom in 2...9 {
            let expected = try TileID.tiles(covering: alps, zoom: zoom)
            let metatiles = cover.metatiles.filter { $0.z == zoom }
            let tiles = metatiles.flatMap(cover.tiles(in:))
            #expect(tiles.sorted() == expected, "zoom \(zoom)")
            #expect(Set(tiles).count == tiles.count, "zoom \(zoom): a tile in two metatiles")
            #expect(cover.tileCount(atZoom: zoom) == expected.count)
            #expect(cover.metatileCount(atZoom: zoom) == metatiles.count)
            #expect(
                metatiles.allSatisfy {
                    cover.tileCount(in: $0) == cover.tiles(in: $0).count && cover.tileCount(in: $0) > 0
                })
            #expect(expected.allSatisfy(cover.contains))
        }
        // An edge metatile holds tiles outside the region, which the cover leaves out.
        let edge = try #require(cover.metatiles.first { $0.z == 9 })
        #expect(cover.tiles(in: edge).count < edge.tileCount)
        #expect(!edge.tiles.allSatisfy(cover.contains))
    }

    @Test func aRegionAcrossTheAntimeridianSharesMetatilesOnlyWhereTheWorldIsNarrow() throws {
        let pacific = try CoordinateRegion(west: 170, south: -10, east: -170, north: 10)
        let cover = try MetatileCover(region: pacific, zoomLevels: 0...6)
        for zoom in 0...6 {
            let tiles = cover.metatiles.filter { $0.z == zoom }.flatMap(cover.tiles(in:))
            #expect(tiles.sorted() == (try TileID.tiles(covering: pacific, zoom: zoom)), "zoom \(zoom)")
        }
        // Zoom 3: columns 7 and 0, one metatile; zoom 6: columns 62...63 and 0...1, two metatile
        // columns, on rows 30 to 33: two metatile rows.
        #expect(cover.tileColumns(atZoom: 3) == [0...0, 7...7])
        #expect(cover.metatileCount(atZoom: 3) == 1)
        #expect(cover.tileColumns(atZoom: 6) == [0...1, 62...63])
        #expect(cover.tileRows(atZoom: 6) == 30...33)
        #expect(cover.metatiles.filter { $0.z == 6 }.map(\.description) == ["6/0/3", "6/7/3", "6/0/4", "6/7/4"])
    }

    @Test func positionsNumberTheMetatilesInOrder() throws {
        let pacific = try CoordinateRegion(west: 150, south: -40, east: -120, north: 30)
        let cover = try MetatileCover(region: pacific, zoomLevels: 1...8, metatileSize: 4)
        for (offset, metatile) in cover.metatiles.enumerated() {
            #expect(cover.position(of: metatile) == offset, "\(metatile)")
        }
        #expect(cover.position(of: try MetatileID(z: 8, x: 30, y: 30, size: 4)) == nil)
        #expect(cover.position(of: try MetatileID(z: 8, x: 0, y: 30, size: 8)) == nil)
        #expect(cover.position(of: try MetatileID(z: 0, x: 0, y: 0, size: 4)) == nil)
    }

    @Test func shardsDealWholeMetatilesOnceEach() throws {
        let cover = try MetatileCover.world(zoomLevels: 0...7)
        let all = Array(cover.metatiles)
        var dealt: [MetatileID] = []
        var sizes: [Int] = []
        for index in 0..<3 {
            let shard = Array(try cover.metatiles(inShard: index, of: 3))
            dealt += shard
            sizes.append(shard.count)
            #expect(shard.allSatisfy { cover.position(of: $0)! % 3 == index })
            #expect(
                Set(shard.filter { $0.z >= 5 }.map(\.z)) == [5, 6, 7], "every deep zoom is spread over every shard")
        }
        #expect(dealt.sorted() == all)
        #expect(sizes.max()! - sizes.min()! <= 1)
        #expect(try (0..<3).reduce(0) { $0 + (try cover.tileCount(inShard: $1, of: 3)) } == cover.tileCount)
        #expect(throws: MapCoreError.invalidShard(index: 3, count: 3)) { try cover.metatiles(inShard: 3, of: 3) }
        #expect(throws: MapCoreError.invalidShard(index: 0, count: 0)) { try cover.tileCount(inShard: 0, of: 0) }
    }

    @Test func badZoomRangesAndEmptyAreasAreHandled() throws {
        #expect(throws: MapCoreError.invalidZoomRange(0...31)) { try MetatileCover.world(zoomLevels: 0...31) }
        #expect(throws: MapCoreError.invalidZoomRange(-1...3)) { try MetatileCover.world(zoomLevels: -1...3) }
        #expect(throws: MapCoreError.invalidMetatileSize(32, range: 1...16)) {
            try MetatileCover.world(zoomLevels: 0...3, metatileSize: 32)
        }
        let empty = try MetatileCover(mapRect: .null, zoomLevels: 0...5)
        #expect(empty.tileCount == 0 && empty.metatileCount == 0)
        #expect(Array(empty.metatiles).isEmpty)
    }
}
