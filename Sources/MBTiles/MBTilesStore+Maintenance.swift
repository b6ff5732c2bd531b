import Foundation
import MapSQLite

extension MBTilesStore {
    /// Deletes the images no tile refers to any more (in the normalized layout, a tile replaced by
    /// different bytes leaves its old image behind). Does nothing in other layouts.
    ///
    /// - Returns: The number of images deleted.
    /// - Throws: ``MBTilesError/readOnly(path:reason:)``, ``MBTilesError/sqlite(_:)``.
    @discardableResult
    public func removeUnusedImages() throws(MBTilesError) -> Int {
        let connection = try requireWritable()
        guard schema == .normalized else { return 0 }
        return try connection.withDatabase { database in
            // NOT IN builds one temporary index of the used ids; a correlated NOT EXISTS would scan
            // `map` (which has no index on tile_id) once per image.
            try database.execute(
                "DELETE FROM images WHERE tile_id NOT IN (SELECT tile_id FROM map WHERE tile_id IS NOT NULL)")
            return database.changes
        }
    }

    /// Copies the WAL's commits into the file and empties the WAL (`wal_checkpoint(TRUNCATE)`),
    /// so the file alone holds every tile; then, when asked, leaves WAL mode for a rollback
    /// journal (`journal_mode = DELETE`), which needs the file to itself: when other
    /// connections (a server's, another process's) have it open, the file quietly stays in WAL.
    ///
    /// - Throws: ``MBTilesError/readOnly(path:reason:)``, ``MBTilesError/sqlite(_:)``.
    public func checkpoint(switchingToRollbackJournal: Bool) throws(MBTilesError) {
        let connection = try requireWritable()
        readers.closeIdleConnections()
        try connection.withDatabase { database in
            // A reader mid-read keeps part of the WAL; what it keeps is checkpointed later.
            try database.execute("PRAGMA busy_timeout = 200")
            defer { try? database.execute("PRAGMA busy_timeout = 5000") }
            try database.prepare("PRAGMA wal_checkpoint(TRUNCATE)").step()
            guard switchingToRollbackJournal else { return }
            do {
                try database.prepare("PRAGMA journal_mode = DELETE").step()
            } catch let error as SQLiteError where error.primaryResultCode == 5 || error.primaryResultCode == 6 {
                // SQLITE_BUSY or SQLITE_LOCKED: someone else is reading; WAL stays.
            }
        }
    }
}
