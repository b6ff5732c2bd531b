public import Foundation
import MapCore
import MapSQLite
import MapUtilities
import PhotoSources
import Synchronization

/// Photographers and their photos, kept in one SQLite file, as Photomania keeps them: what
/// `mapwright photos` edits and `render`, `tiles export` and `serve` read with `--library`.
///
/// The file holds two tables: `photographers` (`name`, `is_user`: the library's owner, at most
/// one) and `photos` (`id`, unique; `title`, `subtitle`, `latitude`, `longitude`, `altitude`,
/// `horizontal_accuracy`, `taken_at` as ISO 8601, the photographer, `image` and `thumbnail` as
/// absolute paths or URLs), indexed by photographer and by latitude and longitude (bounding-box
/// queries). Images that ``add(_:userName:)`` copies live in the library's folder,
/// ``photoFolder`` (`NAME.photos/` beside `NAME.sqlite`), under UUID names, and are stored by
/// name alone (resolved in ``photoFolder`` when read): a library copied or moved with its folder
/// keeps working and removes only its own files.
///
/// **Versions.** The schema is versioned in SQLite's `user_version`, and the file is marked as a
/// library in `application_id` ("MWPL"). Opening a library of an older version upgrades it in
/// place, every step in one transaction (``migrations``): an interrupted upgrade leaves the old
/// version whole. A library of a newer version is refused, unmodified; a SQLite file that is not
/// a library is refused too. The project's own SQLite layer (MapSQLite, as the tile stores use)
/// does this in a few lines; GRDB's `DatabaseMigrator` would bring a second SQLite layer for the
/// same job.
///
/// **Concurrency.** Writes go through one connection in WAL mode, so readers (a running `serve`)
/// read the last committed state while `photos add` writes. One `PhotoLibrary` may be used from
/// several threads: its calls take turns.
public final class PhotoLibrary: Sendable {
    /// The library file.
    public let file: URL
    /// The folder the images copied by ``add(_:userName:)`` go into: the file's path without its
    /// extension, plus `.photos`.
    public var photoFolder: URL {
        file.deletingPathExtension().appendingPathExtension("photos")
    }

    let database: Database
    let lock = Mutex(())

    /// "MWPL", the library's `application_id`.
    static let applicationID: Int32 = 0x4D57_504C

    /// The file a library lives in when none is named: `$XDG_DATA_HOME/mapwright/library.sqlite`
    /// (`~/.local/share/mapwright/library.sqlite` by default).
    public static func defaultFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        UserDirectories(environment: environment).userDataDirectory.appendingPathComponent("library.sqlite")
    }

    /// Opens a library, creating it when `create` is set and the file is missing, and upgrading an
    /// older one in place.
    ///
    /// - Parameters:
    ///   - file: The library file.
    ///   - create: Whether a missing file is created (with its folder). The default is `true`.
    ///   - readOnly: Opens for reading only: nothing is created or upgraded (an older library is
    ///     refused with a message saying to open it once for writing). The default is `false`.
    /// - Throws: ``PhotoLibraryError``: ``PhotoLibraryError/newerLibrary(file:version:newestKnown:)``,
    ///   ``PhotoLibraryError/notALibrary(file:reason:)``, or a database error naming the file.
    public init(file: URL, create: Bool = true, readOnly: Bool = false) throws(PhotoLibraryError) {
        self.file = file
        let exists = FileManager.default.fileExists(atPath: file.path)
        if !exists {
            guard create, !readOnly else {
                throw .database(
                    file: file, reason: "no such library (create one with `mapwright photos import` or `photos add`)")
            }
            do {
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw .database(file: file, reason: "cannot create its folder: \(error.localizedDescription)")
            }
        }
        do {
            database = try Database(
                path: file.path, mode: readOnly ? .readOnly : (exists ? .readWrite : .readWriteCreate))
        } catch {
            throw .sqlite(error, file: file)
        }
        try checkAndMigrate(readOnly: readOnly)
    }

    /// Runs `body` on the connection, one call at a time, SQLite's errors named by the file.
    func withDatabase<T>(_ body: (Database) throws -> T) throws(PhotoLibraryError) -> T {
        do {
            return try lock.withLock { _ in try body(database) }
        } catch let error as PhotoLibraryError {
            throw error
        } catch let error as SQLiteError {
            throw .sqlite(error, file: file)
        } catch {
            throw .database(file: file, reason: "\(error)")
        }
    }

    /// A number that changes whenever another connection (another process's `photos add`)
    /// commits a change to the library: SQLite's `PRAGMA data_version`. Cheap: it reads the
    /// WAL index in shared memory, not the tables.
    public func dataVersion() throws(PhotoLibraryError) -> Int64 {
        try withDatabase { database in
            let statement = try database.prepare("PRAGMA data_version")
            _ = try statement.step()
            return statement.int64(at: 0)
        }
    }
}
