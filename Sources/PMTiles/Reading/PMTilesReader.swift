public import Foundation
public import MapCore
public import MapJSON
import MapUtilities
import Synchronization
/// Tiles from a PMTiles v3 archive on disk, looked up by address.
///
/// Opening reads and checks the header, the root directory and the metadata; a lookup then
/// searches the root directory, reads and decodes at most a few leaf directories (kept in a
/// small cache) and reads the tile's bytes. For example:
///
/// ```swift
/// let reader = try PMTilesReader(url: URL(fileURLWithPath: "Tiles/world.pmtiles"))
/// if let png = try reader.tile(at: TileID(z: 3, x: 4, y: 2)) { ... }
/// reader.header.tileType.mimeType        // "image/png", a tile server's Content-Type
/// reader.header.tileCompression          // .none; a server sends `httpContentEncoding` when set
/// ```
///
/// Tiles come back as stored: when ``PMTilesHeader/tileCompression`` is gzip (as for most
/// vector tiles), the bytes are gzip, ready to be served with `Content-Encoding: gzip`.
/// Directories and metadata compressed with gzip or not at all are read; brotli and zstd are
/// refused on opening.
///
/// **Threads.** The reader is `Sendable`: the file is read with `pread`, which shares no file
/// position, and the leaf directory cache is behind a `Mutex` held only to look up or insert,
/// never while reading or decoding. Any number of threads may call ``tile(at:)`` at once, as a
/// tile server's request handlers do.
///
/// **Damaged files.** Every offset and length read from the file is checked before it is used;
/// a damaged or foreign file is a ``PMTilesError`` naming it, never a crash.
public final class PMTilesReader: Sendable {
    /// The archive.
    public let url: URL
    /// The archive's header.
    public let header: PMTilesHeader
    /// The archive's JSON metadata as the object it holds; empty when the archive has none.
    /// ``metadata()`` types it (with the header's zooms and bounds where it has none).
    public let metadataJSON: [String: JSONValue]

    private let file: ReadOnlyFile
    /// The root directory's entries, decoded on opening.
    let rootEntries: [PMTilesEntry]
    private let leafCache = Mutex(LeafCache())

    /// How many directories a lookup goes through at most: the root and three levels of leaves
    /// (writers make one level; the specification discourages more).
    static let maximumDirectoryDepth = 4

    /// Opens an archive and reads its header, root directory and metadata.
    ///
    /// - Parameter url: The archive; relative paths are relative to the working directory.
    /// - Throws: ``PMTilesError/unreadableFile(path:reason:)`` for a file that cannot be read,
    ///   ``PMTilesError/notPMTiles(path:)``, ``PMTilesError/unsupportedVersion(path:version:)``,
    ///   ``PMTilesError/corruptHeader(path:reason:)``, ``PMTilesError/corruptDirectory(path:reason:)``
    ///   for a root directory that does not decode, ``PMTilesError/corruptMetadata(path:reason:)``,
    ///   ``PMTilesError/unsupportedCompression(path:compression:)`` for brotli or zstd directories.
    public init(url: URL) throws(PMTilesError) {
        self.url = url
        let file = try ReadOnlyFile(url: url)
        let start = try file.bytes(at: 0, count: Int(min(file.byteCount, UInt64(PMTilesHeader.byteCount))), what: "the header")
        let header = try PMTilesHeader(bytes: start, path: file.path)
        try header.validateSections(fileByteCount: file.byteCount, path: file.path)
        switch header.internalCompression {
        case .none, .gzip, .unknown: break
        default: throw .unsupportedCompression(path: file.path, compression: header.internalCompression.description)
        }
        self.file = file
        self.header = header
        rootEntries = try Self.directory(in: file, header: header, at: header.rootDirectory, name: "the root directory")
        metadataJSON = try Self.metadata(in: file, header: header)
    }

    /// The archive's size in bytes when it was opened.
    public var fileByteCount: UInt64 { file.byteCount }

    /// The bytes of a tile, as stored (see ``PMTilesHeader/tileCompression``); nil when the
    /// archive has no such tile.
    ///
    /// - Throws: ``PMTilesError/corruptDirectory(path:reason:)`` when a leaf directory does not
    ///   decode or an entry points outside its section, ``PMTilesError/unreadableFile(path:reason:)``
    ///   when reading fails.
    public func tile(at tile: TileID) throws(PMTilesError) -> Data? {
        guard let entry = try entry(holding: tile.pmtilesID) else { return nil }
        return try data(of: entry)
    }

    /// The tile entry (not a leaf directory entry) whose run holds a tile id; nil when none does.
    ///
    /// - Throws: As ``tile(at:)``.
    public func entry(holding id: UInt64) throws(PMTilesError) -> PMTilesEntry? {
        var entries = rootEntries
        for _ in 0..<Self.maximumDirectoryDepth {
            guard let entry = PMTilesDirectory.entry(holding: id, in: entries) else { return nil }
            guard entry.isLeafDirectory else { return entry }
            entries = try leafDirectory(entry)
        }
        throw .corruptDirectory(path: file.path, reason: "leaf directories are nested more than \(Self.maximumDirectoryDepth - 1) deep")
    }

    /// The bytes a tile entry points to in the tile data section.
    ///
    /// - Throws: ``PMTilesError/corruptDirectory(path:reason:)`` when the entry reaches past the
    ///   tile data section, ``PMTilesError/unreadableFile(path:reason:)`` when reading fails.
    public func data(of entry: PMTilesEntry) throws(PMTilesError) -> Data {
        let offset = try absoluteOffset(of: entry, in: header.tileData, what: "tile data")
        return try file.data(at: offset, count: Int(entry.byteCount), what: "the data of tile id \(entry.tileID)")
    }

    // MARK: - Directories

    /// The decoded entries of a leaf directory, from the cache or the file.
    func leafDirectory(_ entry: PMTilesEntry) throws(PMTilesError) -> [PMTilesEntry] {
        if let cached = leafCache.withLock({ $0.entries(at: entry.byteOffset) }) { return cached }
        let entries = try uncachedLeafDirectory(entry)
        leafCache.withLock { $0.insert(entries, at: entry.byteOffset) }
        return entries
    }

    /// The decoded entries of a leaf directory, read from the file.
    func uncachedLeafDirectory(_ entry: PMTilesEntry) throws(PMTilesError) -> [PMTilesEntry] {
        let offset = try absoluteOffset(of: entry, in: header.leafDirectories, what: "leaf directories")
        let section = PMTilesHeader.Section(byteOffset: offset, byteCount: UInt64(entry.byteCount))
        return try Self.directory(in: file, header: header, at: section, name: "the leaf directory at byte \(offset)")
    }

    /// Where an entry's bytes start in the file, checked to end within `section`.
    private func absoluteOffset(of entry: PMTilesEntry, in section: PMTilesHeader.Section, what: String) throws(PMTilesError) -> UInt64 {
        let (end, overflow) = entry.byteOffset.addingReportingOverflow(UInt64(entry.byteCount))
        guard !overflow, end <= section.byteCount else {
            throw .corruptDirectory(
                path: file.path,
                reason: "the entry for tile id \(entry.tileID) (\(entry.byteCount) bytes at byte \(entry.byteOffset)) reaches past the \(what) section (\(section.byteCount) bytes)"
            )
        }
        return section.byteOffset + entry.byteOffset
    }

    /// The entries of the directory in `section`, decompressed as the header says.
    static func directory(
        in file: ReadOnlyFile, header: PMTilesHeader, at section: PMTilesHeader.Section, name: String
    ) throws(PMTilesError) -> [PMTilesEntry] {
        let stored = try storedBytes(in: file, at: section, name: name) { .corruptDirectory(path: file.path, reason: $0) }
        let bytes = try decompress(stored, compression: header.internalCompression) { reason in
            .corruptDirectory(path: file.path, reason: "\(name) does not decompress: \(reason)")
        }
        do {
            return try PMTilesDirectory.decode(bytes)
        } catch {
            throw .corruptDirectory(path: file.path, reason: "\(name) does not decode: \(error.reason)")
        }
    }

    /// The metadata's JSON object; empty when the section is.
    private static func metadata(in file: ReadOnlyFile, header: PMTilesHeader) throws(PMTilesError) -> [String: JSONValue] {
        guard header.metadata.byteCount > 0 else { return [:] }
        let stored = try storedBytes(in: file, at: header.metadata, name: "the metadata") { .corruptMetadata(path: file.path, reason: $0) }
        let bytes = try decompress(stored, compression: header.internalCompression) { reason in
            .corruptMetadata(path: file.path, reason: reason)
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(Data(bytes))
        } catch {
            throw .corruptMetadata(path: file.path, reason: error.reason)
        }
        guard case .object(let object) = value else {
            throw .corruptMetadata(path: file.path, reason: "it is \(value.kindDescription), not a JSON object")
        }
        return object
    }

    /// The bytes of a directory or the metadata as stored, refused when more than
    /// ``Gzip/defaultLimitBytes``, so a damaged header cannot ask for gigabytes.
    private static func storedBytes(
        in file: ReadOnlyFile, at section: PMTilesHeader.Section, name: String, makeError: (String) -> PMTilesError
    ) throws(PMTilesError) -> [UInt8] {
        guard section.byteCount <= UInt64(Gzip.defaultLimitBytes) else {
            throw makeError("\(name) is \(section.byteCount) bytes long, more than \(Data.byteCountText(Gzip.defaultLimitBytes))")
        }
        return try file.bytes(at: section.byteOffset, count: Int(section.byteCount), what: name)
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
