public import Foundation
import MapSQLite
public import MapUtilities

/// Why a photo library could not be opened, read or changed: one line naming the library file
/// (or the image, the photo id) and the problem in plain words.
public enum PhotoLibraryError: Error, Hashable, Sendable {
    /// The file is not a SQLite database, or is one that is not a photo library.
    case notALibrary(file: URL, reason: String)
    /// The library was written by a newer Mapwright: its schema version is above what this one reads.
    case newerLibrary(file: URL, version: Int, newestKnown: Int)
    /// SQLite failed.
    case database(file: URL, reason: String)
    /// `photos add` without an image.
    case imageRequired
    /// `photos add` with an empty title.
    case titleRequired
    /// `photos add` with neither a location given nor one in the image's EXIF.
    case locationRequired(image: URL)
    /// The image cannot be read, or is not a JPEG.
    case unreadableImage(file: URL, reason: String)
    /// The library's photo folder cannot be written.
    case unwritableFolder(URL, reason: String)
    /// No photo has this id.
    case noSuchPhoto(id: String, file: URL)
    /// A coordinate outside latitude [-90, 90] or longitude [-180, 180].
    case invalidCoordinate(latitude: Double, longitude: Double)
}

extension PhotoLibraryError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .notALibrary(let file, let reason):
            return "\(file.displayPath): is not a Mapwright photo library: \(reason)"
        case .newerLibrary(let file, let version, let newestKnown):
            return
                "\(file.displayPath): was written by a newer Mapwright (library version \(version); this one reads versions up to \(newestKnown)); it was left unchanged: upgrade Mapwright to use it"
        case .database(let file, let reason):
            return "\(file.displayPath): \(reason)"
        case .imageRequired:
            return "No photo taken: an image is required (--image FILE)"
        case .titleRequired:
            return "Title required (--title TITLE)"
        case .locationRequired(let image):
            return "no location: \(image.displayPath) has no GPS position in its EXIF; give one with --at LAT,LON"
        case .unreadableImage(let file, let reason):
            return "\(file.displayPath): \(reason)"
        case .unwritableFolder(let folder, let reason):
            return "\(folder.displayPath): cannot store the photo there: \(reason)"
        case .noSuchPhoto(let id, let file):
            return "no photo has the id '\(id)' in \(file.displayPath)"
        case .invalidCoordinate(let latitude, let longitude):
            return
                "\(latitude.formatted()),\(longitude.formatted()) is not a place: latitude must be from -90 to 90 and longitude from -180 to 180"
        }
    }

    public var errorDescription: String? { description }

    /// A SQLite error in plain words, naming the library.
    static func sqlite(_ error: SQLiteError, file: URL) -> PhotoLibraryError {
        switch error.primaryResultCode {
        case 26: return .notALibrary(file: file, reason: "it is not a SQLite database")  // SQLITE_NOTADB
        case 5, 6:
            return .database(
                file: file, reason: "the library is busy: another program holds it locked (\(error.message))")
        case 8: return .database(file: file, reason: "the library cannot be written (read-only file or folder)")
        case 14: return .database(file: file, reason: "cannot open the library: \(error.message)")
        default: return .database(file: file, reason: "\(error.message) (SQLite code \(error.resultCode))")
        }
    }
}

/// Bad input: exit status 2.
extension PhotoLibraryError: ExitStatusError {}
