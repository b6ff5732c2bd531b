public import Foundation

/// Where a ``PMTilesReader`` gets an archive's bytes: a local file read with `pread`
/// (``PMTilesReader/init(url:)``), or an archive on a web server read with HTTP range requests
/// (`Tilesets`' `HTTPRangeSource`). The reader's directory logic is the same over both; only
/// the bytes come from elsewhere.
///
/// A source serves one *version* of the archive at a time: ``start(byteCount:)`` reads the first
/// bytes and says which version they are of (an HTTP `ETag`; nil for a local file), and every
/// later read names that version, so bytes of a replaced archive are never mixed with the old
/// one's. A source that finds the archive replaced under a read throws
/// ``PMTilesError/archiveChanged(path:)``, and the reader starts again from the header.
///
/// For example, a source over bytes in memory:
///
/// ```swift
/// struct MemoryArchive: PMTilesByteSource {
///     let bytes: Data
///     var url: URL { URL(string: "memory:archive")! }
///     func start(byteCount: Int) -> PMTilesArchiveStart {
///         PMTilesArchiveStart(bytes: Array(bytes.prefix(byteCount)), archiveByteCount: UInt64(bytes.count), version: nil)
///     }
///     func data(at ranges: [PMTilesByteRange], version: String?) -> [Data] {
///         ranges.map { bytes[Int($0.offset)..<Int($0.offset) + $0.count] }
///     }
/// }
/// ```
///
/// Every method may be called from any thread at once.
public protocol PMTilesByteSource: Sendable {
    /// Where the archive is: a file URL, or an `http(s)` URL.
    var url: URL { get }

    /// The archive as messages name it: a file's path, or the URL. The default is the file's
    /// path for a file URL, else the URL as text.
    var name: String { get }

    /// Reads the first `byteCount` bytes (fewer when the archive is shorter) and fixes the version
    /// of the archive later reads are of.
    ///
    /// - Throws: ``PMTilesError`` naming the archive when it cannot be read.
    func start(byteCount: Int) throws(PMTilesError) -> PMTilesArchiveStart

    /// The bytes of `ranges`, in their order, of the archive's version `version` (as
    /// ``start(byteCount:)`` gave it). A source that can read several ranges at once (HTTP
    /// requests in parallel) does.
    ///
    /// - Throws: ``PMTilesError/archiveChanged(path:)`` when the archive is no longer that
    ///   version; another ``PMTilesError`` naming the archive when a range cannot be read.
    func data(at ranges: [PMTilesByteRange], version: String?) throws(PMTilesError) -> [Data]
}

extension PMTilesByteSource {
    public var name: String { url.isFileURL ? url.path : url.absoluteString }
}

/// Some consecutive bytes of an archive: `count` bytes from `offset`.
public struct PMTilesByteRange: Hashable, Sendable {
    /// The first byte, from the start of the archive.
    public var offset: UInt64
    /// How many bytes.
    public var count: Int

    /// Creates a range.
    public init(offset: UInt64, count: Int) {
        self.offset = offset
        self.count = count
    }
}

/// What a ``PMTilesByteSource`` reads when it starts: the archive's first bytes, its length and
/// its version.
public struct PMTilesArchiveStart: Sendable {
    /// The archive's first bytes: as many as asked for, or the whole archive when shorter.
    public var bytes: [UInt8]
    /// The archive's length in bytes.
    public var archiveByteCount: UInt64
    /// Which version of the archive later reads are of (an HTTP `ETag`); nil when the source
    /// cannot tell versions apart (a local file, opened once).
    public var version: String?

    /// Creates a start.
    public init(bytes: [UInt8], archiveByteCount: UInt64, version: String?) {
        self.bytes = bytes
        self.archiveByteCount = archiveByteCount
        self.version = version
    }
}
