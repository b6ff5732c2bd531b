import Foundation

extension PMTilesHeader {
    /// Reads a header from the first bytes of a file (at least 127; more are ignored).
    ///
    /// Only the header itself is checked here; ``PMTilesReader`` also checks its sections against
    /// the file's size.
    ///
    /// - Parameters:
    ///   - bytes: The start of the file.
    ///   - path: The file, for error messages.
    /// - Throws: ``PMTilesError/notPMTiles(path:)`` unless the bytes start with `PMTiles` (or with
    ///   `PM` and version 1 or 2), ``PMTilesError/unsupportedVersion(path:version:)`` for a version
    ///   other than 3, ``PMTilesError/corruptHeader(path:reason:)`` for fewer than 127 bytes.
    public init(bytes: some Collection<UInt8>, path: String) throws(PMTilesError) {
        let bytes = Array(bytes.prefix(Self.byteCount))
        let magic = Self.magic.dropLast()
        guard bytes.starts(with: magic) else {
            // Versions 1 and 2 start with "PM" and a 16-bit little-endian version.
            if bytes.count >= 4, bytes[0] == 0x50, bytes[1] == 0x4D, bytes[3] == 0, (1...2).contains(bytes[2]) {
                throw .unsupportedVersion(path: path, version: Int(bytes[2]))
            }
            throw .notPMTiles(path: path)
        }
        guard bytes.count > magic.count else {
            throw .corruptHeader(path: path, reason: "the file ends after \(bytes.count) bytes, in the 127-byte header")
        }
        guard bytes[7] == 3 else { throw .unsupportedVersion(path: path, version: Int(bytes[7])) }
        guard bytes.count == Self.byteCount else {
            throw .corruptHeader(path: path, reason: "the file ends after \(bytes.count) bytes, in the 127-byte header")
        }
        var reader = LittleEndianReader(bytes: bytes, offset: 8)
        self.init(
            rootDirectory: Section(byteOffset: reader.uint64(), byteCount: reader.uint64()),
            metadata: Section(byteOffset: reader.uint64(), byteCount: reader.uint64()),
            leafDirectories: Section(byteOffset: reader.uint64(), byteCount: reader.uint64()),
            tileData: Section(byteOffset: reader.uint64(), byteCount: reader.uint64()),
            addressedTileCount: reader.uint64(),
            tileEntryCount: reader.uint64(),
            tileContentCount: reader.uint64(),
            isClustered: reader.uint8() == 1,
            internalCompression: Compression(rawValue: reader.uint8()),
            tileCompression: Compression(rawValue: reader.uint8()),
            tileType: TileType(rawValue: reader.uint8()),
            minZoom: reader.uint8(),
            maxZoom: reader.uint8(),
            minLongitudeE7: reader.int32(),
            minLatitudeE7: reader.int32(),
            maxLongitudeE7: reader.int32(),
            maxLatitudeE7: reader.int32(),
            centerZoom: reader.uint8(),
            centerLongitudeE7: reader.int32(),
            centerLatitudeE7: reader.int32()
        )
    }

    /// The header's 127 bytes, as the specification lays them out: magic, version 3, then each
    /// field little-endian.
    public var bytes: [UInt8] {
        var bytes = Self.magic
        bytes.reserveCapacity(Self.byteCount)
        for section in [rootDirectory, metadata, leafDirectories, tileData] {
            Self.append(section.byteOffset, to: &bytes)
            Self.append(section.byteCount, to: &bytes)
        }
        for count in [addressedTileCount, tileEntryCount, tileContentCount] {
            Self.append(count, to: &bytes)
        }
        bytes += [
            isClustered ? 1 : 0, internalCompression.rawValue, tileCompression.rawValue, tileType.rawValue, minZoom,
            maxZoom,
        ]
        for position in [minLongitudeE7, minLatitudeE7, maxLongitudeE7, maxLatitudeE7] {
            Self.append(position, to: &bytes)
        }
        bytes.append(centerZoom)
        Self.append(centerLongitudeE7, to: &bytes)
        Self.append(centerLatitudeE7, to: &bytes)
        assert(bytes.count == Self.byteCount)
        return bytes
    }

    private static func append(_ value: some FixedWidthInteger, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Checks that every section lies within a file of `fileByteCount` bytes and that the root
    /// directory is not empty.
    ///
    /// The root directory may reach past the first 16,384 bytes: the specification asks writers
    /// to keep it there for clients that fetch over the network, but a file read locally loses
    /// nothing when one does not.
    ///
    /// - Throws: ``PMTilesError/corruptHeader(path:reason:)`` naming the section.
    func validateSections(fileByteCount: UInt64, path: String) throws(PMTilesError) {
        let sections = [
            ("root directory", rootDirectory), ("metadata", metadata), ("leaf directories", leafDirectories),
            ("tile data", tileData),
        ]
        for (name, section) in sections {
            guard let end = section.endOffset, end <= fileByteCount else {
                throw .corruptHeader(
                    path: path,
                    reason:
                        "the \(name) (\(section.byteCount) bytes at byte \(section.byteOffset)) reaches past the end of the file (\(fileByteCount) bytes)"
                )
            }
        }
        guard rootDirectory.byteCount > 0 else {
            throw .corruptHeader(path: path, reason: "the root directory is empty")
        }
    }
}

/// Reads little-endian integers from bytes the caller has checked are long enough.
struct LittleEndianReader {
    let bytes: [UInt8]
    var offset: Int

    mutating func uint8() -> UInt8 {
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint64() -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << (8 * index) }
        offset += 8
        return value
    }

    mutating func int32() -> Int32 {
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << (8 * index) }
        offset += 4
        return Int32(bitPattern: value)
    }
}
