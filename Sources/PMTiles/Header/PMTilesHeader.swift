import Foundation
public import MapCore

/// The 127-byte header at the start of every PMTiles v3 archive: where its sections are, how
/// many tiles it holds, how they are encoded, and the area and zooms they cover.
///
/// Every field of the specification is here, as the file stores it: offsets and lengths in
/// bytes from the start of the file, positions in degrees × 10,000,000 (`E7`), zooms as bytes,
/// so that ``init(bytes:path:)`` and ``bytes`` round-trip exactly. ``bounds`` and ``center``
/// give the positions in degrees.
///
/// A ``PMTilesWriter`` fills the header in; a ``PMTilesReader`` checks it on opening. The
/// defaults are those of an empty archive: all sections empty, counts 0 ("unknown"),
/// clustered, gzip directories, uncompressed tiles of unknown type, zooms 0, the whole world.
///
/// Related specification: <https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md>, chapter 3.
public struct PMTilesHeader: Hashable, Sendable {
    /// A run of bytes in the file.
    public struct Section: Hashable, Sendable {
        /// The first byte, from the start of the file.
        public var byteOffset: UInt64
        /// The number of bytes; 0 for an empty section.
        public var byteCount: UInt64

        /// Creates a section of `byteCount` bytes at `byteOffset`; both default to 0.
        public init(byteOffset: UInt64 = 0, byteCount: UInt64 = 0) {
            self.byteOffset = byteOffset
            self.byteCount = byteCount
        }

        /// The byte after the section's last, or nil when it would overflow 64 bits.
        public var endOffset: UInt64? {
            let (end, overflow) = byteOffset.addingReportingOverflow(byteCount)
            return overflow ? nil : end
        }
    }

    /// The root directory, which with the header must lie within the first 16,384 bytes.
    public var rootDirectory: Section
    /// The JSON metadata (compressed with ``internalCompression``).
    public var metadata: Section
    /// All leaf directories together; empty when the root directory addresses every tile.
    public var leafDirectories: Section
    /// All tile data together.
    public var tileData: Section
    /// Tiles addressed, counting each tile of a run (0: unknown).
    public var addressedTileCount: UInt64
    /// Directory entries for tiles, leaf entries not counted (0: unknown).
    public var tileEntryCount: UInt64
    /// Distinct tile blobs in the tile data section (0: unknown).
    public var tileContentCount: UInt64
    /// Whether tile data is in tile-id order, each new blob directly after the previous one.
    public var isClustered: Bool
    /// The compression of the root directory, the metadata and each leaf directory.
    public var internalCompression: Compression
    /// The compression of every tile's bytes (a tile server's `Content-Encoding`).
    public var tileCompression: Compression
    /// What the tiles are: PNG, JPEG, vector tiles…
    public var tileType: TileType
    /// The lowest zoom level with tiles.
    public var minZoom: UInt8
    /// The highest zoom level with tiles, at least ``minZoom``.
    public var maxZoom: UInt8
    /// The west edge of the bounds, in degrees × 10^7.
    public var minLongitudeE7: Int32
    /// The south edge of the bounds, in degrees × 10^7.
    public var minLatitudeE7: Int32
    /// The east edge of the bounds, in degrees × 10^7.
    public var maxLongitudeE7: Int32
    /// The north edge of the bounds, in degrees × 10^7.
    public var maxLatitudeE7: Int32
    /// The zoom level a viewer may start at.
    public var centerZoom: UInt8
    /// The longitude a viewer may start at, in degrees × 10^7.
    public var centerLongitudeE7: Int32
    /// The latitude a viewer may start at, in degrees × 10^7.
    public var centerLatitudeE7: Int32

    /// The length of the header in bytes: 127.
    public static let byteCount = 127
    /// How far into the file the header and the root directory may reach: 16,384 bytes, so a
    /// client can fetch both with one request.
    public static let rootReachBytes = 16_384
    /// The first eight bytes: `PMTiles` and version 3.
    static let magic: [UInt8] = Array("PMTiles".utf8) + [3]

    /// Creates a header; every field defaults as the type's documentation says.
    public init(
        rootDirectory: Section = Section(),
        metadata: Section = Section(),
        leafDirectories: Section = Section(),
        tileData: Section = Section(),
        addressedTileCount: UInt64 = 0,
        tileEntryCount: UInt64 = 0,
        tileContentCount: UInt64 = 0,
        isClustered: Bool = true,
        internalCompression: Compression = .gzip,
        tileCompression: Compression = .none,
        tileType: TileType = .unknown,
        minZoom: UInt8 = 0,
        maxZoom: UInt8 = 0,
        minLongitudeE7: Int32 = -180_0000000,
        minLatitudeE7: Int32 = -85_0511288,
        maxLongitudeE7: Int32 = 180_0000000,
        maxLatitudeE7: Int32 = 85_0511288,
        centerZoom: UInt8 = 0,
        centerLongitudeE7: Int32 = 0,
        centerLatitudeE7: Int32 = 0
    ) {
        self.rootDirectory = rootDirectory
        self.metadata = metadata
        self.leafDirectories = leafDirectories
        self.tileData = tileData
        self.addressedTileCount = addressedTileCount
        self.tileEntryCount = tileEntryCount
        self.tileContentCount = tileContentCount
        self.isClustered = isClustered
        self.internalCompression = internalCompression
        self.tileCompression = tileCompression
        self.tileType = tileType
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.minLongitudeE7 = minLongitudeE7
        self.minLatitudeE7 = minLatitudeE7
        self.maxLongitudeE7 = maxLongitudeE7
        self.maxLatitudeE7 = maxLatitudeE7
        self.centerZoom = centerZoom
        self.centerLongitudeE7 = centerLongitudeE7
        self.centerLatitudeE7 = centerLatitudeE7
    }
}

// MARK: - Degrees

extension PMTilesHeader {
    /// The bounds in degrees.
    public var bounds: BoundingBox {
        get {
            BoundingBox(
                west: Self.degrees(minLongitudeE7), south: Self.degrees(minLatitudeE7),
                east: Self.degrees(maxLongitudeE7), north: Self.degrees(maxLatitudeE7)
            )
        }
        set {
            minLongitudeE7 = Self.e7(newValue.west)
            minLatitudeE7 = Self.e7(newValue.south)
            maxLongitudeE7 = Self.e7(newValue.east)
            maxLatitudeE7 = Self.e7(newValue.north)
        }
    }

    /// The center's longitude in degrees.
    public var centerLongitude: Double {
        get { Self.degrees(centerLongitudeE7) }
        set { centerLongitudeE7 = Self.e7(newValue) }
    }

    /// The center's latitude in degrees.
    public var centerLatitude: Double {
        get { Self.degrees(centerLatitudeE7) }
        set { centerLatitudeE7 = Self.e7(newValue) }
    }

    /// The zoom levels with tiles, ``minZoom`` through ``maxZoom``; nil when a damaged header has them reversed.
    public var zoomRange: ClosedRange<Int>? {
        minZoom <= maxZoom ? Int(minZoom)...Int(maxZoom) : nil
    }

    /// Degrees from degrees × 10^7.
    static func degrees(_ e7: Int32) -> Double {
        Double(e7) / 10_000_000
    }

    /// Degrees × 10^7, rounded to the nearest and clamped to what 32 bits hold (±214.7°); NaN is 0.
    static func e7(_ degrees: Double) -> Int32 {
        guard !degrees.isNaN else { return 0 }
        let scaled = (degrees * 10_000_000).rounded()
        return Int32(max(Double(Int32.min), min(Double(Int32.max), scaled)))
    }
}
