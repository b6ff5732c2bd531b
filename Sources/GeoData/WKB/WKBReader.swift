/// A reader of Well-Known Binary geometries, as GeoPackage stores them after its header.
///
/// It reads ISO WKB (OGC Simple Features 1.2.1 §8.2, ISO 19125-1): each geometry starts with
/// its own byte-order byte (0 big-endian, 1 little-endian) and a 32-bit type code, so the byte
/// order may change between the parts of a multi-geometry. Type codes 1–7 are 2D; 1001–1007
/// add Z, 2001–2007 add M and 3001–3007 add Z and M. The extra ordinates are skipped. The
/// PostGIS EWKB flags (Z 0x80000000, M 0x40000000, SRID 0x20000000) are read too.
///
/// `POINT EMPTY` (both ordinates NaN) becomes `.multiPoint([])`; other empty geometries are
/// their own case with no positions.
///
/// For example:
///
/// ```swift
/// var reader = WKBReader(bytes: blob, offset: headerLength)
/// let geometry = try reader.readGeometry()
/// ```
///
/// Curves, surfaces and triangles (types 8–17) are reported as unsupported.
public struct WKBReader {
    /// The bytes being read.
    public let bytes: [UInt8]
    /// Where the next read starts, in bytes from the start of ``bytes``.
    public private(set) var offset: Int

    /// The geometry types of WKB, by their 2D type code.
    private enum Kind: UInt32 {
        case point = 1
        case lineString, polygon, multiPoint, multiLineString, multiPolygon, geometryCollection
    }

    private var bigEndian = false

    /// Creates a reader starting at `offset` in `bytes`.
    public init(bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Reads one geometry, with whatever it contains, and moves ``offset`` past it.
    ///
    /// - Throws: ``GeoDataError/invalidWKB(offset:reason:)`` at the byte where the data stops
    ///   making sense: a bad byte order, an unknown or unsupported type, a truncated blob.
    public mutating func readGeometry() throws(GeoDataError) -> Geometry {
        try readGeometry(depth: 0)
    }

    private mutating func readGeometry(depth: Int) throws(GeoDataError) -> Geometry {
        guard depth < 32 else { throw invalid("geometry collections nest more than 32 deep") }
        let (kind, dimensions) = try readHeader()
        switch kind {
        case .point:
            let position = try readPosition(dimensions: dimensions)
            return position.longitude.isNaN && position.latitude.isNaN ? .multiPoint([]) : .point(position)
        case .lineString:
            return .lineString(try readPositions(dimensions: dimensions))
        case .polygon:
            return .polygon(try readRings(dimensions: dimensions))
        case .multiPoint:
            var points: [Position] = []
            for _ in 0..<(try readCount(minimumBytesEach: 5)) {
                switch try readGeometry(depth: depth + 1) {
                case .point(let position): points.append(position)
                case .multiPoint(let empty) where empty.isEmpty: continue
                default: throw invalid("a MultiPoint holds something other than a Point")
                }
            }
            return .multiPoint(points)
        case .multiLineString:
            var lines: [[Position]] = []
            for _ in 0..<(try readCount(minimumBytesEach: 9)) {
                guard case .lineString(let line) = try readGeometry(depth: depth + 1) else {
                    throw invalid("a MultiLineString holds something other than a LineString")
                }
                lines.append(line)
            }
            return .multiLineString(lines)
        case .multiPolygon:
            var polygons: [[[Position]]] = []
            for _ in 0..<(try readCount(minimumBytesEach: 9)) {
                guard case .polygon(let rings) = try readGeometry(depth: depth + 1) else {
                    throw invalid("a MultiPolygon holds something other than a Polygon")
                }
                polygons.append(rings)
            }
            return .multiPolygon(polygons)
        case .geometryCollection:
            var geometries: [Geometry] = []
            for _ in 0..<(try readCount(minimumBytesEach: 9)) {
                geometries.append(try readGeometry(depth: depth + 1))
            }
            return .geometryCollection(geometries)
        }
    }

    /// Reads the byte order and the type code; returns the kind and the number of ordinates.
    private mutating func readHeader() throws(GeoDataError) -> (Kind, dimensions: Int) {
        let start = offset
        switch try readByte() {
        case 0: bigEndian = true
        case 1: bigEndian = false
        case let other: throw GeoDataError.invalidWKB(offset: start, reason: "byte order \(other) is neither 0 nor 1")
        }
        let typeOffset = offset
        let code = try readUInt32()
        var hasZ = code & 0x8000_0000 != 0
        var hasM = code & 0x4000_0000 != 0
        if code & 0x2000_0000 != 0 { _ = try readUInt32() }  // EWKB SRID
        let isoCode = code & 0x0FFF_FFFF
        switch isoCode / 1000 {
        case 0: break
        case 1: hasZ = true
        case 2: hasM = true
        case 3:
            hasZ = true
            hasM = true
        default: throw GeoDataError.invalidWKB(offset: typeOffset, reason: "unknown geometry type \(code)")
        }
        guard let kind = Kind(rawValue: isoCode % 1000) else {
            let reason =
                (8...17).contains(isoCode % 1000)
                ? "geometry type \(code) (curves, surfaces, triangles) is not supported"
                : "unknown geometry type \(code)"
            throw GeoDataError.invalidWKB(offset: typeOffset, reason: reason)
        }
        return (kind, 2 + (hasZ ? 1 : 0) + (hasM ? 1 : 0))
    }

    private mutating func readRings(dimensions: Int) throws(GeoDataError) -> [[Position]] {
        var rings: [[Position]] = []
        for _ in 0..<(try readCount(minimumBytesEach: 4)) {
            rings.append(try readPositions(dimensions: dimensions))
        }
        return rings
    }

    private mutating func readPositions(dimensions: Int) throws(GeoDataError) -> [Position] {
        let count = try readCount(minimumBytesEach: 8 * dimensions)
        var positions: [Position] = []
        positions.reserveCapacity(count)
        for _ in 0..<count {
            positions.append(try readPosition(dimensions: dimensions))
        }
        return positions
    }

    private mutating func readPosition(dimensions: Int) throws(GeoDataError) -> Position {
        let position = Position(longitude: try readDouble(), latitude: try readDouble())
        for _ in 2..<dimensions { _ = try readDouble() }
        return position
    }

    /// Reads a count, refusing one that cannot fit in the bytes left (a corrupt or hostile blob).
    private mutating func readCount(minimumBytesEach: Int) throws(GeoDataError) -> Int {
        let start = offset
        let count = Int(try readUInt32())
        guard count * minimumBytesEach <= bytes.count - offset else {
            throw GeoDataError.invalidWKB(
                offset: start,
                reason: "count \(count) needs more than the \(bytes.count - offset) bytes left"
            )
        }
        return count
    }

    // MARK: - Primitives

    private mutating func readByte() throws(GeoDataError) -> UInt8 {
        guard offset < bytes.count else { throw truncated(needing: 1) }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func readUInt32() throws(GeoDataError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw truncated(needing: 4) }
        var value: UInt32 = 0
        for index in 0..<4 {
            value |= UInt32(bytes[offset + index]) << (bigEndian ? 8 * (3 - index) : 8 * index)
        }
        offset += 4
        return value
    }

    private mutating func readDouble() throws(GeoDataError) -> Double {
        guard offset + 8 <= bytes.count else { throw truncated(needing: 8) }
        var bits: UInt64 = 0
        for index in 0..<8 {
            bits |= UInt64(bytes[offset + index]) << (bigEndian ? 8 * (7 - index) : 8 * index)
        }
        offset += 8
        return Double(bitPattern: bits)
    }

    private func truncated(needing count: Int) -> GeoDataError {
        .invalidWKB(offset: offset, reason: "the data ends early: \(count) bytes needed, \(bytes.count - offset) left")
    }

    private func invalid(_ reason: String) -> GeoDataError {
        .invalidWKB(offset: offset, reason: reason)
    }
}
