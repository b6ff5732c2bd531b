import Foundation
import MapCore
import Testing

@testable import PMTiles

struct PMTilesHeaderTests {
    /// A header with every field distinct from its neighbours, so a field read from the wrong
    /// place shows.
    private let sample = PMTilesHeader(
        rootDirectory: .init(byteOffset: 1, byteCount: 2),
        metadata: .init(byteOffset: 3, byteCount: 4),
        leafDirectories: .init(byteOffset: 5, byteCount: 6),
        tileData: .init(byteOffset: 7, byteCount: 0x0102_0304_0506_0708),
        addressedTileCount: 9,
        tileEntryCount: 10,
        tileContentCount: 11,
        isClustered: true,
        internalCompression: .gzip,
        tileCompression: .brotli,
        tileType: .mvt,
        minZoom: 1,
        maxZoom: 2,
        minLongitudeE7: -11_000_000,
        minLatitudeE7: 21_000_000,
        maxLongitudeE7: 12_000_000,
        maxLatitudeE7: 22_000_000,
        centerZoom: 3,
        centerLongitudeE7: 31_000_000,
        centerLatitudeE7: -32_000_000
    )

    @Test func everyFieldRoundTrips() throws {
        let bytes = sample.bytes
        #expect(bytes.count == 127)
        #expect(try PMTilesHeader(bytes: bytes, path: "a.pmtiles") == sample)
        var other = sample
        other.isClustered = false
        other.tileType = PMTilesHeader.TileType(rawValue: 42)
        other.tileCompression = PMTilesHeader.Compression(rawValue: 9)
        #expect(try PMTilesHeader(bytes: other.bytes, path: "a.pmtiles") == other)
    }

    @Test func fieldsSitWhereTheSpecificationPutsThem() {
        let bytes = sample.bytes
        #expect(Array(bytes[0..<8]) == Array("PMTiles".utf8) + [3])
        func uint64(_ offset: Int) -> UInt64 {
            (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
        }
        func int32(_ offset: Int) -> Int32 {
            Int32(bitPattern: (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) })
        }
        #expect([8, 16, 24, 32, 40, 48, 56].map(uint64) == [1, 2, 3, 4, 5, 6, 7])
        #expect(uint64(64) == 0x0102_0304_0506_0708)
        #expect(bytes[64] == 0x08, "little-endian")
        #expect([72, 80, 88].map(uint64) == [9, 10, 11])
        #expect(Array(bytes[96...101]) == [1, 2, 3, 1, 1, 2])
        #expect([102, 106, 110, 114].map(int32) == [-11_000_000, 21_000_000, 12_000_000, 22_000_000])
        #expect(bytes[118] == 3)
        #expect([119, 123].map(int32) == [31_000_000, -32_000_000])
    }

    @Test func positionsInDegrees() {
        var header = PMTilesHeader()
        header.bounds = BoundingBox(west: -1.1, south: 2.1, east: 1.2, north: 85.0511287798)
        #expect(
            [header.minLongitudeE7, header.minLatitudeE7, header.maxLongitudeE7, header.maxLatitudeE7]
                == [-11_000_000, 21_000_000, 12_000_000, 850_511_288])
        #expect(header.bounds == BoundingBox(west: -1.1, south: 2.1, east: 1.2, north: 85.0511288))
        header.centerLongitude = 3.14159265
        header.centerLatitude = -90
        #expect(header.centerLongitudeE7 == 31_415_927)
        #expect(header.centerLatitudeE7 == -900_000_000)
        header.centerLongitude = 1000
        #expect(header.centerLongitudeE7 == Int32.max, "clamped to what 32 bits hold")
    }

    @Test func foreignBytesAreNotPMTiles() {
        #expect(throws: PMTilesError.notPMTiles(path: "x")) { try PMTilesHeader(bytes: [], path: "x") }
        #expect(throws: PMTilesError.notPMTiles(path: "x")) {
            try PMTilesHeader(bytes: Array("SQLite format 3\0".utf8), path: "x")
        }
        #expect(throws: PMTilesError.notPMTiles(path: "x")) {
            try PMTilesHeader(bytes: Array("PMTile".utf8), path: "x")
        }
    }

    @Test func otherVersionsAreRefusedByNumber() {
        var version4 = sample.bytes
        version4[7] = 4
        #expect(throws: PMTilesError.unsupportedVersion(path: "x", version: 4)) {
            try PMTilesHeader(bytes: version4, path: "x")
        }
        // Version 2 archives start with "PM" and a 16-bit version.
        let version2: [UInt8] = [0x50, 0x4D, 2, 0] + [UInt8](repeating: 0, count: 200)
        #expect(throws: PMTilesError.unsupportedVersion(path: "x", version: 2)) {
            try PMTilesHeader(bytes: version2, path: "x")
        }
    }

    @Test func aShortHeaderIsCorrupt() {
        #expect(
            throws: PMTilesError.corruptHeader(
                path: "x", reason: "the file ends after 100 bytes, in the 127-byte header")
        ) {
            try PMTilesHeader(bytes: sample.bytes.prefix(100), path: "x")
        }
        #expect(
            throws: PMTilesError.corruptHeader(path: "x", reason: "the file ends after 7 bytes, in the 127-byte header")
        ) {
            try PMTilesHeader(bytes: sample.bytes.prefix(7), path: "x")
        }
    }

    @Test func sectionsMustLieInTheFile() throws {
        var header = sample
        header.tileData = .init(byteOffset: 7, byteCount: 8)
        try header.validateSections(fileByteCount: 15, path: "x")
        #expect(
            throws: PMTilesError.corruptHeader(
                path: "x", reason: "the tile data (8 bytes at byte 7) reaches past the end of the file (14 bytes)"
            )
        ) { try header.validateSections(fileByteCount: 14, path: "x") }
        header.metadata = .init(byteOffset: .max, byteCount: 2)
        #expect(throws: PMTilesError.self) { try header.validateSections(fileByteCount: 1 << 40, path: "x") }
        header.metadata = .init(byteOffset: 3, byteCount: 4)
        header.rootDirectory.byteCount = 0
        #expect(throws: PMTilesError.corruptHeader(path: "x", reason: "the root directory is empty")) {
            try header.validateSections(fileByteCount: 100, path: "x")
        }
    }

    @Test func tileTypesFromMBTilesFormats() {
        #expect(PMTilesHeader.TileType(format: "png") == .png)
        #expect(PMTilesHeader.TileType(format: "JPG") == .jpeg)
        #expect(PMTilesHeader.TileType(format: "image/jpeg") == .jpeg)
        #expect(PMTilesHeader.TileType(format: "pbf") == .mvt)
        #expect(PMTilesHeader.TileType(format: "geojson") == .unknown)
        #expect(PMTilesHeader.TileType.jpeg.format == "jpg")
        #expect(PMTilesHeader.TileType.mvt.mimeType == "application/vnd.mapbox-vector-tile")
        #expect(PMTilesHeader.Compression.gzip.httpContentEncoding == "gzip")
        #expect(PMTilesHeader.Compression.none.httpContentEncoding == nil)
        #expect(PMTilesHeader.Compression(rawValue: 9).description == "compression 9")
    }
}
