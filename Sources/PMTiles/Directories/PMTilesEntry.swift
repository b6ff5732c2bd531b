import Foundation
public import MapCore

/// One entry of a PMTiles directory: where the bytes of a tile (or of a run of consecutive tiles
/// with identical bytes) are in the tile data section, or where a leaf directory is in the leaf
/// directories section (specification 4.1).
///
/// For example, `PMTilesEntry(tileID: 5, byteOffset: 1337, byteCount: 42, runLength: 3)` says
/// that tiles 5, 6 and 7 are the 42 bytes at byte 1337 of the tile data.
public struct PMTilesEntry: Hashable, Sendable {
    /// The PMTiles tile id (``MapCore/TileID/pmtilesID``) of the tile, of the run's first tile,
    /// or of the first tile a leaf directory holds.
    public var tileID: UInt64
    /// The first byte, from the start of the tile data section (tiles) or of the leaf
    /// directories section (a leaf directory).
    public var byteOffset: UInt64
    /// The number of bytes, compressed as they are stored.
    public var byteCount: UInt32
    /// How many consecutive tile ids, from ``tileID``, have these bytes; 0 for a leaf directory.
    public var runLength: UInt32

    /// Creates an entry.
    public init(tileID: UInt64, byteOffset: UInt64, byteCount: UInt32, runLength: UInt32) {
        self.tileID = tileID
        self.byteOffset = byteOffset
        self.byteCount = byteCount
        self.runLength = runLength
    }

    /// Whether the entry points to a leaf directory rather than to tile data.
    public var isLeafDirectory: Bool { runLength == 0 }

    /// The tile ids the entry addresses: ``runLength`` of them from ``tileID``; empty for a leaf
    /// directory.
    public var tileIDs: Range<UInt64> {
        tileID..<tileID + UInt64(runLength)
    }

    /// The tiles the entry addresses, in tile-id order; empty for a leaf directory. Ids beyond
    /// zoom 30 are left out.
    public var tiles: [TileID] {
        tileIDs.compactMap { TileID(pmtilesID: $0) }
    }
}
