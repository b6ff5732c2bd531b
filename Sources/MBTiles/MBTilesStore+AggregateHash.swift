import Foundation
import MapSQLite
import MapUtilities

/// What the stored `agg_tiles_hash` of an MBTiles file says about its tiles.
public enum MBTilesAggregateHashCheck: Hashable, Sendable {
    /// The stored value is the hash of the tiles.
    case matches(hash: String)
    /// The stored value is not the hash of the tiles: they changed since it was written, or the
    /// file is damaged.
    case mismatch(stored: String, computed: String)
    /// The file has no `agg_tiles_hash` (most tools other than martin's do not write one).
    case missing(computed: String)
    /// The file's `hash_algorithm` names an algorithm other than MD5, which cannot be checked here.
    case unsupportedAlgorithm(String)

    /// Whether the check found nothing wrong: a match, or no stored value to contradict.
    public var isAcceptable: Bool {
        switch self {
        case .matches, .missing: true
        case .mismatch, .unsupportedAlgorithm: false
        }
    }
}

extension MBTilesStore {
    /// The metadata key of the aggregate tiles hash, as martin's `mbtiles` tool names it.
    public static let aggregateTilesHashKey = "agg_tiles_hash"
    /// The metadata key naming the algorithm behind `agg_tiles_hash`; absent means MD5.
    public static let hashAlgorithmKey = "hash_algorithm"

    /// The aggregate hash of every tile, exactly as martin's `mbtiles validate` and `mbtiles copy`
    /// compute `agg_tiles_hash`, so that two files with the same tiles, whatever their layout or
    /// tool, have the same value and can be compared without reading their blobs.
    ///
    /// The definition (martin's `calc_agg_tiles_hash`): the MD5 of the concatenation, over the
    /// rows of `tiles` ordered by `zoom_level`, `tile_column`, `tile_row` (TMS rows, ascending),
    /// of each row's `cast(zoom_level AS text)`, `cast(tile_column AS text)`,
    /// `cast(tile_row AS text)` (decimal digits, no separator) and `tile_data` bytes (a NULL
    /// `tile_data` adds nothing), written as 32 uppercase hexadecimal digits. A file without tiles
    /// has the MD5 of nothing, `D41D8CD98F00B204E9800998ECF8427E`. For example, the tiles 0/0/0
    /// `x'01'` and 1/0/1 `x'02'` hash the bytes `"000" 01 "101" 02`.
    ///
    /// Reads every tile once, in one read transaction: one consistent state of the file even
    /// while a writer commits.
    ///
    /// - Throws: ``MBTilesError/sqlite(_:)``, ``MBTilesError/corrupt(path:reason:)``.
    public func aggregateTilesHash() throws(MBTilesError) -> String {
        try readers.withReader { reader in
            var md5 = MD5()
            let statement = try reader.database.prepare(
                """
                SELECT cast(zoom_level AS text), cast(tile_column AS text), cast(tile_row AS text), tile_data \
                FROM tiles ORDER BY zoom_level, tile_column, tile_row
                """)
            try statement.forEachRow { row in
                for column in 0..<4 {
                    row.withUnsafeBytes(at: column) { md5.combine($0) }
                }
            }
            return md5.finalize().uppercaseHexDigits
        }
    }

    /// Compares the stored `agg_tiles_hash` with the hash of the tiles (``aggregateTilesHash()``).
    /// Hexadecimal case does not matter.
    ///
    /// - Throws: ``MBTilesError/sqlite(_:)``, ``MBTilesError/corrupt(path:reason:)``.
    public func checkAggregateTilesHash() throws(MBTilesError) -> MBTilesAggregateHashCheck {
        let rows = try metadataRows()
        if let algorithm = rows[Self.hashAlgorithmKey], algorithm.lowercased() != "md5" {
            return .unsupportedAlgorithm(algorithm)
        }
        let computed = try aggregateTilesHash()
        guard let stored = rows[Self.aggregateTilesHashKey] else { return .missing(computed: computed) }
        return stored.uppercased() == computed
            ? .matches(hash: computed) : .mismatch(stored: stored, computed: computed)
    }

    /// Computes `agg_tiles_hash` and stores it in the metadata.
    ///
    /// - Returns: The hash.
    /// - Throws: ``MBTilesError/readOnly(path:reason:)``, ``MBTilesError/sqlite(_:)``.
    @discardableResult
    public func updateAggregateTilesHash() throws(MBTilesError) -> String {
        let hash = try aggregateTilesHash()
        try setMetadataValue(hash, forKey: Self.aggregateTilesHashKey)
        return hash
    }
}
