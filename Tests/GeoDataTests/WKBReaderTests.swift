import GeoData
import Testing

struct WKBReaderTests {
    private static let polygonWithHole = Geometry.polygon([
        [(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)].map(Position.init),
        [(4, 4), (4, 6), (6, 6), (6, 4), (4, 4)].map(Position.init),
    ])

    private static let everyKind: [Geometry] = [
        .point(Position((2.35, 48.85))),
        .multiPoint([Position((1, 2)), Position((3, 4))]),
        .lineString([Position((0, 0)), Position((1, 1)), Position((2, 0))]),
        .multiLineString([[Position((0, 0)), Position((1, 1))], [Position((5, 5)), Position((6, 6))]]),
        polygonWithHole,
        .multiPolygon([
            [[(0, 0), (1, 0), (1, 1), (0, 0)].map(Position.init)],
            [[(5, 5), (6, 5), (6, 6), (5, 5)].map(Position.init)],
        ]),
        .geometryCollection([.point(Position((1, 1))), .lineString([Position((0, 0)), Position((2, 2))])]),
    ]

    @Test(arguments: [false, true])
    func everyGeometryKindReadsBackInEitherByteOrder(bigEndian: Bool) throws {
        for geometry in Self.everyKind {
            var reader = WKBReader(bytes: WKBWriter(bigEndian: bigEndian).encode(geometry))
            #expect(try reader.readGeometry() == geometry)
        }
    }

    @Test(arguments: [(true, false), (false, true), (true, true)])
    func zAndMOrdinatesAreSkipped(hasZ: Bool, hasM: Bool) throws {
        for geometry in Self.everyKind {
            let bytes = WKBWriter(hasZ: hasZ, hasM: hasM).encode(geometry)
            var reader = WKBReader(bytes: bytes)
            #expect(try reader.readGeometry() == geometry)
            #expect(reader.offset == bytes.count)
        }
    }

    @Test func partsMayChangeByteOrder() throws {
        // A little-endian MultiPoint holding one big-endian and one little-endian point.
        let big = WKBWriter(bigEndian: true).encode(.point(Position((1, 2))))
        let little = WKBWriter().encode(.point(Position((3, 4))))
        let bytes: [UInt8] = [1, 4, 0, 0, 0, 2, 0, 0, 0] + big + little
        var reader = WKBReader(bytes: bytes)
        #expect(try reader.readGeometry() == .multiPoint([Position((1, 2)), Position((3, 4))]))
    }

    @Test func emptyPointBecomesAnEmptyGeometry() throws {
        var reader = WKBReader(bytes: WKBWriter().encodeEmptyPoint())
        let geometry = try reader.readGeometry()
        #expect(geometry.isEmpty)
        #expect(geometry.boundingBox == nil)
    }

    @Test func truncatedDataReportsWhereItEnds() throws {
        // A point whose latitude lacks its last 4 bytes: 1 + 4 + 8 bytes read, then 4 left.
        var point = WKBReader(bytes: Array(WKBWriter().encode(.point(Position((1, 2)))).dropLast(4)))
        #expect(throws: GeoDataError.invalidWKB(offset: 13, reason: "the data ends early: 8 bytes needed, 4 left")) {
            try point.readGeometry()
        }
        // A polygon whose hole lacks 4 bytes: its count of 5 positions no longer fits.
        let bytes = Array(WKBWriter().encode(Self.polygonWithHole).dropLast(4))
        var polygon = WKBReader(bytes: bytes)
        let holeCountOffset = 1 + 4 + 4 + 4 + 5 * 16
        #expect(
            throws: GeoDataError.invalidWKB(
                offset: holeCountOffset, reason: "count 5 needs more than the 76 bytes left")
        ) {
            try polygon.readGeometry()
        }
    }

    @Test func curvesAreReportedAsUnsupported() throws {
        var reader = WKBReader(bytes: [1, 8, 0, 0, 0, 0, 0, 0, 0])  // CircularString
        let error = try #require(throws: GeoDataError.self) { try reader.readGeometry() }
        #expect(
            error.description == "invalid WKB at byte 1: geometry type 8 (curves, surfaces, triangles) is not supported"
        )
    }

    @Test func badByteOrderIsRejected() throws {
        var reader = WKBReader(bytes: [7, 1, 0, 0, 0])
        #expect(throws: GeoDataError.invalidWKB(offset: 0, reason: "byte order 7 is neither 0 nor 1")) {
            try reader.readGeometry()
        }
    }

    @Test func hugeCountIsRejectedBeforeAllocating() throws {
        var reader = WKBReader(bytes: [1, 2, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect(throws: GeoDataError.self) { try reader.readGeometry() }
    }
}
