import Foundation
public import MapCore
import MapSQLite
public import PhotoSources

/// A photographer in a library, with how many photos they have there.
public struct LibraryPhotographer: Hashable, Sendable, Codable {
    /// The name, as the photos give it.
    public var name: String
    /// Whether this is the library's owner (Photomania's "user"): the photographer `photos add`
    /// gives new photos by default.
    public var isUser: Bool
    /// How many photos of the library are theirs.
    public var photoCount: Int

    public init(name: String, isUser: Bool, photoCount: Int) {
        self.name = name
        self.isUser = isUser
        self.photoCount = photoCount
    }
}

extension PhotoLibrary {
    /// The columns every photo query reads, in the order ``photo(from:)`` reads them.
    static let photoColumns = """
        p.id, p.title, p.subtitle, p.latitude, p.longitude, p.altitude, p.horizontal_accuracy, p.taken_at, g.name, p.image, p.thumbnail,
        p.owns_files
        """
    static let photoSource = "photos p LEFT JOIN photographers g ON g.id = p.photographer_id"
    /// The order photos are listed in: by title (the callout's title: the subtitle or "Untitled"
    /// stands in for a missing one), case ignored, then by id.
    static let titleOrder = "coalesce(p.title, p.subtitle, '\(Photo.untitled)') COLLATE NOCASE, p.id"

    /// A row of ``photoColumns`` as a photo, the files the library owns (stored by name) resolved
    /// in `folder`, ``photoFolder``'s path.
    static func photo(from row: Statement, folder: String) -> Photo? {
        guard let id = row.text(at: 0),
            let coordinate = try? Coordinate(latitude: row.double(at: 3), longitude: row.double(at: 4))
        else { return nil }
        var image = row.text(at: 9)
        var thumbnail = row.text(at: 10)
        if row.int64(at: 11) == 1 {
            image = image.map { ownedPath($0, folder: folder) }
            thumbnail = thumbnail.map { ownedPath($0, folder: folder) }
        }
        return Photo(
            id: id, title: row.text(at: 1), subtitle: row.text(at: 2), coordinate: coordinate,
            altitudeMeters: row.isNull(at: 5) ? nil : row.double(at: 5),
            horizontalAccuracyMeters: row.isNull(at: 6) ? nil : row.double(at: 6),
            dateTaken: row.text(at: 7).flatMap { Self.dateFormatter.date(from: $0) },
            photographer: row.text(at: 8), storedImage: image, storedThumbnail: thumbnail)
    }

    /// An owned file as stored, resolved: a name is in `folder`; an absolute path (a library of
    /// version 2 whose file lay elsewhere) stays as it is.
    static func ownedPath(_ stored: String, folder: String) -> String {
        stored.hasPrefix("/") ? stored : folder + "/" + stored
    }

    /// Every row a statement of ``photoColumns`` gives, as photos.
    static func photos(from statement: Statement, folder: String) throws -> [Photo] {
        var photos: [Photo] = []
        while try statement.step() { if let photo = photo(from: statement, folder: folder) { photos.append(photo) } }
        return photos
    }

    /// The photo with an id, read on `database`, or nil.
    static func photo(id: String, in database: Database, folder: String) throws -> Photo? {
        let statement = try database.prepare("SELECT \(photoColumns) FROM \(photoSource) WHERE p.id = ?")
        try statement.bind([.text(id)])
        return try statement.step() ? photo(from: statement, folder: folder) : nil
    }

    nonisolated(unsafe) static let dateFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }()

    /// Every photo, or one photographer's, in the order they were first added.
    ///
    /// - Parameter photographer: Only this photographer's photos (the name as stored, case
    ///   ignored); `nil` for all. A name no photo has gives none.
    public func photos(byPhotographer photographer: String? = nil) throws(PhotoLibraryError) -> [Photo] {
        let folder = photoFolder.path
        return try withDatabase { database in
            var sql = "SELECT \(Self.photoColumns) FROM \(Self.photoSource)"
            var arguments: [SQLiteValue] = []
            if let photographer {
                sql +=
                    " WHERE p.photographer_id = (SELECT id FROM photographers WHERE name = ? COLLATE NOCASE ORDER BY name = ? DESC LIMIT 1)"
                arguments = [.text(photographer), .text(photographer)]
            }
            sql += " ORDER BY p.rowid"
            let statement = try database.prepare(sql)
            try statement.bind(arguments)
            return try Self.photos(from: statement, folder: folder)
        }
    }

    /// The photos inside a bounding box (west greater than east crosses the antimeridian),
    /// through the index by latitude and longitude, by title.
    public func photos(in box: BoundingBox) throws(PhotoLibraryError) -> [Photo] {
        let folder = photoFolder.path
        return try withDatabase { database in
            let longitude =
                box.west <= box.east ? "p.longitude BETWEEN ?3 AND ?4" : "(p.longitude >= ?3 OR p.longitude <= ?4)"
            let statement = try database.prepare(
                "SELECT \(Self.photoColumns) FROM \(Self.photoSource) WHERE p.latitude BETWEEN ?1 AND ?2 AND \(longitude) ORDER BY \(Self.titleOrder)"
            )
            try statement.bind([.real(box.south), .real(box.north), .real(box.west), .real(box.east)])
            return try Self.photos(from: statement, folder: folder)
        }
    }

    /// One photo by id, or `nil`.
    public func photo(id: String) throws(PhotoLibraryError) -> Photo? {
        let folder = photoFolder.path
        return try withDatabase { database in try Self.photo(id: id, in: database, folder: folder) }
    }

    /// How many photos the library holds.
    public func photoCount() throws(PhotoLibraryError) -> Int {
        try withDatabase { database in
            let statement = try database.prepare("SELECT count(*) FROM photos")
            _ = try statement.step()
            return Int(statement.int64(at: 0))
        }
    }

    /// The photographers in listing order: the user first, then by name (case ignored), each with
    /// their number of photos. Photographers without photos are left out, but for the user.
    public func photographers() throws(PhotoLibraryError) -> [LibraryPhotographer] {
        try withDatabase { database in
            let statement = try database.prepare(
                """
                SELECT g.name, g.is_user, (SELECT count(*) FROM photos p WHERE p.photographer_id = g.id) AS n
                FROM photographers g WHERE g.is_user = 1 OR n > 0 ORDER BY g.is_user DESC, g.name COLLATE NOCASE, g.name
                """)
            var result: [LibraryPhotographer] = []
            while try statement.step() {
                result.append(
                    LibraryPhotographer(
                        name: statement.text(at: 0) ?? "", isUser: statement.int64(at: 1) == 1,
                        photoCount: Int(statement.int64(at: 2))))
            }
            return result
        }
    }

    /// The library as `photos list` shows it: a section per photographer in ``photographers()``'s
    /// order (the user first, then by name), photos sorted by title within each, and last the
    /// photos of no known photographer (`photographer` nil).
    ///
    /// - Parameter photographer: Only this photographer's section (case ignored).
    public func sections(photographer: String? = nil) throws(PhotoLibraryError) -> [(
        photographer: LibraryPhotographer?, photos: [Photo]
    )] {
        var sections: [(photographer: LibraryPhotographer?, photos: [Photo])] = []
        for person in try photographers() {
            if let photographer, person.name.caseInsensitiveCompare(photographer) != .orderedSame { continue }
            sections.append((person, try sortedPhotos(where: "g.name = ?", [.text(person.name)])))
        }
        if photographer == nil {
            let unknown = try sortedPhotos(where: "p.photographer_id IS NULL", [])
            if !unknown.isEmpty { sections.append((nil, unknown)) }
        }
        return sections
    }

    private func sortedPhotos(where condition: String, _ arguments: [SQLiteValue]) throws(PhotoLibraryError) -> [Photo]
    {
        let folder = photoFolder.path
        return try withDatabase { database in
            let statement = try database.prepare(
                "SELECT \(Self.photoColumns) FROM \(Self.photoSource) WHERE \(condition) ORDER BY \(Self.titleOrder)")
            try statement.bind(arguments)
            return try Self.photos(from: statement, folder: folder)
        }
    }
}
