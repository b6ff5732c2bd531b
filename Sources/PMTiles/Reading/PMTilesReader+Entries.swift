import Foundation
import MapCore

extension PMTilesReader {
    /// Calls `body` with every tile entry of the archive (leaf directories resolved, never
    /// passed), in directory order: tile-id order for an archive written as the specification
    /// asks.
    ///
    /// Each leaf directory is read once and dropped after its entries are visited, so memory stays
    /// that of one leaf whatever the archive's size; the lookup cache is left alone.
    ///
    /// - Throws: ``PMTilesError`` for a leaf directory that cannot be read or decoded, or what
    ///   `body` throws, which stops the walk.
    public func forEachEntry(_ body: (PMTilesEntry) throws -> Void) throws {
        try visit(rootEntries, depth: 1, body)
    }

    /// Calls `body` with every tile of the archive and its bytes (as stored), in directory order;
    /// the tiles of a run get the same bytes, read once.
    ///
    /// This is what a conversion to MBTiles or an extraction to `z/x/y` files walks.
    ///
    /// - Throws: ``PMTilesError`` for a directory or tile that cannot be read, or a tile id beyond
    ///   zoom 30; or what `body` throws, which stops the walk.
    public func forEachTile(_ body: (TileID, Data) throws -> Void) throws {
        try forEachEntry { entry in
            let data = try data(of: entry)
            for id in entry.tileIDs {
                guard let tile = TileID(pmtilesID: id) else {
                    throw PMTilesError.corruptDirectory(path: url.path, reason: "tile id \(id) is beyond zoom \(TileID.maximumZoom)")
                }
                try body(tile, data)
            }
        }
    }

    /// Every tile entry of the archive, in directory order (24 bytes each in memory).
    ///
    /// - Throws: ``PMTilesError`` for a leaf directory that cannot be read or decoded.
    public func entries() throws(PMTilesError) -> [PMTilesEntry] {
        var entries: [PMTilesEntry] = []
        if header.tileEntryCount > 0, header.tileEntryCount < 1 << 26 { entries.reserveCapacity(Int(header.tileEntryCount)) }
        do {
            try forEachEntry { entries.append($0) }
        } catch let error as PMTilesError {
            throw error
        } catch {
            preconditionFailure("forEachEntry threw \(error), which only a body may throw")
        }
        return entries
    }

    private func visit(_ entries: [PMTilesEntry], depth: Int, _ body: (PMTilesEntry) throws -> Void) throws {
        for entry in entries {
            if !entry.isLeafDirectory {
                try body(entry)
                continue
            }
            guard depth < Self.maximumDirectoryDepth else {
                throw PMTilesError.corruptDirectory(
                    path: url.path, reason: "leaf directories are nested more than \(Self.maximumDirectoryDepth - 1) deep"
                )
            }
            try visit(try uncachedLeafDirectory(entry), depth: depth + 1, body)
        }
    }
}
