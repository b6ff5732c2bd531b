import MapTestSupport
import Testing
import VectorTiles

/// Geometry commands (spec 4.3), decoded through whole tiles. The spec's own examples (4.3.5)
/// are checked number for number as the specification prints them.
struct VectorTileGeometryTests {
    private let point: UInt64 = 1, line: UInt64 = 2, polygon: UInt64 = 3

    // MARK: - The specification's examples

    @Test func specPointExampleIsOnePoint() throws {
        #expect(try TestTile.decodedGeometry([9, 50, 34], type: point) == .points(points((25, 17))))
    }

    @Test func specMultiPointExampleIsTwoPointsFromOneMoveTo() throws {
        #expect(try TestTile.decodedGeometry([17, 10, 14, 3, 9], type: point) == .points(points((5, 7), (3, 2))))
    }

    @Test func specLineExampleIsOneLine() throws {
        #expect(
            try TestTile.decodedGeometry([9, 4, 4, 18, 0, 16, 16, 0], type: line)
                == .lines([points((2, 2), (2, 10), (10, 10))]))
    }

    @Test func specMultiLineExampleCarriesTheCursorIntoTheSecondLine() throws {
        let numbers: [UInt32] = [9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8]
        #expect(
            try TestTile.decodedGeometry(numbers, type: line)
                == .lines([points((2, 2), (2, 10), (10, 10)), points((1, 1), (3, 5))]))
    }

    @Test func specPolygonExampleIsOneRingWithoutItsClosingPoint() throws {
        let numbers: [UInt32] = [9, 6, 12, 18, 10, 12, 24, 44, 15]
        #expect(
            try TestTile.decodedGeometry(numbers, type: polygon) == .polygons([[points((3, 6), (8, 12), (20, 34))]]))
    }

    @Test func specMultiPolygonExampleGroupsTheHoleWithTheSecondExterior() throws {
        let numbers: [UInt32] = [
            9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 9, 22, 2, 26, 18, 0, 0, 18, 17, 0, 15, 9, 4, 13, 26, 0, 8, 8, 0, 0, 7,
            15,
        ]
        #expect(
            try TestTile.decodedGeometry(numbers, type: polygon)
                == .polygons([
                    [points((0, 0), (10, 0), (10, 10), (0, 10))],
                    [points((11, 11), (20, 11), (20, 20), (11, 20)), points((13, 13), (13, 17), (17, 17), (17, 13))],
                ]))
    }

    /// The tests' own encoder writes the spec's examples, so the tiles it builds elsewhere mean
    /// what the tests say.
    @Test func testEncoderWritesTheSpecExamples() {
        var line = GeometryWriter()
        line.moveTo((2, 2))
        line.lineTo((2, 10), (10, 10))
        line.moveTo((1, 1))
        line.lineTo((3, 5))
        #expect(line.numbers == [9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8])
        var polygons = GeometryWriter()
        polygons.ring([(0, 0), (10, 0), (10, 10), (0, 10)])
        polygons.ring([(11, 11), (20, 11), (20, 20), (11, 20)])
        polygons.ring([(13, 13), (13, 17), (17, 17), (17, 13)])
        #expect(
            polygons.numbers == [
                9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 9, 22, 2, 26, 18, 0, 0, 18, 17, 0, 15, 9, 4, 13, 26, 0, 8, 8, 0,
                0, 7, 15,
            ])
        #expect(GeometryWriter.command(1, count: 120) == 961)
        #expect(
            [0, -1, 1, -2, Int32.max, Int32.min].map(GeometryWriter.zigzag) == [0, 1, 2, 3, UInt32.max - 1, UInt32.max])
    }

    // MARK: - Commands and the cursor

    @Test func negativeDeltasMoveTheCursorBackIntoTheBuffer() throws {
        var geometry = GeometryWriter()
        geometry.moveTo((100, 100))
        geometry.lineTo((-64, 50), (-64, -64), (4160, 4200))
        #expect(
            try TestTile.decodedGeometry(geometry.numbers, type: line)
                == .lines([points((100, 100), (-64, 50), (-64, -64), (4160, 4200))]))
    }

    @Test func multipointFromSeveralMoveTosIsOneMultipoint() throws {
        var geometry = GeometryWriter()
        geometry.moveTo((1, 2), (3, 4))
        geometry.moveTo((-5, 6))
        #expect(try TestTile.decodedGeometry(geometry.numbers, type: point) == .points(points((1, 2), (3, 4), (-5, 6))))
    }

    @Test func lineToCommandsMayFollowOneAnother() throws {
        var geometry = GeometryWriter()
        geometry.moveTo((0, 0))
        geometry.lineTo((5, 0))
        geometry.lineTo((5, 5), (0, 5))
        #expect(
            try TestTile.decodedGeometry(geometry.numbers, type: line)
                == .lines([points((0, 0), (5, 0), (5, 5), (0, 5))]))
    }

    @Test func polygonWithAHoleIsOnePolygonOfTwoRings() throws {
        var geometry = GeometryWriter()
        geometry.ring([(10, 10), (100, 10), (100, 100), (10, 100)])
        geometry.ring([(30, 30), (30, 60), (60, 60), (60, 30)])
        #expect(
            try TestTile.decodedGeometry(geometry.numbers, type: polygon)
                == .polygons([
                    [
                        points((10, 10), (100, 10), (100, 100), (10, 100)),
                        points((30, 30), (30, 60), (60, 60), (60, 30)),
                    ]
                ]))
    }

    @Test func multipolygonOfTwoExteriorsEachWithAHoleIsTwoPolygons() throws {
        let first = [points((0, 0), (50, 0), (50, 50), (0, 50)), points((10, 10), (10, 20), (20, 20), (20, 10))]
        let second = [
            points((-100, -100), (-60, -100), (-60, -60), (-100, -60)),
            points((-90, -90), (-90, -80), (-80, -80), (-80, -90)),
        ]
        var geometry = GeometryWriter()
        for ring in first + second { geometry.ring(ring.map { ($0.x, $0.y) }) }
        #expect(try TestTile.decodedGeometry(geometry.numbers, type: polygon) == .polygons([first, second]))
    }

    @Test func unknownGeometryTypeIsNoneAndItsNumbersAreNotRead() throws {
        // Numbers that would be an error in any known type.
        #expect(try TestTile.decodedGeometry([3, 1_000_000, 15, 15], type: 0) == VectorTileGeometry.none)
        #expect(try TestTile.decodedGeometry([9, 2, 2], type: 4) == VectorTileGeometry.none)
    }

    @Test func aFeatureWithoutGeometryIsNone() throws {
        for type in [point, line, polygon] {
            #expect(try TestTile.decodedGeometry([], type: type) == VectorTileGeometry.none)
        }
        #expect(
            try TestTile.decodedGeometry([GeometryWriter.command(1, count: 0)], type: point) == VectorTileGeometry.none)
    }

    // MARK: - Leniency where encoders are sloppy

    @Test func aRingRepeatingItsFirstPointBeforeClosePathKeepsItOnce() throws {
        var geometry = GeometryWriter()
        geometry.ring([(0, 0), (10, 0), (10, 10), (0, 0)])
        #expect(
            try TestTile.decodedGeometry(geometry.numbers, type: polygon)
                == .polygons([[points((0, 0), (10, 0), (10, 10))]]))
    }

    @Test func degenerateRingsAndLinesAreDropped() throws {
        var rings = GeometryWriter()
        rings.ring([(0, 0), (10, 10), (20, 20)])  // zero area: collinear
        rings.ring([(0, 0), (10, 0)])  // two points
        rings.ring([(0, 0), (8, 0), (8, 8)])
        #expect(
            try TestTile.decodedGeometry(rings.numbers, type: polygon) == .polygons([[points((0, 0), (8, 0), (8, 8))]]))

        var lines = GeometryWriter()
        lines.moveTo((1, 1))
        lines.lineTo()  // a LineTo of no points
        lines.moveTo((2, 2))
        lines.lineTo((3, 3))
        #expect(try TestTile.decodedGeometry(lines.numbers, type: line) == .lines([points((2, 2), (3, 3))]))
        #expect(try TestTile.decodedGeometry([9, 2, 2], type: line) == VectorTileGeometry.none)
    }

    @Test func aRingWithoutClosePathIsClosedByTheNextMoveToOrTheEnd() throws {
        var geometry = GeometryWriter()
        geometry.moveTo((0, 0))
        geometry.lineTo((10, 0), (10, 10), (0, 10))
        geometry.moveTo((2, 2))
        geometry.lineTo((2, 4), (4, 4), (4, 2))
        #expect(
            try TestTile.decodedGeometry(geometry.numbers, type: polygon)
                == .polygons([
                    [points((0, 0), (10, 0), (10, 10), (0, 10)), points((2, 2), (2, 4), (4, 4), (4, 2))]
                ]))
    }

    @Test(arguments: [UInt64(1), 2])
    func layersTakeTheFirstRingsWindingAsTheExteriorAndAreTurnedToVersion2Winding(version: UInt64) throws {
        // Counterclockwise exteriors with y down, as some version 1 encoders wrote them (and
        // some version 2 ones still do): read alike in both versions, as MapLibre reads them.
        var geometry = GeometryWriter()
        geometry.ring([(0, 0), (0, 10), (10, 10), (10, 0)])
        geometry.ring([(2, 2), (4, 2), (4, 4), (2, 4)])
        geometry.ring([(20, 20), (20, 30), (30, 30), (30, 20)])
        #expect(
            try TestTile.decodedGeometry(geometry.numbers, type: polygon, version: version)
                == .polygons([
                    [points((0, 0), (10, 0), (10, 10), (0, 10)), points((2, 2), (2, 4), (4, 4), (4, 2))],
                    [points((20, 20), (30, 20), (30, 30), (20, 30))],
                ]))
    }

    // MARK: - Refusals

    private func location(feature: Int = 0) -> VectorTileError.Location {
        VectorTileError.Location(layerIndex: 0, layerName: "layer", featureIndex: feature)
    }

    @Test func hugeCommandCountsAreRefusedBeforeAnythingIsRead() {
        let moveTo = GeometryWriter.command(1, count: (1 << 29) - 1)
        #expect(
            throws: VectorTileError.geometryCommandPastEnd(
                .moveTo, count: (1 << 29) - 1, remainingNumbers: 2, location: location())
        ) {
            try TestTile.decodedGeometry([moveTo, 2, 2], type: point)
        }
        let lineTo = GeometryWriter.command(2, count: 1_000_000)
        #expect(
            throws: VectorTileError.geometryCommandPastEnd(
                .lineTo, count: 1_000_000, remainingNumbers: 3, location: location())
        ) {
            try TestTile.decodedGeometry([9, 2, 2, lineTo, 1, 1, 1], type: line)
        }
        #expect(
            throws: VectorTileError.geometryCommandPastEnd(.moveTo, count: 1, remainingNumbers: 1, location: location())
        ) {
            try TestTile.decodedGeometry([9, 2], type: polygon)
        }
    }

    @Test func commandsTheGeometryTypeDoesNotAllowAreErrors() {
        let lineTo = GeometryWriter.command(2, count: 1)
        #expect(
            throws: VectorTileError.unexpectedGeometryCommand(.lineTo, position: 3, type: .point, location: location())
        ) {
            try TestTile.decodedGeometry([9, 2, 2, lineTo, 2, 2], type: point)
        }
        #expect(
            throws: VectorTileError.unexpectedGeometryCommand(
                .closePath, position: 6, type: .lineString, location: location())
        ) {
            try TestTile.decodedGeometry([9, 2, 2, lineTo, 2, 2, 15], type: line)
        }
        #expect(
            throws: VectorTileError.unexpectedGeometryCommand(
                .lineTo, position: 0, type: .lineString, location: location())
        ) {
            try TestTile.decodedGeometry([lineTo, 2, 2], type: line)
        }
        #expect(
            throws: VectorTileError.unexpectedGeometryCommand(
                .closePath, position: 0, type: .polygon, location: location())
        ) {
            try TestTile.decodedGeometry([15], type: polygon)
        }
        var afterClose = GeometryWriter()
        afterClose.ring([(0, 0), (4, 0), (4, 4)])
        afterClose.lineTo((0, 4))
        #expect(
            throws: VectorTileError.unexpectedGeometryCommand(
                .lineTo, position: 9, type: .polygon, location: location())
        ) {
            try TestTile.decodedGeometry(afterClose.numbers, type: polygon)
        }
        #expect(throws: VectorTileError.unknownGeometryCommand(id: 3, position: 3, location: location())) {
            try TestTile.decodedGeometry([9, 2, 2, GeometryWriter.command(3, count: 1), 2, 2], type: line)
        }
    }

    @Test func moveToOfLinesAndPolygonsAndEveryClosePathMustHaveCountOne() {
        let twoMoves = GeometryWriter.command(1, count: 2)
        #expect(
            throws: VectorTileError.invalidCommandCount(
                .moveTo, count: 2, position: 0, type: .lineString, location: location())
        ) {
            try TestTile.decodedGeometry([twoMoves, 2, 2, 4, 4], type: line)
        }
        #expect(
            throws: VectorTileError.invalidCommandCount(
                .moveTo, count: 0, position: 0, type: .polygon, location: location())
        ) {
            try TestTile.decodedGeometry([GeometryWriter.command(1, count: 0)], type: polygon)
        }
        var ring = GeometryWriter()
        ring.moveTo((0, 0))
        ring.lineTo((4, 0), (4, 4))
        let twoCloses = GeometryWriter.command(7, count: 2)
        #expect(
            throws: VectorTileError.invalidCommandCount(
                .closePath, count: 2, position: 8, type: .polygon, location: location())
        ) {
            try TestTile.decodedGeometry(ring.numbers + [twoCloses], type: polygon)
        }
    }

    @Test func pointsBeyondThe32BitRangeAreErrors() {
        let far = GeometryWriter.zigzag(.max)
        #expect(throws: VectorTileError.coordinateOutOfRange(position: 3, location: location())) {
            try TestTile.decodedGeometry([9, far, 0, GeometryWriter.command(2, count: 1), 2, 0], type: line)
        }
        let farBack = GeometryWriter.zigzag(.min)
        #expect(throws: VectorTileError.coordinateOutOfRange(position: 0, location: location())) {
            try TestTile.decodedGeometry([17, farBack, 0, farBack, 0], type: point)
        }
    }

    /// A version 2 polygon whose first ring winds as a hole (as a tilemaker building did) is read
    /// as MapLibre's classifyRings reads it: the first ring's winding is the exteriors', the ring
    /// of the other winding after it its hole; both turned round to version 2's winding.
    @Test func aFirstRingWindingAsAHoleIsTheExteriorAsMapLibreReadsIt() throws {
        var geometry = GeometryWriter()
        geometry.ring([(0, 0), (0, 100), (100, 100), (100, 0)])
        geometry.ring([(30, 30), (60, 30), (60, 60), (30, 60)])
        geometry.ring([(200, 200), (200, 300), (300, 300), (300, 200)])
        #expect(
            try TestTile.decodedGeometry(geometry.numbers, type: polygon)
                == .polygons([
                    [points((0, 0), (100, 0), (100, 100), (0, 100)), points((30, 30), (30, 60), (60, 60), (60, 30))],
                    [points((200, 200), (300, 200), (300, 300), (200, 300))],
                ]))
    }

    /// A tile decoded for drawing leaves a broken feature out and says why; decoded strictly, the
    /// same feature fails the tile.
    @Test func aBrokenFeatureIsSkippedWhenAskedAndFailsTheTileOtherwise() throws {
        var good = GeometryWriter()
        good.ring([(0, 0), (10, 0), (10, 10), (0, 10)])
        let broken = [GeometryWriter.command(1, count: 1), 2]
        let tile = TestTile.layer(
            [
                TestTile.Feature(type: polygon, geometry: good.numbers),
                TestTile.Feature(type: polygon, geometry: broken),
            ], TestTile.Layer())
        #expect(throws: VectorTileError.self) { try VectorTile(data: tile.data) }
        let layer = try #require(try VectorTile(data: tile.data, skippingBadFeatures: true).layers.first)
        #expect(layer.features.count == 1)
        #expect(layer.skippedFeatures.count == 1)
        #expect(layer.skippedFeatures.first?.location.featureIndex == 1)
    }
}
