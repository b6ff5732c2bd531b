import Foundation
import MapSQLite
import TileSources

/// What ``MBTilesStore/validate(maximumIntegrityProblems:)`` found: `tiles validate`'s report.
public struct MBTilesValidation: Hashable, Sendable {
    /// The file.
    public var path: String
    /// The file's layout.
    public var schema: MBTilesSchema
    /// What SQLite's `PRAGMA integrity_check` reported; empty when it said `ok`.
    public var integrityProblems: [String] = []
    /// The stored `agg_tiles_hash` against the tiles; nil when the tiles could not all be read.
    public var aggregateHash: MBTilesAggregateHashCheck?
    /// The metadata keys MBTiles 1.3 requires (`name`, `format`) that the file lacks.
    public var missingMetadataKeys: [String] = []
    /// Why a metadata value cannot be read (a malformed `bounds`…), or nil.
    public var metadataProblem: String?
    /// Rows of `tiles` whose address is outside the tile grid.
    public var invalidAddressCount = 0
    /// Normalized layout: rows of `map` whose image is missing, tiles the `tiles` view hides.
    public var danglingTileCount = 0
    /// Normalized layout: ids of images whose bytes do not have that MD5 (at most 10).
    public var mismatchedImageIDs: [String] = []
    /// Normalized layout: images no tile uses (space ``MBTilesStore/removeUnusedImages()`` frees).
    public var unusedImageCount = 0
    /// Why the tiles could not all be read, when they could not.
    public var readFailure: String?

    /// The findings that make the file invalid, one line each.
    public var problems: [String] {
        var lines = integrityProblems.map { "integrity_check: \($0)" }
        if let readFailure { lines.append("cannot read every tile: \(readFailure)") }
        switch aggregateHash {
        case .mismatch(let stored, let computed)?:
            lines.append("agg_tiles_hash is \(stored) but the tiles hash to \(computed)")
        case .unsupportedAlgorithm(let algorithm)?:
            lines.append(
                "agg_tiles_hash uses the hash algorithm '\(algorithm)', which cannot be checked (only MD5 can)")
        default:
            break
        }
        if !missingMetadataKeys.isEmpty {
            lines.append(
                "metadata lacks \(missingMetadataKeys.map { "`\($0)`" }.joined(separator: " and ")), which MBTiles 1.3 requires"
            )
        }
        if let metadataProblem { lines.append(metadataProblem) }
        if invalidAddressCount > 0 {
            lines.append("\(invalidAddressCount) tile(s) have an address outside the tile grid")
        }
        if danglingTileCount > 0 { lines.append("\(danglingTileCount) tile(s) in `map` refer to a missing image") }
        if !mismatchedImageIDs.isEmpty {
            lines.append(
                "images whose bytes do not have their MD5 tile_id: \(mismatchedImageIDs.joined(separator: ", "))")
        }
        return lines
    }

    /// Findings that do not make the file invalid, one line each.
    public var warnings: [String] {
        var lines: [String] = []
        if case .missing(let computed)? = aggregateHash {
            lines.append("no agg_tiles_hash in the metadata (the tiles hash to \(computed))")
        }
        if unusedImageCount > 0 { lines.append("\(unusedImageCount) image(s) are used by no tile") }
        return lines
    }

    /// Whether the file passed every check.
    public var isValid: Bool { problems.isEmpty }
}

extension MBTilesStore {
    /// Checks the file: SQLite's `PRAGMA integrity_check`; `agg_tiles_hash` against the tiles
    /// (as martin's `mbtiles validate` does); the required metadata; tile addresses within the
    /// grid; and, in the normalized layout, that every tile's image exists and every image's id is
    /// the MD5 of its bytes. Reads the whole file. A damaged file is reported, not thrown.
    ///
    /// - Parameter maximumIntegrityProblems: The most messages `integrity_check` gathers. The default is 100.
    /// - Throws: ``MBTilesError`` when the file cannot be read at all.
    public func validate(maximumIntegrityProblems: Int = 100) throws(MBTilesError) -> MBTilesValidation {
        var report = MBTilesValidation(path: path, schema: schema)
        do {
            report.integrityProblems = try readers.withReader { reader in
                var messages: [String] = []
                try reader.database.prepare("PRAGMA integrity_check(\(max(1, maximumIntegrityProblems)))").forEachRow {
                    row in
                    messages.append(row.text(at: 0) ?? "")
                }
                return messages == ["ok"] ? [] : messages
            }
        } catch let error where error.isDamage {
            // Damage SQLite meets before it can list any.
            report.integrityProblems = [error.description]
        }
        do {
            let rows = try metadataRows()
            report.missingMetadataKeys = ["name", "format"].filter { (rows[$0] ?? "").isEmpty }
            do {
                _ = try TileMetadata(rows: rows, path: path)
            } catch {
                report.metadataProblem = error.description
            }
            report.aggregateHash = try checkAggregateTilesHash()
            report.invalidAddressCount = try countRows(
                """
                SELECT count(*) FROM tiles WHERE zoom_level NOT BETWEEN 0 AND 30 \
                OR tile_column NOT BETWEEN 0 AND (1 << zoom_level) - 1 OR tile_row NOT BETWEEN 0 AND (1 << zoom_level) - 1
                """)
            if schema == .normalized {
                report.danglingTileCount = try countRows(
                    "SELECT count(*) FROM map WHERE NOT EXISTS (SELECT 1 FROM images WHERE images.tile_id = map.tile_id)"
                )
                report.unusedImageCount = try countRows(
                    "SELECT count(*) FROM images WHERE tile_id NOT IN (SELECT tile_id FROM map WHERE tile_id IS NOT NULL)"
                )
                if case .unsupportedAlgorithm? = report.aggregateHash {
                } else {
                    report.mismatchedImageIDs = try imagesWithWrongIDs(limit: 10)
                }
            }
        } catch let error where error.isDamage {
            report.readFailure = error.description
        }
        return report
    }

    private func countRows(_ sql: String) throws(MBTilesError) -> Int {
        try readers.withReader { reader in
            try reader.withStatement(sql) { statement in
                try statement.step()
                return Int(statement.int64(at: 0))
            }
        }
    }

    /// Ids of images whose bytes do not hash to them (case-insensitive), up to `limit`.
    private func imagesWithWrongIDs(limit: Int) throws(MBTilesError) -> [String] {
        try readers.withReader { reader in
            var wrong: [String] = []
            let statement = try reader.database.prepare("SELECT tile_id, tile_data FROM images")
            while wrong.count < limit, try statement.step() {
                let id = statement.text(at: 0) ?? ""
                if Self.imageID(of: statement.data(at: 1) ?? Data()) != id.uppercased() { wrong.append(id) }
            }
            return wrong
        }
    }
}

extension MBTilesError {
    /// Whether the error says the file is damaged, which validation reports rather than throws.
    var isDamage: Bool {
        switch self {
        case .corrupt, .invalidTileAddress: true
        case .sqlite(let error): error.primaryResultCode == 11 || error.primaryResultCode == 26
        default: false
        }
    }
}
