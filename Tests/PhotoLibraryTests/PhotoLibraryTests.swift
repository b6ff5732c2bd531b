import Foundation
import ImageCodec
import MapCore
import MapSQLite
import MapTestSupport
import MapUtilities
import PhotoSources
import Testing

@testable import PhotoLibrary

/// The library file: its schema and upgrades, import by id, the listing order, adding with
/// Photomania's validation, removal with files, moves, bounding boxes, readers during writes.
struct PhotoLibraryTests {
    private static let samples = RepositoryFiles.samples.appendingPathComponent("photos")
    private static let elCapitan = samples.appendingPathComponent("ansel-adams/el-capitan.jpg")
    private static let noGPS = samples.appendingPathComponent("ansel-adams/darkroom-test-strip.jpg")

    private func photo(
        _ id: String, _ title: String?, _ latitude: Double, _ longitude: Double, by photographer: String? = nil
    ) throws -> Photo {
        Photo(
            id: id, title: title, coordinate: try Coordinate(latitude: latitude, longitude: longitude),
            photographer: photographer)
    }

    // MARK: - Schema

    /// The first schema version as Mapwright 1 wrote it, frozen here (not taken from
    /// ``PhotoLibrary/migrations``, so a later edit of migration 1 cannot hide a broken upgrade).
    static let firstVersionSQL = """
        CREATE TABLE photographers (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            is_user INTEGER NOT NULL DEFAULT 0 CHECK (is_user IN (0, 1))
        );
        CREATE TABLE photos (
            id TEXT NOT NULL PRIMARY KEY,
            title TEXT,
            subtitle TEXT,
            latitude REAL NOT NULL CHECK (latitude BETWEEN -90 AND 90),
            longitude REAL NOT NULL CHECK (longitude BETWEEN -180 AND 180),
            taken_at TEXT,
            photographer_id INTEGER REFERENCES photographers (id),
            image TEXT
        );
        CREATE INDEX photos_by_photographer ON photos (photographer_id);
        PRAGMA user_version = 1;
        PRAGMA application_id = 1297567820;
        """

    /// A file of schema version 1 made with ``firstVersionSQL`` and `rows`, in the rollback
    /// journal mode Mapwright 1 left it in.
    private func firstVersionLibrary(_ file: URL, rows: String) throws {
        let old = try Database(path: file.path, mode: .readWriteCreate)
        try old.execute(Self.firstVersionSQL)
        try old.execute(rows)
    }

    /// A library of the first schema version (what an older Mapwright wrote) opens in this one,
    /// upgraded in place with its rows kept; the new columns are empty and the new indexes
    /// exist. Version 1 allowed several users: the first stays the user, the others become
    /// photographers.
    @Test func aFirstVersionLibraryIsUpgradedInPlace() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("old.sqlite")
        try firstVersionLibrary(
            file,
            rows: """
                INSERT INTO photographers (name, is_user) VALUES ('Ansel Adams', 1), ('Dorothea Lange', 1);
                INSERT INTO photos (id, title, subtitle, latitude, longitude, taken_at, photographer_id, image)
                VALUES ('half-dome', 'Half Dome', 'Moonrise', 37.7459, -119.5332, '1960-01-01T00:00:00Z', 1, '/photos/half-dome.jpg');
                """)
        let library = try PhotoLibrary(file: file)
        #expect(try library.version() == PhotoLibrary.schemaVersion)
        #expect(PhotoLibrary.schemaVersion == 3)
        let upgraded = try #require(try library.photo(id: "half-dome"))
        #expect(
            upgraded.title == "Half Dome" && upgraded.subtitle == "Moonrise" && upgraded.photographer == "Ansel Adams")
        #expect(upgraded.coordinate == (try Coordinate(latitude: 37.7459, longitude: -119.5332)))
        #expect(upgraded.dateTaken == Date(timeIntervalSince1970: -315_619_200))
        #expect(
            upgraded.storedImage == "/photos/half-dome.jpg" && upgraded.altitudeMeters == nil
                && upgraded.storedThumbnail == nil)
        #expect(try library.photographers().map { "\($0.name) \($0.isUser)" } == ["Ansel Adams true"])
        let added = try library.add(.init(image: Self.elCapitan, title: "Cap"), userName: "Someone else")
        #expect(added.photographer == "Ansel Adams")
        let check = try Database(path: file.path)
        let indexes = try check.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'photo%' ORDER BY name")
        var names: [String] = []
        while try indexes.step() { names.append(indexes.text(at: 0) ?? "") }
        #expect(names == ["photographers_one_user", "photos_by_location", "photos_by_photographer"])
        // The location index serves bounding boxes.
        let plan = try check.prepare(
            "EXPLAIN QUERY PLAN SELECT id FROM photos WHERE latitude BETWEEN 1 AND 2 AND longitude BETWEEN 3 AND 4")
        var details: [String] = []
        while try plan.step() { details.append(plan.text(at: 3) ?? "") }
        #expect(details.contains { $0.contains("photos_by_location") }, "\(details)")
    }

    /// An upgrade that fails (here a version-1 file that already has an index of the name
    /// migration 2 makes) is rolled back and leaves the file as it was, byte for byte, in its
    /// journal mode, with no WAL file beside it.
    @Test func aFailedUpgradeLeavesTheFileByteIdentical() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("old.sqlite")
        try firstVersionLibrary(
            file,
            rows: """
                INSERT INTO photographers (name, is_user) VALUES ('Ansel Adams', 1);
                CREATE INDEX photos_by_location ON photos (latitude);
                """)
        let before = try Data(contentsOf: file)
        let error = #expect(throws: PhotoLibraryError.self) { try PhotoLibrary(file: file) }
        #expect(
            error?.description.contains("photos_by_location already exists") == true, "\(String(describing: error))")
        #expect(try Data(contentsOf: file) == before)
        #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"))
    }

    /// Version 2 stored the files a library owns by absolute path; version 3 stores them by name
    /// in the photo folder, so the upgrade of a library copied before it finds the copy's files.
    @Test func theUpgradeToVersion3StoresOwnedFilesByName() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("lib.sqlite")
        let id = "0b8c6f3e-1111-4222-8333-444455556666"
        do {
            let old = try PhotoLibrary.openAtVersion(2, file: file)
            try old.execute(
                """
                INSERT INTO photos (id, title, latitude, longitude, image, thumbnail, owns_files)
                VALUES ('\(id)', 'Owned', 1, 2, '/elsewhere/original.photos/\(id).jpg', '/elsewhere/original.photos/\(id).thumbnail.jpg', 1),
                       ('linked', 'Linked', 1, 2, '/photos/linked.jpg', NULL, 0)
                """)
        }
        let library = try PhotoLibrary(file: file)
        let owned = try #require(try library.photo(id: id))
        #expect(owned.storedImage == library.photoFolder.appendingPathComponent("\(id).jpg").path)
        #expect(owned.storedThumbnail == library.photoFolder.appendingPathComponent("\(id).thumbnail.jpg").path)
        #expect(try library.photo(id: "linked")?.storedImage == "/photos/linked.jpg")
        let check = try Database(path: file.path)
        let stored = try check.prepare("SELECT image, thumbnail FROM photos WHERE id = '\(id)'")
        _ = try stored.step()
        #expect(stored.text(at: 0) == "\(id).jpg" && stored.text(at: 1) == "\(id).thumbnail.jpg")
    }

    /// A library a newer Mapwright wrote is refused in one line, and its bytes are not touched.
    @Test func aNewerLibraryIsRefusedUnmodified() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("newer.sqlite")
        do {
            let newer = try PhotoLibrary.openAtVersion(PhotoLibrary.schemaVersion, file: file)
            try newer.execute("PRAGMA user_version = 7")
        }
        let before = try Data(contentsOf: file)
        let error = #expect(throws: PhotoLibraryError.self) { try PhotoLibrary(file: file) }
        #expect(error == .newerLibrary(file: file, version: 7, newestKnown: 3))
        #expect(
            error?.description.contains("newer Mapwright (library version 7; this one reads versions up to 3)") == true)
        #expect(try Data(contentsOf: file) == before)
        #expect(!FileManager.default.fileExists(atPath: file.path + "-wal"))
    }

    /// Other files are refused by what they are: not SQLite, or SQLite of something else.
    @Test func filesThatAreNotLibrariesAreRefused() throws {
        let directory = try TemporaryDirectory()
        let text = directory.file("notes.sqlite")
        try Data("hello, this is not a database at all, just some text that is long enough".utf8).write(to: text)
        #expect(throws: PhotoLibraryError.notALibrary(file: text, reason: "it is not a SQLite database")) {
            try PhotoLibrary(file: text)
        }
        let tiles = directory.file("tiles.mbtiles")
        try Database(path: tiles.path, mode: .readWriteCreate).execute("CREATE TABLE metadata (name TEXT, value TEXT)")
        let error = #expect(throws: PhotoLibraryError.self) { try PhotoLibrary(file: tiles) }
        #expect(
            error?.description
                == "\(tiles.path): is not a Mapwright photo library: it is a SQLite database of something else (it has other tables)"
        )
    }

    // MARK: - Import and listing

    /// Importing the same photos twice adds nothing the second time; a changed field updates the
    /// row in place, never a second one.
    @Test func importIsIdempotentByID() throws {
        let directory = try TemporaryDirectory()
        let library = try PhotoLibrary(file: directory.file("library.sqlite"))
        let photos = [
            try photo("a", "Alpha", 10, 20, by: "Ann"), try photo("b", "Beta", -33.9, 18.4, by: "Bob"),
            try photo("c", nil, 51.5, -0.12),
        ]
        #expect(try library.importPhotos(photos) == .init(added: 3, updated: 0, unchanged: 0))
        #expect(try library.importPhotos(photos) == .init(added: 0, updated: 0, unchanged: 3))
        var moved = photos
        moved[1].coordinate = try Coordinate(latitude: -34, longitude: 18.5)
        moved.append(try photo("d", "Delta", 1, 1, by: "Ann"))
        #expect(try library.importPhotos(moved) == .init(added: 1, updated: 1, unchanged: 2))
        #expect(try library.photoCount() == 4)
        #expect(try library.photo(id: "b")?.coordinate == (try Coordinate(latitude: -34, longitude: 18.5)))
        // A CSV source imported twice: the same ids.
        let csv = directory.file("photos.csv")
        try Data("latitude,longitude,title,photographer\n48.85,2.35,Paris,Cleo\n-22.9,-43.2,Rio,Cleo\n".utf8).write(
            to: csv)
        let collection = try PhotoCollection.load(from: csv)
        #expect(try library.importPhotos(collection.photos) == .init(added: 2, updated: 0, unchanged: 0))
        #expect(
            try library.importPhotos(try PhotoCollection.load(from: csv).photos)
                == .init(added: 0, updated: 0, unchanged: 2))
    }

    /// A large import into a small library drops the secondary indexes and builds them again:
    /// afterwards the schema is the one the migrations make, and every photo is found through them.
    @Test func aLargeImportRebuildsTheIndexesAsTheMigrationsMakeThem() throws {
        let directory = try TemporaryDirectory()
        let library = try PhotoLibrary(file: directory.file("library.sqlite"))
        func schema() throws -> [String] {
            let database = try Database(path: library.file.path)
            let statement = try database.prepare(
                "SELECT name || ': ' || coalesce(sql, '') FROM sqlite_master ORDER BY name")
            var rows: [String] = []
            while try statement.step() { rows.append(statement.text(at: 0) ?? "") }
            return rows
        }
        let before = try schema()
        let count = PhotoLibrary.indexRebuildThreshold + 1
        let photos = try (0..<count).map {
            try photo("p\($0)", "P", Double($0 % 170) - 85, Double($0 % 360) - 180, by: "N\($0 % 4)")
        }
        #expect(try library.importPhotos(photos) == .init(added: count, updated: 0, unchanged: 0))
        #expect(try schema() == before)
        #expect(try library.photos(byPhotographer: "N1").count == count / 4)
        #expect(
            try library.photos(in: BoundingBox(west: -180, south: -85, east: -179.5, north: 85)).count
                == (0..<count).filter { $0 % 360 == 0 }.count)
    }

    /// Sections per photographer: the user first, then by name with case ignored; photos by
    /// title within each (case ignored, a missing title sorted by what stands in for it); the
    /// photos of nobody known last.
    @Test func listingOrder() throws {
        let directory = try TemporaryDirectory()
        let library = try PhotoLibrary(file: directory.file("library.sqlite"))
        _ = try library.importPhotos([
            try photo("1", "zebra", 1, 1, by: "bob"), try photo("2", "Apple", 1, 1, by: "bob"),
            try photo("3", "mango", 1, 1, by: "Alice"),
            try photo("4", "Kiwi", 1, 1), try photo("5", "banana", 1, 1, by: "bob"),
            try photo("6", "Fig", 1, 1, by: "Zoe"),
        ])
        _ = try library.add(.init(image: Self.elCapitan, title: "El Capitan"), userName: "Zoe")
        let sections = try library.sections()
        #expect(sections.map { $0.photographer?.name } == ["Zoe", "Alice", "bob", nil])
        #expect(sections.map { $0.photographer?.isUser } == [true, false, false, nil])
        #expect(
            sections.map { $0.photos.map { $0.title ?? "" } } == [
                ["El Capitan", "Fig"], ["mango"], ["Apple", "banana", "zebra"], ["Kiwi"],
            ])
        #expect(try library.photographers().map(\.photoCount) == [2, 1, 3])
        #expect(try library.sections(photographer: "BOB").map { $0.photographer?.name } == ["bob"])
        #expect(try library.photos(byPhotographer: "Bob").map(\.id) == ["1", "2", "5"])
        #expect(try library.photos(byPhotographer: "nobody").isEmpty)
    }

    /// Bounding boxes, across the antimeridian too.
    @Test func boundingBoxQueries() throws {
        let directory = try TemporaryDirectory()
        let library = try PhotoLibrary(file: directory.file("library.sqlite"))
        _ = try library.importPhotos([
            try photo("fiji", "Fiji", -17.7, 178.0), try photo("samoa", "Samoa", -13.8, -172.1),
            try photo("paris", "Paris", 48.85, 2.35),
        ])
        #expect(
            try library.photos(in: BoundingBox(west: 170, south: -20, east: -170, north: -10)).map(\.id) == [
                "fiji", "samoa",
            ])
        #expect(try library.photos(in: BoundingBox(west: 0, south: 40, east: 10, north: 50)).map(\.id) == ["paris"])
    }

    // MARK: - Adding

    /// Photomania's order: an image, then a title, then a location; the first failure wins and
    /// nothing is written (no row, no file).
    @Test func addValidatesImageThenTitleThenLocation() throws {
        let directory = try TemporaryDirectory()
        let library = try PhotoLibrary(file: directory.file("library.sqlite"))
        let here = try Coordinate(latitude: 1, longitude: 2)
        let cases: [(PhotoLibrary.NewPhoto, String)] = [
            (.init(image: nil, title: "", coordinate: nil), "No photo taken: an image is required (--image FILE)"),
            (
                .init(image: nil, title: "Title", coordinate: here),
                "No photo taken: an image is required (--image FILE)"
            ),
            (.init(image: Self.noGPS, title: "  ", coordinate: nil), "Title required (--title TITLE)"),
            (.init(image: Self.elCapitan, title: "", coordinate: here), "Title required (--title TITLE)"),
            (
                .init(image: Self.noGPS, title: "Test strip"),
                "no location: \(Self.noGPS.displayPath) has no GPS position in its EXIF; give one with --at LAT,LON"
            ),
            (
                .init(image: directory.file("missing.jpg"), title: "x", coordinate: here),
                "\(directory.file("missing.jpg").displayPath): cannot be read: there is no such file"
            ),
        ]
        for (new, message) in cases {
            let error = #expect(throws: PhotoLibraryError.self) { try library.add(new, userName: "Me") }
            #expect(error?.description == message)
        }
        let text = directory.file("notes.jpg")
        try Data("not a jpeg".utf8).write(to: text)
        let error = #expect(throws: PhotoLibraryError.self) {
            try library.add(.init(image: text, title: "x", coordinate: here), userName: "Me")
        }
        #expect(
            error?.description.hasPrefix("\(text.path): is not a JPEG photo") == true, "\(String(describing: error))")
        #expect(try library.photoCount() == 0)
        let leftOver = (try? FileManager.default.contentsOfDirectory(atPath: library.photoFolder.path)) ?? []
        #expect(leftOver.isEmpty)
    }

    /// A photo added: the image copied under a UUID name with a 184-pixel JPEG thumbnail beside
    /// it, the location from EXIF (or `--at`), the photographer the user; removing it removes
    /// its files; moving it changes its place.
    @Test func addCopiesTheImageAndRemoveDeletesIt() throws {
        let directory = try TemporaryDirectory()
        let library = try PhotoLibrary(file: directory.file("my library.sqlite"))
        let added = try library.add(
            .init(image: Self.elCapitan, title: " El Capitan ", subtitle: "from the meadow"), userName: "Me")
        #expect(UUID(uuidString: added.id) != nil)
        #expect(added.title == "El Capitan" && added.subtitle == "from the meadow" && added.photographer == "Me")
        // EXIF: 37° 43' 37.2" N, 119° 38' 6" W.
        #expect(abs(added.coordinate.latitude - (37 + 43 / 60.0 + 37.2 / 3600)) < 1e-9)
        #expect(abs(added.coordinate.longitude + (119 + 38 / 60.0 + 6 / 3600.0)) < 1e-9)
        let image = try #require(added.storedImage)
        let thumbnail = try #require(added.storedThumbnail)
        #expect(image == library.photoFolder.appendingPathComponent("\(added.id).jpg").path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: image)) == (try Data(contentsOf: Self.elCapitan)))
        let decoded = try RGBAImage(jpegData: try Data(contentsOf: URL(fileURLWithPath: thumbnail)))
        #expect(decoded.width == 184 && decoded.height == 184)
        #expect(try library.photo(id: added.id) == added)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: library.photoFolder.path).sorted()
                == ["\(added.id).jpg", "\(added.id).thumbnail.jpg"])

        let second = try library.add(
            .init(
                image: Self.noGPS, title: "Strip", coordinate: try Coordinate(latitude: -33.9, longitude: 18.4),
                photographer: "Guest"), userName: "Ignored")
        #expect(second.photographer == "Guest" && second.coordinate.latitude == -33.9)
        #expect(try library.photographers().map(\.name) == ["Me", "Guest"])

        let before = try library.setLocation(id: second.id, to: Coordinate(latitude: 10, longitude: 20))
        #expect(before.coordinate.latitude == -33.9)
        #expect(try library.photo(id: second.id)?.coordinate == (try Coordinate(latitude: 10, longitude: 20)))

        try library.remove(id: added.id)
        #expect(try library.photo(id: added.id) == nil)
        #expect(!FileManager.default.fileExists(atPath: image) && !FileManager.default.fileExists(atPath: thumbnail))
        #expect(throws: PhotoLibraryError.noSuchPhoto(id: added.id, file: library.file)) {
            try library.remove(id: added.id)
        }
        #expect(throws: PhotoLibraryError.noSuchPhoto(id: "nope", file: library.file)) {
            try library.setLocation(id: "nope", to: Coordinate(latitude: 0, longitude: 0))
        }
        // Files an import only points to stay when their photo goes.
        _ = try library.importPhotos([
            Photo(
                id: "x", title: "X", coordinate: try Coordinate(latitude: 1, longitude: 1), image: .file(Self.elCapitan)
            )
        ])
        try library.remove(id: "x")
        #expect(FileManager.default.fileExists(atPath: Self.elCapitan.path))
    }

    /// A place given with `--at` drops the image's EXIF altitude and accuracy, measured
    /// elsewhere; without it they are kept with the EXIF position.
    @Test func aGivenPlaceDropsTheEXIFAltitudeAndAccuracy() throws {
        let directory = try TemporaryDirectory()
        let library = try PhotoLibrary(file: directory.file("library.sqlite"))
        let fromEXIF = try library.add(.init(image: Self.elCapitan, title: "Cap"), userName: "Me")
        #expect(fromEXIF.altitudeMeters != nil && fromEXIF.horizontalAccuracyMeters != nil)
        let elsewhere = try library.add(
            .init(image: Self.elCapitan, title: "Sea", coordinate: try Coordinate(latitude: -33.9, longitude: -18.4)),
            userName: "Me")
        let stored = try #require(try library.photo(id: elsewhere.id))
        #expect(stored.altitudeMeters == nil && stored.horizontalAccuracyMeters == nil)
        #expect(stored.dateTaken == fromEXIF.dateTaken)
    }

    /// Photographers are matched with case ignored when photos are added or imported: the
    /// spelling stored first stays, and no second photographer is made.
    @Test func photographersAreMatchedWithCaseIgnored() throws {
        let directory = try TemporaryDirectory()
        let library = try PhotoLibrary(file: directory.file("library.sqlite"))
        _ = try library.importPhotos([try photo("a", "A", 1, 1, by: "Dorothea Lange")])
        let added = try library.add(
            .init(image: Self.elCapitan, title: "Cap", photographer: "dorothea lange"), userName: "Me")
        #expect(added.photographer == "Dorothea Lange")
        _ = try library.importPhotos([try photo("b", "B", 1, 1, by: "DOROTHEA LANGE")])
        #expect(try library.photographers().map(\.name) == ["Dorothea Lange"])
        #expect(try library.photos(byPhotographer: "dorothea LANGE").count == 3)
        // The user is found the same way.
        _ = try library.add(.init(image: Self.elCapitan, title: "Mine"), userName: "dorothea lange")
        #expect(try library.photographers().map { "\($0.name) \($0.isUser)" } == ["Dorothea Lange true"])
    }

    /// A library copied (file and photo folder) elsewhere removes its own copies of a photo's
    /// files, never the original's; a library moved elsewhere still finds its images and thumbnails.
    @Test func aCopiedLibraryRemovesOnlyItsOwnFilesAndAMovedOneFindsThem() throws {
        let directory = try TemporaryDirectory()
        let added: Photo
        let kept: Photo
        do {  // Closed before it is copied, as a library is when no command runs.
            let original = try PhotoLibrary(file: directory.file("lib.sqlite"))
            added = try original.add(.init(image: Self.elCapitan, title: "Cap"), userName: "Me")
            kept = try original.add(.init(image: Self.elCapitan, title: "Kept"), userName: "Me")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("lib.sqlite-wal").path))
        let backup = directory.url.appendingPathComponent("backup")
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
        for name in ["lib.sqlite", "lib.photos"] {
            try FileManager.default.copyItem(at: directory.file(name), to: backup.appendingPathComponent(name))
        }
        let copy = try PhotoLibrary(file: backup.appendingPathComponent("lib.sqlite"))
        try copy.remove(id: added.id)
        #expect(FileManager.default.fileExists(atPath: try #require(added.storedImage)))
        #expect(FileManager.default.fileExists(atPath: try #require(added.storedThumbnail)))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: copy.photoFolder.path).sorted() == [
                "\(kept.id).jpg", "\(kept.id).thumbnail.jpg",
            ])

        let moved = directory.url.appendingPathComponent("moved")
        try FileManager.default.moveItem(at: backup, to: moved)
        let movedLibrary = try PhotoLibrary(file: moved.appendingPathComponent("lib.sqlite"))
        let photo = try #require(try movedLibrary.photo(id: kept.id))
        let thumbnail = try #require(photo.storedThumbnail)
        #expect(thumbnail == movedLibrary.photoFolder.appendingPathComponent("\(kept.id).thumbnail.jpg").path)
        #expect(
            try RGBAImage(jpegData: try Data(contentsOf: URL(fileURLWithPath: thumbnail))).width
                == PhotoLibrary.thumbnailPixels)
        #expect(photo.storedImage == movedLibrary.photoFolder.appendingPathComponent("\(kept.id).jpg").path)
        #expect(FileManager.default.fileExists(atPath: try #require(photo.storedImage)))
    }

    // MARK: - Import keys

    /// Imports sources as `photos import` does: one summary each.
    private func imported(_ sources: [URL], into library: PhotoLibrary) throws -> [PhotoLibrary.ImportSummary] {
        try sources.map {
            try library.importPhotos(PhotoLibrary.importKeyed(try PhotoCollection.load(from: $0), from: $0))
        }
    }

    /// Two cameras' folders both holding IMG_0001.jpg are two photos; a subfolder imported after
    /// its folder (by another path) updates, never duplicates.
    @Test func folderImportsAreKeyedByTheFilesAbsolutePath() throws {
        let directory = try TemporaryDirectory()
        for camera in ["camA", "camB"] {
            try FileManager.default.createDirectory(
                at: directory.url.appendingPathComponent("trip/\(camera)"), withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(at: Self.elCapitan, to: directory.file("trip/camA/IMG_0001.jpg"))
        try FileManager.default.copyItem(
            at: Self.samples.appendingPathComponent("dorothea-lange/golden-gate.jpg"),
            to: directory.file("trip/camB/IMG_0001.jpg"))
        let library = try PhotoLibrary(file: directory.file("library.sqlite"))
        let summaries = try imported([directory.file("trip/camA"), directory.file("trip/camB")], into: library)
        #expect(summaries == [.init(added: 1), .init(added: 1)])
        #expect(try library.photoCount() == 2)
        let ids = try library.photos().map(\.id).sorted()
        #expect(
            ids
                == ["camA", "camB"].map {
                    directory.url.resolvingSymlinksInPath().appendingPathComponent("trip/\($0)/IMG_0001.jpg").path
                })
        // The parent, then a subfolder by a path with `..` in it: the same photos.
        #expect(try imported([directory.file("trip")], into: library) == [.init(unchanged: 2)])
        #expect(try imported([directory.file("trip/camB/../camA")], into: library) == [.init(unchanged: 1)])
        #expect(try library.photoCount() == 2)
    }

    /// Two CSV files of the same name in two folders are two sources; a CSV with an `id` column
    /// keeps its photos' ids when a row is removed, and so does one whose rows name their images;
    /// only rows with neither are keyed by line.
    @Test func fileImportsAreKeyedByTheFileAndTheRowsOwnId() throws {
        let directory = try TemporaryDirectory()
        for trip in ["t1", "t2"] {
            try FileManager.default.createDirectory(
                at: directory.url.appendingPathComponent(trip), withIntermediateDirectories: true)
        }
        try Data("latitude,longitude,title\n48.85,2.35,Paris\n".utf8).write(to: directory.file("t1/photos.csv"))
        try Data("latitude,longitude,title\n-22.9,-43.2,Rio\n".utf8).write(to: directory.file("t2/photos.csv"))
        let library = try PhotoLibrary(file: directory.file("library.sqlite"))
        #expect(
            try imported([directory.file("t1/photos.csv"), directory.file("t2/photos.csv")], into: library) == [
                .init(added: 1), .init(added: 1),
            ])
        #expect(try library.photos().map(\.title) == ["Paris", "Rio"])
        let resolved = directory.url.resolvingSymlinksInPath()
        #expect(
            try library.photos().map(\.id)
                == ["t1", "t2"].map { resolved.appendingPathComponent("\($0)/photos.csv").path + ":2" })

        for (name, header, rows) in [
            ("ids.csv", "id,latitude,longitude,title", ["a,1,1,A", "b,2,2,B", "c,3,3,C"]),
            ("images.csv", "latitude,longitude,title,image", ["1,1,A,a.jpg", "2,2,B,b.jpg", "3,3,C,c.jpg"]),
        ] {
            let csv = directory.file(name)
            try Data(([header] + rows).joined(separator: "\n").utf8).write(to: csv)
            #expect(try imported([csv], into: library) == [.init(added: 3)], "\(name)")
            try Data(([header] + rows.dropFirst()).joined(separator: "\n").utf8).write(to: csv)
            #expect(try imported([csv], into: library) == [.init(unchanged: 2)], "\(name)")
        }
        #expect(try library.photoCount() == 8)
        #expect(try library.photo(id: resolved.appendingPathComponent("ids.csv").path + "#b")?.title == "B")
        #expect(try library.photo(id: directory.file("b.jpg").path)?.title == "B")
    }

    /// Readers see the last committed state while another connection adds photos: a reader
    /// counting photos in a loop never fails and only ever sees counts that were committed.
    @Test func readersWorkWhileAWriterAdds() async throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("library.sqlite")
        let writer = try PhotoLibrary(file: file)
        _ = try writer.importPhotos((0..<1000).map { try photo("p\($0)", "P\($0)", Double($0 % 80), Double($0 % 170)) })
        let reader = try PhotoLibrary(file: file, readOnly: true)
        let version = try reader.dataVersion()
        try await withThrowingTaskGroup(of: [Int].self) { group in
            group.addTask {
                for batch in 1...20 {
                    _ = try writer.importPhotos((0..<100).map { try self.photo("b\(batch)-\($0)", "B", 1, 1) })
                }
                return []
            }
            group.addTask {
                var seen: [Int] = []
                for _ in 0..<200 { seen.append(try reader.photos().count) }
                return seen
            }
            for try await seen in group where !seen.isEmpty {
                #expect(seen.allSatisfy { ($0 - 1000) % 100 == 0 && $0 >= 1000 && $0 <= 3000 }, "\(Set(seen).sorted())")
            }
        }
        #expect(try reader.photoCount() == 3000)
        #expect(try reader.dataVersion() != version)
    }
}
