public import Foundation
import ImageCodec
public import MapCore
import MapSQLite
import MapUtilities
public import PhotoSources

extension PhotoLibrary {
    /// What an import did.
    public struct ImportSummary: Hashable, Sendable {
        /// Photos whose id was new.
        public var added = 0
        /// Photos whose id was there, with some field changed.
        public var updated = 0
        /// Photos whose id was there with the same fields: nothing written.
        public var unchanged = 0

        public init(added: Int = 0, updated: Int = 0, unchanged: Int = 0) {
            self.added = added
            self.updated = updated
            self.unchanged = unchanged
        }
    }

    /// Adds photos, or updates those whose id the library holds: importing the same source twice
    /// changes nothing the second time. One transaction; photographers are added as they come.
    /// Photos the library copied in (``add(_:userName:)``) keep their files.
    ///
    /// - Returns: How many were added, updated and unchanged.
    public func importPhotos(_ photos: [Photo]) throws(PhotoLibraryError) -> ImportSummary {
        try withDatabase { database in
            // A large cache keeps the indexes' pages in memory instead of spilling them to the WAL
            // again and again; it is given back afterwards.
            try database.execute("PRAGMA cache_size = -\(Self.importCacheKibibytes)")
            defer { try? database.execute("PRAGMA cache_size = -2000") }
            return try database.inTransaction {
                let before = try Self.count(in: database)
                // Many photos into few: the secondary indexes are built once, sorted, at the end.
                let rebuildsIndexes = photos.count >= Self.indexRebuildThreshold && photos.count > before
                if rebuildsIndexes {
                    for (name, _) in Self.secondaryIndexes { try database.execute("DROP INDEX IF EXISTS \(name)") }
                }
                var photographerIDs: [String: Int64] = [:]
                let upsert = try database.prepare(
                    """
                    INSERT INTO photos (id, title, subtitle, latitude, longitude, altitude, horizontal_accuracy, taken_at, photographer_id, image, thumbnail)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                    ON CONFLICT (id) DO UPDATE SET
                        title = excluded.title, subtitle = excluded.subtitle, latitude = excluded.latitude, longitude = excluded.longitude,
                        altitude = excluded.altitude, horizontal_accuracy = excluded.horizontal_accuracy, taken_at = excluded.taken_at,
                        photographer_id = excluded.photographer_id, image = excluded.image, thumbnail = excluded.thumbnail
                    WHERE photos.title IS NOT excluded.title OR photos.subtitle IS NOT excluded.subtitle
                        OR photos.latitude IS NOT excluded.latitude OR photos.longitude IS NOT excluded.longitude
                        OR photos.altitude IS NOT excluded.altitude OR photos.horizontal_accuracy IS NOT excluded.horizontal_accuracy
                        OR photos.taken_at IS NOT excluded.taken_at OR photos.photographer_id IS NOT excluded.photographer_id
                        OR photos.image IS NOT excluded.image OR photos.thumbnail IS NOT excluded.thumbnail
                    """)
                var written = 0
                for photo in photos {
                    var photographerID: SQLiteValue = .null
                    if let name = photo.photographer {
                        if let id = photographerIDs[name] {
                            photographerID = .integer(id)
                        } else {
                            let id = try Self.photographerID(named: name, in: database)
                            photographerIDs[name] = id
                            photographerID = .integer(id)
                        }
                    }
                    try Self.bind(photo, photographerID: photographerID, to: upsert)
                    _ = try upsert.step()
                    upsert.reset()
                    written += database.changes
                }
                if rebuildsIndexes {
                    for (_, sql) in Self.secondaryIndexes { try database.execute(sql) }
                }
                let added = try Self.count(in: database) - before
                return ImportSummary(added: added, updated: written - added, unchanged: photos.count - written)
            }
        }
    }

    /// The page cache an import works with, in KiB: 256 MiB.
    static let importCacheKibibytes = 262_144
    /// From how many photos an import into a smaller library drops the secondary indexes and
    /// builds them again at the end: 50,000.
    static let indexRebuildThreshold = 50_000
    /// The current schema's indexes on `photos` besides its primary key, as ``migrations`` make them.
    static let secondaryIndexes: [(name: String, sql: String)] = [
        ("photos_by_photographer", "CREATE INDEX photos_by_photographer ON photos (photographer_id)"),
        ("photos_by_location", "CREATE INDEX photos_by_location ON photos (latitude, longitude)"),
    ]

    static func bind(_ photo: Photo, photographerID: SQLiteValue, to statement: Statement) throws {
        func optional(_ value: Double?) -> SQLiteValue { value.map { .real($0) } ?? .null }
        func optional(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
        try statement.bind([
            .text(photo.id), optional(photo.title), optional(photo.subtitle),
            .real(photo.coordinate.latitude), .real(photo.coordinate.longitude),
            optional(photo.altitudeMeters), optional(photo.horizontalAccuracyMeters),
            optional(photo.dateTaken.map { dateFormatter.string(from: $0) }), photographerID,
            optional(photo.storedImage), optional(photo.storedThumbnail),
        ])
    }

    static func count(in database: Database) throws -> Int {
        let statement = try database.prepare("SELECT count(*) FROM photos")
        _ = try statement.step()
        return Int(statement.int64(at: 0))
    }

    /// The id of the photographer with this name, case ignored (ASCII letters, as SQLite's
    /// `NOCASE`; the exact spelling wins when both are there), added with this spelling when missing.
    static func photographerID(named name: String, isUser: Bool = false, in database: Database) throws -> Int64 {
        try photographer(named: name, isUser: isUser, in: database).id
    }

    /// ``photographerID(named:isUser:in:)`` with the name as stored.
    static func photographer(named name: String, isUser: Bool = false, in database: Database) throws -> (
        id: Int64, name: String
    ) {
        let find = try database.prepare(Self.photographerNamed)
        try find.bind([.text(name)])
        if try find.step() { return (find.int64(at: 0), find.text(at: 1) ?? name) }
        try database.execute(
            "INSERT INTO photographers (name, is_user) VALUES (?, ?)",
            arguments: [.text(name), .integer(isUser ? 1 : 0)])
        return (database.lastInsertedRowID, name)
    }

    /// The photographer named `?1`, case ignored, the exact spelling first: its id and name.
    static let photographerNamed =
        "SELECT id, name FROM photographers WHERE name = ?1 COLLATE NOCASE ORDER BY name = ?1 DESC, id LIMIT 1"

    // MARK: - Adding one photo

    /// A photo to add, as Photomania's add-photo screen takes it.
    public struct NewPhoto: Sendable {
        /// The image file: a JPEG. Required.
        public var image: URL?
        /// The title; required, not blank.
        public var title: String
        /// A second line; optional.
        public var subtitle: String?
        /// Where it was taken; `nil` takes the image's EXIF GPS position. A place given here
        /// drops the EXIF's altitude and horizontal accuracy (they were measured elsewhere).
        public var coordinate: Coordinate?
        /// Whose it is; `nil` is the library's user.
        public var photographer: String?

        public init(
            image: URL?, title: String, subtitle: String? = nil, coordinate: Coordinate? = nil,
            photographer: String? = nil
        ) {
            self.image = image
            self.title = title
            self.subtitle = subtitle
            self.coordinate = coordinate
            self.photographer = photographer
        }
    }

    /// The side of the thumbnail ``add(_:userName:)`` writes beside the image, in pixels: a
    /// 92-point callout thumbnail at @2x.
    public static let thumbnailPixels = 184

    /// Adds one photo: checks it, copies its image into ``photoFolder`` under a new UUID name
    /// (written to a temporary file and renamed) with a JPEG thumbnail beside it
    /// (`UUID.thumbnail.jpg`, ``thumbnailPixels`` square), then records it. The checks run in
    /// this order and the first failure wins, with nothing written: an image is required (and
    /// must be a readable JPEG), then a title, then a location (given, else the image's EXIF;
    /// never 0, 0 by default).
    ///
    /// - Parameters:
    ///   - new: The photo.
    ///   - userName: The name the library's user gets when the library has none yet and the
    ///     photo names no photographer.
    /// - Returns: The photo as stored; its id is the new UUID.
    public func add(_ new: NewPhoto, userName: String) throws(PhotoLibraryError) -> Photo {
        try add(try Self.prepare(new), userName: userName)
    }

    /// A photo checked and ready to add: what ``prepare(_:)`` makes without touching any library.
    public struct PreparedPhoto: Sendable {
        let new: NewPhoto
        let image: URL
        let title: String
        let coordinate: Coordinate
        let facts: JPEGFolderSource.FileFacts
        let thumbnailData: Data
    }

    /// Checks a photo as ``add(_:userName:)`` does (image, then title, then location; the image
    /// must be a whole JPEG: one cut short, without its end marker, is refused) and makes its
    /// thumbnail, writing nothing anywhere: so a command can refuse bad input before it opens,
    /// or creates, a library.
    public static func prepare(_ new: NewPhoto) throws(PhotoLibraryError) -> PreparedPhoto {
        guard let image = new.image else { throw .imageRequired }
        let facts: JPEGFolderSource.FileFacts
        do { facts = try JPEGFolderSource.facts(ofJPEG: image) } catch {
            switch error {
            case .unreadable(_, let reason): throw .unreadableImage(file: image, reason: "cannot be read: \(reason)")
            case .malformed(_, let reason):
                throw .unreadableImage(file: image, reason: "is not a JPEG photo: \(reason)")
            default: throw .unreadableImage(file: image, reason: error.description)
            }
        }
        let title = new.title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw .titleRequired }
        guard let coordinate = new.coordinate ?? facts.coordinate else { throw .locationRequired(image: image) }

        // The thumbnail: an image libjpeg-turbo cannot decode stops here, before any file is written.
        let thumbnailData: Data
        do {
            let data = try Data(readingFile: image, mapped: true)
            guard Self.endsWithEndOfImage(data) else {
                throw PhotoLibraryError.unreadableImage(
                    file: image, reason: "is cut short: the JPEG has no end-of-image marker")
            }
            let square = try Thumbnail(jpegData: data, file: image, pixelSize: Self.thumbnailPixels)
            thumbnailData = try RGBAImage(width: square.width, height: square.height, pixels: square.rgba).jpegData(
                quality: 85)
        } catch let error as PhotoLibraryError {
            throw error
        } catch let error as PhotoSourceError {
            if case .undecodableImage(_, let reason) = error {
                throw .unreadableImage(file: image, reason: "cannot be decoded as a JPEG: \(reason)")
            }
            throw .unreadableImage(file: image, reason: error.description)
        } catch {
            throw .unreadableImage(file: image, reason: "cannot be decoded as a JPEG: \(error)")
        }
        return PreparedPhoto(
            new: new, image: image, title: title, coordinate: coordinate, facts: facts, thumbnailData: thumbnailData)
    }

    /// Whether JPEG bytes end with the end-of-image marker FF D9, allowing the padding some
    /// cameras write after it (zero bytes, up to 64 KiB).
    static func endsWithEndOfImage(_ data: Data) -> Bool {
        var end = data.endIndex
        let limit = max(data.startIndex, data.endIndex - 65_536)
        while end > limit, data[end - 1] == 0 { end -= 1 }
        return end - data.startIndex >= 4 && data[end - 2] == 0xFF && data[end - 1] == 0xD9
    }

    /// Adds a photo checked by ``prepare(_:)``: see ``add(_:userName:)``.
    public func add(_ prepared: PreparedPhoto, userName: String) throws(PhotoLibraryError) -> Photo {
        let new = prepared.new
        let image = prepared.image
        let title = prepared.title
        let coordinate = prepared.coordinate
        let facts = prepared.facts
        let thumbnailData = prepared.thumbnailData
        let id = UUID().uuidString.lowercased()
        let folder = photoFolder
        let imageFile = folder.appendingPathComponent("\(id).jpg")
        let thumbnailFile = folder.appendingPathComponent("\(id).thumbnail.jpg")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.copyAtomically(image, to: imageFile)
            try AtomicFile.write(thumbnailData, to: thumbnailFile)
        } catch {
            try? FileManager.default.removeItem(at: imageFile)
            throw .unwritableFolder(
                folder, reason: (error as? MapUtilitiesError)?.description ?? error.localizedDescription)
        }
        // A place given with --at is not where the EXIF's altitude and accuracy were measured.
        let exifPlace = new.coordinate == nil
        let photo = Photo(
            id: id, title: title, subtitle: new.subtitle, coordinate: coordinate,
            altitudeMeters: exifPlace ? facts.altitudeMeters : nil,
            horizontalAccuracyMeters: exifPlace ? facts.horizontalAccuracyMeters : nil, dateTaken: facts.dateTaken,
            photographer: nil,
            storedImage: imageFile.lastPathComponent, storedThumbnail: thumbnailFile.lastPathComponent)
        do {
            return try withDatabase { database in
                try database.inTransaction {
                    let photographerID: Int64
                    let photographerName: String
                    if let name = new.photographer?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty {
                        (photographerID, photographerName) = try Self.photographer(named: name, in: database)
                    } else {
                        (photographerID, photographerName) = try Self.user(named: userName, in: database)
                    }
                    let insert = try database.prepare(
                        """
                        INSERT INTO photos (id, title, subtitle, latitude, longitude, altitude, horizontal_accuracy, taken_at, photographer_id, image, thumbnail)
                        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                        """)
                    try Self.bind(photo, photographerID: .integer(photographerID), to: insert)
                    _ = try insert.step()
                    try database.execute("UPDATE photos SET owns_files = 1 WHERE id = ?", arguments: [.text(id)])
                    return Photo(
                        id: id, title: photo.title, subtitle: photo.subtitle, coordinate: coordinate,
                        altitudeMeters: photo.altitudeMeters,
                        horizontalAccuracyMeters: photo.horizontalAccuracyMeters, dateTaken: photo.dateTaken,
                        photographer: photographerName,
                        storedImage: imageFile.path, storedThumbnail: thumbnailFile.path)
                }
            }
        } catch {
            try? FileManager.default.removeItem(at: imageFile)
            try? FileManager.default.removeItem(at: thumbnailFile)
            throw error
        }
    }

    /// The library's user (id and name), made with `name` when there is none.
    static func user(named name: String, in database: Database) throws -> (Int64, String) {
        let find = try database.prepare("SELECT id, name FROM photographers WHERE is_user = 1")
        if try find.step() { return (find.int64(at: 0), find.text(at: 1) ?? name) }
        let existing = try database.prepare(Self.photographerNamed)
        try existing.bind([.text(name)])
        if try existing.step() {
            let id = existing.int64(at: 0)
            try database.execute("UPDATE photographers SET is_user = 1 WHERE id = ?", arguments: [.integer(id)])
            return (id, existing.text(at: 1) ?? name)
        }
        return (try photographerID(named: name, isUser: true, in: database), name)
    }

    /// Copies a file to a temporary name beside `destination`, then renames it into place.
    static func copyAtomically(_ source: URL, to destination: URL) throws {
        let temporary = AtomicFile.temporaryURL(for: destination)
        do {
            try FileManager.default.copyItem(at: source, to: temporary)
            try AtomicFile.replace(destination, with: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    // MARK: - Removing and moving

    /// Removes a photo; the image and thumbnail files the library copied in go with it (files
    /// it only points to are left alone, and so is any file outside ``photoFolder``: a library
    /// copied elsewhere never deletes the original's files).
    ///
    /// - Returns: The photo as it was.
    /// - Throws: ``PhotoLibraryError/noSuchPhoto(id:file:)``.
    @discardableResult
    public func remove(id: String) throws(PhotoLibraryError) -> Photo {
        let file = self.file
        let folder = photoFolder.path
        let (photo, ownsFiles) = try withDatabase { database in
            try database.inTransaction {
                let statement = try database.prepare(
                    "SELECT \(Self.photoColumns) FROM \(Self.photoSource) WHERE p.id = ?")
                try statement.bind([.text(id)])
                guard try statement.step(), let photo = Self.photo(from: statement, folder: folder) else {
                    throw PhotoLibraryError.noSuchPhoto(id: id, file: file)
                }
                let owns = statement.int64(at: 11) == 1
                try database.execute("DELETE FROM photos WHERE id = ?", arguments: [.text(id)])
                return (photo, owns)
            }
        }
        if ownsFiles {
            let inside = URL(fileURLWithPath: folder).standardizedFileURL.path + "/"
            for stored in [photo.storedImage, photo.storedThumbnail].compactMap({ $0 }) {
                let path = URL(fileURLWithPath: stored).standardizedFileURL.path
                if path.hasPrefix(inside) { try? FileManager.default.removeItem(atPath: path) }
            }
        }
        return photo
    }

    /// Moves a photo to another place.
    ///
    /// - Returns: The photo as it was before.
    /// - Throws: ``PhotoLibraryError/noSuchPhoto(id:file:)``.
    @discardableResult
    public func setLocation(id: String, to coordinate: Coordinate) throws(PhotoLibraryError) -> Photo {
        let file = self.file
        let folder = photoFolder.path
        return try withDatabase { database in
            try database.inTransaction {
                guard let photo = try Self.photo(id: id, in: database, folder: folder) else {
                    throw PhotoLibraryError.noSuchPhoto(id: id, file: file)
                }
                try database.execute(
                    "UPDATE photos SET latitude = ?, longitude = ? WHERE id = ?",
                    arguments: [.real(coordinate.latitude), .real(coordinate.longitude), .text(id)])
                return photo
            }
        }
    }
}
