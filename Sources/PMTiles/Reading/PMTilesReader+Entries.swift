public import Foundation
public import MapCore

extension PMTilesReader {
    /// Calls `body` with every tile entry of the archive (leaf directories resolved, never
    /// passed), in directory order: tile-id order for an archive written as the specification
    /// asks.
    ///
    /// Each leaf directory is read once and dropped after its entries are visited, so memory stays
    /// that of one leaf whatever the archive's size; the lookup cache is left alone.
    ///
    /// The leaf directories the walk reads may add up to the leaf directories section at most, as
    /// they do when each is pointed to once: a damaged or hostile archive whose directories point
    /// many times at the same leaves (a few kilobytes asking for billions of entries) is refused.
    ///
    /// - Throws: ``PMTilesError`` for a leaf directory that cannot be read or decoded, leaf
    ///   directories that add up to more than their section, or what `body` throws, which stops
    ///   the walk.
    public func forEachEntry(_ body: (PMTilesEntry) throws -> Void) throws {
        try forEachEntry(in: version, body)
    }

    /// ``forEachEntry(_:)`` over one version of the archive.
    func forEachEntry(in version: ArchiveVersion, _ body: (PMTilesEntry) throws -> Void) throws {
        var leafBytesRead: UInt64 = 0
        try visit(version.rootEntries, in: version, depth: 1, leafBytesRead: &leafBytesRead, body)
    }

    /// Calls `body` with every tile of the archive and its bytes (as stored), in directory order;
    /// the tiles of a run get the same bytes, read once.
    ///
    /// This is what a conversion to MBTiles or an extraction to `z/x/y` files walks. The bytes of
    /// ``tileBatchSize`` entries are asked of the source at once (HTTP: in parallel).
    ///
    /// - Throws: ``PMTilesError`` for a directory or tile that cannot be read, a tile id beyond
    ///   zoom 30, or ``PMTilesError/archiveChanged(path:)`` when the archive is replaced during
    ///   the walk; or what `body` throws, which stops the walk.
    public func forEachTile(_ body: (TileID, Data) throws -> Void) throws {
        let version = version
        var batch: [PMTilesEntry] = []
        func flush() throws {
            for entry in batch
            where entry.byteOffset > version.header.tileData.byteCount
                || UInt64(entry.byteCount) > version.header.tileData.byteCount - entry.byteOffset
            {
                throw PMTilesError.corruptDirectory(
                    path: path,
                    reason:
                        "the entry for tile id \(entry.tileID) (\(entry.byteCount) bytes at byte \(entry.byteOffset)) reaches past the tile data section (\(version.header.tileData.byteCount) bytes)"
                )
            }
            let ranges = batch.map {
                PMTilesByteRange(offset: version.header.tileData.byteOffset + $0.byteOffset, count: Int($0.byteCount))
            }
            let data = try source.data(at: ranges, version: version.version)
            for (entry, data) in zip(batch, data) {
                for id in entry.tileIDs {
                    guard let tile = TileID(pmtilesID: id) else {
                        throw PMTilesError.corruptDirectory(
                            path: path, reason: "tile id \(id) is beyond zoom \(TileID.maximumZoom)")
                    }
                    try body(tile, data)
                }
            }
            batch.removeAll(keepingCapacity: true)
        }
        try forEachEntry(in: version) { entry in
            batch.append(entry)
            if batch.count >= Self.tileBatchSize { try flush() }
        }
        try flush()
    }

    /// How many tile entries ``forEachTile(_:)`` reads at once: 64.
    static let tileBatchSize = 64

    /// The most entries ``entries()`` reserves room for from the header's tile entry count, which
    /// a damaged file may overstate: 1,048,576 (24 MiB); an archive with more grows the array as
    /// its entries are read.
    static let maximumReservedEntryCount = 1 << 20

    /// Every tile entry of the archive, in directory order (24 bytes each in memory).
    ///
    /// - Throws: ``PMTilesError`` for a leaf directory that cannot be read or decoded.
    public func entries() throws(PMTilesError) -> [PMTilesEntry] {
        var entries: [PMTilesEntry] = []
        entries.reserveCapacity(Int(min(header.tileEntryCount, UInt64(Self.maximumReservedEntryCount))))
        do {
            try forEachEntry(in: version) { entries.append($0) }
        } catch let error as PMTilesError {
            throw error
        } catch {
            preconditionFailure("forEachEntry threw \(error), which only a body may throw")
        }
        return entries
    }

    /// Visits `entries` and, depth first, the leaf directories they point to; `leafBytesRead`
    /// counts the stored bytes of the leaf directories read so far.
    private func visit(
        _ entries: [PMTilesEntry], in version: ArchiveVersion, depth: Int, leafBytesRead: inout UInt64,
        _ body: (PMTilesEntry) throws -> Void
    ) throws {
        let header = version.header
        for entry in entries {
            if !entry.isLeafDirectory {
                try body(entry)
                continue
            }
            guard depth < Self.maximumDirectoryDepth else {
                throw PMTilesError.corruptDirectory(
                    path: path, reason: "leaf directories are nested more than \(Self.maximumDirectoryDepth - 1) deep"
                )
            }
            leafBytesRead += UInt64(entry.byteCount)
            guard leafBytesRead <= header.leafDirectories.byteCount else {
                throw PMTilesError.corruptDirectory(
                    path: path,
                    reason:
                        "leaf directories are pointed to more than once: the entries point to more bytes of leaf directories than the \(header.leafDirectories.byteCount)-byte section holds"
                )
            }
            let leaf = try uncachedLeafDirectories([entry], in: version)[entry.byteOffset] ?? []
            try visit(leaf, in: version, depth: depth + 1, leafBytesRead: &leafBytesRead, body)
        }
    }
}
