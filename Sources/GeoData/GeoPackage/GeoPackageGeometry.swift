public import MapCore

/// A decoded GeoPackage geometry blob: the GeoPackage binary header, then ISO WKB.
///
/// The header (GeoPackage 1.3 §2.1.3, "GeoPackageBinaryHeader") is:
///
/// | bytes | field |
/// |-------|-------|
/// | 2 | magic `GP` (0x47 0x50) |
/// | 1 | version, 0 for version 1 |
/// | 1 | flags: bit 5 extended type, bit 4 empty, bits 3–1 envelope indicator, bit 0 byte order |
/// | 4 | srs_id, in the flags' byte order |
/// | 0, 32, 48 or 64 | envelope: [minx, maxx, miny, maxy] + [minz, maxz] and/or [minm, maxm] |
///
/// Envelope indicator 0 is no envelope, 1 is XY (32 bytes), 2 XYZ (48), 3 XYM (48), 4 XYZM
/// (64); 5–7 are invalid. Only the XY part is kept. Byte order bit 0 is big-endian, 1 little.
public struct GeoPackageGeometry: Hashable, Sendable {
    /// The blob's `srs_id`, which should match its column's.
    public var srsID: Int32
    /// The envelope's XY part, when the header has one.
    public var envelope: BoundingBox?
    /// The header's empty flag: the geometry has no position.
    public var isEmpty: Bool
    /// The geometry.
    public var geometry: Geometry

    /// Decodes a blob from a feature table's geometry column.
    ///
    /// - Throws: ``GeoDataError/invalidWKB(offset:reason:)`` when the header or the WKB after it
    ///   is malformed, or uses the extended (non-standard) geometry types.
    public init(decoding bytes: [UInt8]) throws(GeoDataError) {
        guard bytes.count >= 8 else {
            throw .invalidWKB(
                offset: 0, reason: "a GeoPackage geometry needs at least 8 header bytes, this one has \(bytes.count)")
        }
        guard bytes[0] == 0x47, bytes[1] == 0x50 else {
            throw .invalidWKB(offset: 0, reason: "no GeoPackage magic 'GP' (is this plain WKB?)")
        }
        guard bytes[2] == 0 else {
            throw .invalidWKB(offset: 2, reason: "GeoPackage binary version \(bytes[2]) is not 0 (version 1)")
        }
        let flags = bytes[3]
        guard flags & 0b0010_0000 == 0 else {
            throw .invalidWKB(offset: 3, reason: "extended GeoPackage geometry types are not supported")
        }
        let littleEndian = flags & 1 == 1
        let envelopeDoubles: Int
        switch (flags >> 1) & 0b111 {
        case 0: envelopeDoubles = 0
        case 1: envelopeDoubles = 4
        case 2, 3: envelopeDoubles = 6
        case 4: envelopeDoubles = 8
        case let indicator:
            throw .invalidWKB(offset: 3, reason: "envelope contents indicator \(indicator) is not in 0-4")
        }
        let wkbOffset = 8 + 8 * envelopeDoubles
        guard bytes.count >= wkbOffset else {
            throw .invalidWKB(
                offset: 8, reason: "the header's envelope needs \(8 * envelopeDoubles) bytes, the blob ends early")
        }

        func uint64(at offset: Int, bytes count: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in 0..<count {
                value |= UInt64(bytes[offset + index]) << (littleEndian ? 8 * index : 8 * (count - 1 - index))
            }
            return value
        }
        srsID = Int32(bitPattern: UInt32(truncatingIfNeeded: uint64(at: 4, bytes: 4)))
        if envelopeDoubles > 0 {
            let values = (0..<4).map { Double(bitPattern: uint64(at: 8 + 8 * $0, bytes: 8)) }
            envelope = BoundingBox(west: values[0], south: values[2], east: values[1], north: values[3])
        } else {
            envelope = nil
        }
        isEmpty = flags & 0b0001_0000 != 0
        if isEmpty && bytes.count == wkbOffset {
            geometry = .geometryCollection([])
        } else {
            var reader = WKBReader(bytes: bytes, offset: wkbOffset)
            geometry = try reader.readGeometry()
        }
    }
}
