public import Foundation
public import MapCore
public import MapJSON
import MapUtilities
import Synchronization

/// Tiles from a PMTiles v3 archive, on disk or on a web server, looked up by address.
///
/// Opening reads the archive's first 16,384 bytes (the header, and the root directory where
/// writers put it, in one read as the specification intends: one request over HTTP), checks
/// them and reads the metadata; a lookup then searches the root directory, reads and decodes at
/// most a few leaf directories (kept in a small cache) and reads the tile's bytes. For example:
///
/// ```swift
/// let reader = try PMTilesReader(url: URL(fileURLWithPath: "Tiles/world.pmtiles"))
/// if let png = try reader.tile(at: TileID(z: 3, x: 4, y: 2)) { ... }
/// reader.header.tileType.mimeType        // "image/png", a tile server's Content-Type
/// reader.header.tileCompression          // .none; a server sends `httpContentEncoding` when set
/// let remote = try PMTilesReader(source: HTTPRangeSource(url: archiveURL))  // Tilesets
/// ```
///
/// The bytes come from a ``PMTilesByteSource``: a local file read with `pread`
/// (``init(url:)``), or any other source (``init(source:)``), such as HTTP range requests.
/// ``tiles(at:)`` asks the source for the leaf directories and tiles of a batch together, so a
/// source that reads ranges in parallel does.
///
/// Tiles come back as stored: when ``PMTilesHeader/tileCompression`` is gzip (as for most
/// vector tiles), the bytes are gzip, ready to be served with `Content-Encoding: gzip`.
/// Directories and metadata compressed with gzip or not at all are read; brotli and zstd are
/// refused on opening.
///
/// **A replaced archive.** A source that tells versions apart (an HTTP `ETag`) reports a read of
/// a version no longer there (``PMTilesError/archiveChanged(path:)``); a lookup
/// (``tile(at:)``, ``tiles(at:)``) then reads the new archive's header, directories and
/// metadata and looks up again, so what it returns is wholly of one archive, never a mix.
///
/// **Threads.** The reader is `Sendable`: the file is read with `pread`, which shares no file
/// position, and the leaf directory cache is behind a `Mutex` held only to look up or insert,
/// never while reading or decoding. Any number of threads may call ``tile(at:)`` at once, as a
/// tile server's request handlers do.
///
/// **Damaged files.** Every offset and length read from the file is checked before it is used;
/// a damaged or foreign file is a ``PMTilesError`` naming it, never a crash.
public final class PMTilesReader: Sendable {
    /// The archive: a file URL, or an `http(s)` URL.
    public let url: URL
    /// Where the bytes come from.
    public let source: any PMTilesByteSource
    /// What was read of the archive's current version.
    private let current: Mutex<ArchiveVersion>

    /// How many directories a lookup goes through at most: the root and three levels of leaves
    /// (writers make one level; the specification discourages more).
    static let maximumDirectoryDepth = 4

    /// Opens an archive on disk and reads its header, root directory and metadata.
    ///
    /// - Parameter url: The archive; relative paths are relative to the working directory.
    /// - Throws: ``PMTilesError/unreadableFile(path:reason:)`` for a file that cannot be read,
    ///   ``PMTilesError/notPMTiles(path:)``, ``PMTilesError/unsupportedVersion(path:version:)``,
    ///   ``PMTilesError/corruptHeader(path:reason:)``, ``PMTilesError/corruptDirectory(path:reason:)``
    ///   for a root directory that does not decode, ``PMTilesError/corruptMetadata(path:reason:)``,
    ///   ``PMTilesError/unsupportedCompression(path:compression:)`` for brotli or zstd directories.
    public convenience init(url: URL) throws(PMTilesError) {
        try self.init(source: try ReadOnlyFile(url: url))
    }

    /// Opens the archive a source reads, and reads its header, root directory and metadata.
    ///
    /// - Throws: As ``init(url:)``, and what the source throws (for HTTP,
    ///   ``PMTilesError/requestFailed(url:reason:)``).
    public init(source: any PMTilesByteSource) throws(PMTilesError) {
        self.source = source
        url = source.url
        current = Mutex(try ArchiveVersion(source: source))
    }

    /// What was read of the archive's current version.
    var version: ArchiveVersion { current.withLock { $0 } }

    /// The archive as messages name it: its path, or its URL.
    var path: String { source.name }

    /// The root directory's entries, decoded on opening.
    var rootEntries: [PMTilesEntry] { version.rootEntries }

    /// The archive's header.
    public var header: PMTilesHeader { version.header }

    /// The archive's JSON metadata as the object it holds; empty when the archive has none.
    /// ``metadata()`` types it (with the header's zooms and bounds where it has none).
    public var metadataJSON: [String: JSONValue] { version.metadataJSON }

    /// The archive's size in bytes when it was opened (or last found replaced).
    public var fileByteCount: UInt64 { version.byteCount }

    /// The bytes of a tile, as stored (see ``PMTilesHeader/tileCompression``); nil when the
    /// archive has no such tile.
    ///
    /// - Throws: ``PMTilesError/corruptDirectory(path:reason:)`` when a leaf directory does not
    ///   decode or an entry points outside its section, ``PMTilesError/unreadableFile(path:reason:)``
    ///   when reading fails.
    public func tile(at tile: TileID) throws(PMTilesError) -> Data? {
        try reloadingOnce { version throws(PMTilesError) in
            guard let entry = try self.entry(holding: tile.pmtilesID, in: version) else { return nil }
            return try self.source.data(at: [try self.range(of: entry, in: version)], version: version.version)[0]
        }
    }

    /// The bytes of tiles, as stored; tiles the archive lacks are absent.
    ///
    /// The leaf directories the batch needs are asked of the source together, then the tiles'
    /// bytes (each distinct range once: a run of repeated tiles is read once), so a source that
    /// reads ranges in parallel does. When the source finds the archive replaced, the batch is
    /// looked up again in the new archive, once.
    ///
    /// - Throws: As ``tile(at:)``.
    public func tiles(at ids: [TileID]) throws(PMTilesError) -> [TileID: Data] {
        try reloadingOnce { version throws(PMTilesError) in
            let entries = try self.entries(holding: ids, in: version)
            var distinct = Set<PMTilesByteRange>()
            for entry in entries.values { distinct.insert(try self.range(of: entry, in: version)) }
            let ranges = Array(distinct)
            let data = try self.source.data(at: ranges, version: version.version)
            let byRange = Dictionary(uniqueKeysWithValues: zip(ranges, data))
            var tiles: [TileID: Data] = [:]
            for (tile, entry) in entries { tiles[tile] = byRange[try self.range(of: entry, in: version)] }
            return tiles
        }
    }

    /// The tile entry (not a leaf directory entry) whose run holds a tile id; nil when none does.
    ///
    /// - Throws: As ``tile(at:)``.
    public func entry(holding id: UInt64) throws(PMTilesError) -> PMTilesEntry? {
        try reloadingOnce { version throws(PMTilesError) in try self.entry(holding: id, in: version) }
    }

    /// ``entry(holding:)`` in one version of the archive.
    private func entry(holding id: UInt64, in version: ArchiveVersion) throws(PMTilesError) -> PMTilesEntry? {
        var entries = version.rootEntries
        for _ in 0..<Self.maximumDirectoryDepth {
            guard let entry = PMTilesDirectory.entry(holding: id, in: entries) else { return nil }
            guard entry.isLeafDirectory else { return entry }
            entries = try leafDirectories([entry], in: version)[entry.byteOffset] ?? []
        }
        throw .corruptDirectory(
            path: path, reason: "leaf directories are nested more than \(Self.maximumDirectoryDepth - 1) deep")
    }

    /// The bytes a tile entry points to in the tile data section.
    ///
    /// - Throws: ``PMTilesError/corruptDirectory(path:reason:)`` when the entry reaches past the
    ///   tile data section, ``PMTilesError/unreadableFile(path:reason:)`` when reading fails.
    public func data(of entry: PMTilesEntry) throws(PMTilesError) -> Data {
        let version = version
        return try source.data(at: [try range(of: entry, in: version)], version: version.version)[0]
    }

    // MARK: - Lookups

    /// Runs `body` with the current version; when the source finds the archive replaced, reads
    /// the new version (unless another thread already has) and runs `body` again, once.
    private func reloadingOnce<T>(_ body: (ArchiveVersion) throws(PMTilesError) -> T) throws(PMTilesError) -> T {
        let first = version
        do throws(PMTilesError) {
            return try body(first)
        } catch {
            guard case .archiveChanged = error else { throw error }
            return try body(try reload(replacing: first))
        }
    }

    /// Reads the archive's new version, unless the current one is already newer than `stale`.
    func reload(replacing stale: ArchiveVersion) throws(PMTilesError) -> ArchiveVersion {
        let latest = version
        guard latest === stale else { return latest }
        let fresh = try ArchiveVersion(source: source)
        current.withLock { $0 = fresh }
        return fresh
    }

    /// The tile entries holding `ids`, leaf directories resolved level by level, each level's
    /// missing leaves asked of the source together.
    private func entries(holding ids: [TileID], in version: ArchiveVersion) throws(PMTilesError) -> [TileID:
        PMTilesEntry]
    {
        var found: [TileID: PMTilesEntry] = [:]
        var pending = Set(ids).map { ($0, version.rootEntries) }
        for _ in 0..<Self.maximumDirectoryDepth {
            var descending: [(TileID, PMTilesEntry)] = []
            for (tile, entries) in pending {
                guard let entry = PMTilesDirectory.entry(holding: tile.pmtilesID, in: entries) else { continue }
                if entry.isLeafDirectory { descending.append((tile, entry)) } else { found[tile] = entry }
            }
            guard !descending.isEmpty else { return found }
            let leaves = try leafDirectories(descending.map(\.1), in: version)
            pending = descending.map { ($0.0, leaves[$0.1.byteOffset] ?? []) }
        }
        throw .corruptDirectory(
            path: path, reason: "leaf directories are nested more than \(Self.maximumDirectoryDepth - 1) deep")
    }

    /// Where an entry's tile bytes are in the archive, checked to lie within the tile data section.
    private func range(of entry: PMTilesEntry, in version: ArchiveVersion) throws(PMTilesError) -> PMTilesByteRange {
        PMTilesByteRange(
            offset: try absoluteOffset(of: entry, in: version.header.tileData, what: "tile data"),
            count: Int(entry.byteCount))
    }

    // MARK: - Directories

    /// The decoded entries of leaf directories by offset in their section: from the cache, the
    /// rest read together and cached.
    func leafDirectories(_ entries: [PMTilesEntry], in version: ArchiveVersion) throws(PMTilesError) -> [UInt64:
        [PMTilesEntry]]
    {
        var result: [UInt64: [PMTilesEntry]] = [:]
        var missing: [UInt64: PMTilesEntry] = [:]
        version.leafCache.withLock { cache in
            for entry in entries {
                if let cached = cache.entries(at: entry.byteOffset) {
                    result[entry.byteOffset] = cached
                } else {
                    missing[entry.byteOffset] = entry
                }
            }
        }
        guard !missing.isEmpty else { return result }
        let read = try uncachedLeafDirectories(Array(missing.values), in: version)
        version.leafCache.withLock { cache in
            for (offset, entries) in read { cache.insert(entries, at: offset) }
        }
        return result.merging(read) { cached, _ in cached }
    }

    /// The decoded entries of leaf directories by offset in their section, read from the source together.
    func uncachedLeafDirectories(_ entries: [PMTilesEntry], in version: ArchiveVersion) throws(PMTilesError) -> [UInt64:
        [PMTilesEntry]]
    {
        let header = version.header
        var sections: [(offset: UInt64, section: PMTilesHeader.Section)] = []
        for entry in entries {
            let offset = try absoluteOffset(of: entry, in: header.leafDirectories, what: "leaf directories")
            let section = PMTilesHeader.Section(byteOffset: offset, byteCount: UInt64(entry.byteCount))
            try Self.checkStoredSize(section, name: "the leaf directory at byte \(offset)") {
                .corruptDirectory(path: path, reason: $0)
            }
            sections.append((entry.byteOffset, section))
        }
        let stored = try source.data(
            at: sections.map { PMTilesByteRange(offset: $0.section.byteOffset, count: Int($0.section.byteCount)) },
            version: version.version)
        var result: [UInt64: [PMTilesEntry]] = [:]
        for (index, (offset, section)) in sections.enumerated() {
            result[offset] = try Self.directory(
                [UInt8](stored[index]), compression: header.internalCompression, path: path,
                name: "the leaf directory at byte \(section.byteOffset)")
        }
        return result
    }

    /// Where an entry's bytes start in the file, checked to end within `section`.
    private func absoluteOffset(of entry: PMTilesEntry, in section: PMTilesHeader.Section, what: String)
        throws(PMTilesError) -> UInt64
    {
        let (end, overflow) = entry.byteOffset.addingReportingOverflow(UInt64(entry.byteCount))
        guard !overflow, end <= section.byteCount else {
            throw .corruptDirectory(
                path: path,
                reason:
                    "the entry for tile id \(entry.tileID) (\(entry.byteCount) bytes at byte \(entry.byteOffset)) reaches past the \(what) section (\(section.byteCount) bytes)"
            )
        }
        return section.byteOffset + entry.byteOffset
    }

    /// The entries of a directory as stored, decompressed as the header says.
    static func directory(
        _ stored: [UInt8], compression: PMTilesHeader.Compression, path: String, name: String
    ) throws(PMTilesError) -> [PMTilesEntry] {
        let bytes = try decompress(stored, compression: compression) { reason in
            .corruptDirectory(path: path, reason: "\(name) does not decompress: \(reason)")
        }
        do {
            return try PMTilesDirectory.decode(bytes)
        } catch {
            throw .corruptDirectory(path: path, reason: "\(name) does not decode: \(error.reason)")
        }
    }

    /// The metadata's JSON object from its stored bytes.
    static func metadata(_ stored: [UInt8], compression: PMTilesHeader.Compression, path: String) throws(PMTilesError)
        -> [String: JSONValue]
    {
        let bytes = try decompress(stored, compression: compression) { reason in
            .corruptMetadata(path: path, reason: reason)
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(Data(bytes))
        } catch {
            throw .corruptMetadata(path: path, reason: error.reason)
        }
        guard case .object(let object) = value else {
            throw .corruptMetadata(path: path, reason: "it is \(value.kindDescription), not a JSON object")
        }
        return object
    }

    /// Refuses a directory or the metadata longer than ``Gzip/defaultLimitBytes``, so a damaged
    /// header cannot ask for gigabytes.
    static func checkStoredSize(
        _ section: PMTilesHeader.Section, name: String, makeError: (String) -> PMTilesError
    ) throws(PMTilesError) {
        guard section.byteCount <= UInt64(Gzip.defaultLimitBytes) else {
            throw makeError(
                "\(name) is \(section.byteCount) bytes long, more than \(Data.byteCountText(Gzip.defaultLimitBytes))")
        }
    }

    /// `bytes` decompressed with the archive's internal compression: gzip, none, or, when the
    /// header does not say, gzip if they start as gzip does.
    private static func decompress(
        _ bytes: [UInt8], compression: PMTilesHeader.Compression, makeError: (String) -> PMTilesError
    ) throws(PMTilesError) -> [UInt8] {
        guard compression == .gzip || (compression == .unknown && Gzip.isGzip(bytes)) else { return bytes }
        do {
            return try Gzip.decompress(bytes)
        } catch {
            throw makeError(error.reason)
        }
    }
}

/// What was read of one version of an archive: its header, root directory and metadata, and
/// the leaf directories looked up since (dropped with the version when the archive is replaced).
final class ArchiveVersion: Sendable {
    let header: PMTilesHeader
    let rootEntries: [PMTilesEntry]
    let metadataJSON: [String: JSONValue]
    /// The archive's length in bytes.
    let byteCount: UInt64
    /// The source's name for the version (an `ETag`); nil for a file.
    let version: String?
    let leafCache = Mutex(LeafCache())

    /// Reads the header and root directory (from the first 16,384 bytes when the root lies
    /// there, as writers put it) and the metadata.
    init(source: any PMTilesByteSource) throws(PMTilesError) {
        let path = source.name
        let start = try source.start(byteCount: PMTilesHeader.rootReachBytes)
        let header = try PMTilesHeader(bytes: Array(start.bytes.prefix(PMTilesHeader.byteCount)), path: path)
        try header.validateSections(fileByteCount: start.archiveByteCount, path: path)
        switch header.internalCompression {
        case .none, .gzip, .unknown: break
        default: throw .unsupportedCompression(path: path, compression: header.internalCompression.description)
        }
        /// A section's stored bytes: from the start when it lies within, else read.
        func stored(_ section: PMTilesHeader.Section, name: String, makeError: (String) -> PMTilesError)
            throws(PMTilesError) -> [UInt8]
        {
            try PMTilesReader.checkStoredSize(section, name: name, makeError: makeError)
            if let end = section.endOffset, end <= UInt64(start.bytes.count) {
                return Array(start.bytes[Int(section.byteOffset)..<Int(end)])
            }
            let range = PMTilesByteRange(offset: section.byteOffset, count: Int(section.byteCount))
            return [UInt8](try source.data(at: [range], version: start.version)[0])
        }
        let root = try stored(header.rootDirectory, name: "the root directory") {
            .corruptDirectory(path: path, reason: $0)
        }
        rootEntries = try PMTilesReader.directory(
            root, compression: header.internalCompression, path: path, name: "the root directory")
        if header.metadata.byteCount > 0 {
            let metadata = try stored(header.metadata, name: "the metadata") {
                .corruptMetadata(path: path, reason: $0)
            }
            metadataJSON = try PMTilesReader.metadata(metadata, compression: header.internalCompression, path: path)
        } else {
            metadataJSON = [:]
        }
        self.header = header
        byteCount = start.archiveByteCount
        version = start.version
    }
}

/// Decoded leaf directories by offset in the leaf directories section, the oldest dropped first
/// once ``capacity`` are held.
struct LeafCache: Sendable {
    /// The most leaf directories held: 64, at most a few MiB for leaves of a few thousand entries.
    static let capacity = 64

    private var directories: [UInt64: [PMTilesEntry]] = [:]
    private var order: [UInt64] = []

    func entries(at offset: UInt64) -> [PMTilesEntry]? {
        directories[offset]
    }

    mutating func insert(_ entries: [PMTilesEntry], at offset: UInt64) {
        guard directories.updateValue(entries, forKey: offset) == nil else { return }
        order.append(offset)
        if order.count > Self.capacity {
            directories[order.removeFirst()] = nil
        }
    }
}
