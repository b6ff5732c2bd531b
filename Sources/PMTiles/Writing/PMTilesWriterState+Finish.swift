import Foundation
import MapCore
import MapUtilities
import TileSources

extension PMTilesWriterState {
    /// Writes the archive at `url`: sorts the index, makes the entries (runs merged), lays out
    /// the directories, writes header, root, metadata, leaves and the tile data in tile-id
    /// order, and renames the file into place.
    mutating func finish(url: URL) throws(PMTilesError) -> PMTilesHeader {
        guard let spool else { throw .writerClosed(path: url.path) }
        guard !records.isEmpty else { throw .noTiles(path: url.path) }
        // The hash index is done with: free it before the entries are made.
        firstContentByKey = [:]
        nextContentWithSameKey = []
        lastDuplicate = nil

        let (entries, copyOrder, tileCount) = makeEntries()
        let minZoom = TileID(pmtilesID: entries.first!.tileID)!.z
        let maxZoom = TileID(pmtilesID: entries.last!.tileIDs.upperBound - 1)!.z
        let tileType = tileType ?? metadata.format.map { PMTilesHeader.TileType(format: $0.rawValue) } ?? .unknown
        let written = filledMetadata(tileType: tileType, minZoom: minZoom, maxZoom: maxZoom)

        let layout = PMTilesDirectory.layout(entries, compress: Gzip.compress)
        let metadataBytes = Gzip.compress(written.pmtilesJSONBytes)
        let tileDataByteCount = copyOrder.reduce(UInt64(0)) { $0 + UInt64(contents[Int($1)].byteCount) }

        var header = PMTilesHeader(
            addressedTileCount: UInt64(tileCount),
            tileEntryCount: UInt64(entries.count),
            tileContentCount: UInt64(copyOrder.count),
            isClustered: true,
            internalCompression: .gzip,
            tileCompression: tileCompression ?? PMTilesHeader.Compression.none,
            tileType: tileType,
            minZoom: UInt8(minZoom),
            maxZoom: UInt8(maxZoom),
            centerZoom: UInt8(clamping: written.center?.zoom ?? minZoom)
        )
        header.rootDirectory = PMTilesHeader.Section(
            byteOffset: UInt64(PMTilesHeader.byteCount), byteCount: UInt64(layout.root.count))
        header.metadata = PMTilesHeader.Section(
            byteOffset: header.rootDirectory.endOffset!, byteCount: UInt64(metadataBytes.count))
        header.leafDirectories = PMTilesHeader.Section(
            byteOffset: header.metadata.endOffset!, byteCount: UInt64(layout.leaves.count))
        header.tileData = PMTilesHeader.Section(
            byteOffset: header.leafDirectories.endOffset!, byteCount: tileDataByteCount)
        if let bounds = written.bounds { header.bounds = bounds }
        if let center = written.center {
            header.centerLongitude = center.longitude
            header.centerLatitude = center.latitude
        }

        let file = try ArchiveFile(url: url)
        try file.append(header.bytes)
        try file.append(layout.root)
        try file.append(metadataBytes)
        try file.append(layout.leaves)
        try copyTileData(in: copyOrder, from: spool, to: file)
        assert(file.byteCount == header.tileData.endOffset)
        try file.commit()
        return header
    }

    /// The tile entries in tile-id order (the last added of each tile, consecutive ids with the
    /// same content as one run), with each content's offset in the tile data section given in
    /// order of first use; the contents in that order; and the number of tiles.
    private mutating func makeEntries() -> (entries: [PMTilesEntry], copyOrder: [UInt32], tileCount: Int) {
        records.sort { $0.tileID != $1.tileID ? $0.tileID < $1.tileID : $0.sequence < $1.sequence }
        var dataOffsets = [UInt64](repeating: .max, count: contents.count)
        var dataByteCount: UInt64 = 0
        var copyOrder: [UInt32] = []
        var entries: [PMTilesEntry] = []
        var tileCount = 0
        for index in records.indices {
            let record = records[index]
            // Of several records for one tile, keep the last added.
            if index + 1 < records.count, records[index + 1].tileID == record.tileID { continue }
            tileCount += 1
            let content = Int(record.content)
            let byteCount = contents[content].byteCount
            if dataOffsets[content] == .max {
                dataOffsets[content] = dataByteCount
                dataByteCount += UInt64(byteCount)
                copyOrder.append(record.content)
            }
            let offset = dataOffsets[content]
            if let last = entries.last, last.byteOffset == offset, last.tileIDs.upperBound == record.tileID,
                last.runLength < UInt32.max
            {
                entries[entries.count - 1].runLength += 1
            } else {
                entries.append(
                    PMTilesEntry(tileID: record.tileID, byteOffset: offset, byteCount: byteCount, runLength: 1))
            }
        }
        records = []
        return (entries, copyOrder, tileCount)
    }

    /// The metadata to write: ``metadata`` with `format`, `minzoom`, `maxzoom`, `bounds` and
    /// `center` filled in from the tiles where nil. The bounds are those of every tile added at
    /// every zoom; the center is the bounds' middle at the lowest zoom.
    private func filledMetadata(tileType: PMTilesHeader.TileType, minZoom: Int, maxZoom: Int) -> TileMetadata {
        var filled = metadata
        filled.format = filled.format ?? tileType.format.flatMap(TileFormat.init(metadataValue:))
        filled.minZoom = filled.minZoom ?? minZoom
        filled.maxZoom = filled.maxZoom ?? maxZoom
        // Computed positions are rounded as the header stores them (1e-7 degrees), so both agree.
        func rounded(_ degrees: Double) -> Double { PMTilesHeader.degrees(PMTilesHeader.e7(degrees)) }
        if filled.bounds == nil,
            let union = extents.indices
                .compactMap({ zoom in extents[zoom].map { Self.bounds(of: $0, zoom: zoom) } })
                .reduce(nil, { union, box in union?.union(box) ?? box })
        {
            filled.bounds = BoundingBox(
                west: rounded(union.west), south: rounded(union.south), east: rounded(union.east),
                north: rounded(union.north))
        }
        if filled.center == nil, let bounds = filled.bounds {
            filled.center = TileMetadata.Center(
                longitude: rounded((bounds.west + bounds.east) / 2),
                latitude: rounded((bounds.south + bounds.north) / 2), zoom: minZoom
            )
        }
        return filled
    }

    /// The area of the tiles of an extent, in degrees; the Mercator square's edge is at ±85.0511°.
    private static func bounds(of extent: Extent, zoom: Int) -> BoundingBox {
        let size = WebMercator.worldSize / Double(1 << zoom)
        let north = MapPoint(x: 0, y: Double(extent.minY) * size).coordinate.latitude
        let south = MapPoint(x: 0, y: Double(extent.maxY + 1) * size).coordinate.latitude
        return BoundingBox(
            west: Double(extent.minX) / Double(1 << zoom) * 360 - 180, south: south,
            east: Double(extent.maxX + 1) / Double(1 << zoom) * 360 - 180, north: north
        )
    }

    /// Copies the contents from the spool to the archive in `copyOrder`, reading runs that lie
    /// one after another in the spool together (up to 4 MiB at a time).
    private func copyTileData(in copyOrder: [UInt32], from spool: TileSpool, to file: ArchiveFile) throws(PMTilesError)
    {
        let chunkLimitBytes = UInt64(ArchiveFile.bufferLimitBytes)
        var runStart: UInt64 = 0
        var runByteCount: UInt64 = 0
        func flushRun() throws(PMTilesError) {
            guard runByteCount > 0 else { return }
            let start = runStart
            try file.append(count: Int(runByteCount)) { (buffer) throws(PMTilesError) in
                try spool.read(into: buffer, at: start)
            }
            runByteCount = 0
        }
        for index in copyOrder {
            let content = contents[Int(index)]
            if runByteCount > 0, content.spoolOffset == runStart + runByteCount,
                runByteCount + UInt64(content.byteCount) <= chunkLimitBytes
            {
                runByteCount += UInt64(content.byteCount)
            } else {
                try flushRun()
                runStart = content.spoolOffset
                runByteCount = UInt64(content.byteCount)
            }
        }
        try flushRun()
    }
}
