import Foundation
import ImageCodec
import MapTestSupport
import Testing

/// `mapwright photos` as people use it, from a temporary folder with a library named with a
/// space: import twice, list, add with Photomania's checks, remove, move; `render --library`
/// draws what `render --photos` draws; a running `serve --library` shows changes within its
/// library watch's interval and answers while `photos add` writes.
@Suite(.serialized) struct PhotosCommandTests {
    private func run(_ arguments: [String], in folder: TemporaryDirectory) throws -> MapwrightProcess.Output {
        try MapwrightProcess.run(arguments, in: folder.url)
    }

    @Test func importTwiceListAndPhotographers() throws {
        let folder = try ServeCommandTests.folderWithPhotos()
        let library = ["--library", "my library.sqlite"]
        // Reading a library that is not there says so and creates nothing.
        let missing = try run(["photos", "list", "--library", "typo.sqlite"], in: folder)
        #expect(
            missing.status == 2
                && missing.standardError
                    == "mapwright: typo.sqlite: no such library (create one with `mapwright photos import` or `photos add`)\n",
            "\(missing.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("typo.sqlite").path))
        let first = try run(["photos", "import", "my photos"] + library, in: folder)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(
            first.standardOutput.hasPrefix(
                "imported 21 photos from 1 source into my library.sqlite: 21 added, 0 updated, 0 unchanged; 2 photos have no GPS location and were skipped ("
            ),
            "\(first.standardOutput)")
        let second = try run(["photos", "import", "my photos"] + library, in: folder)
        #expect(second.standardOutput.contains(": 0 added, 0 updated, 21 unchanged;"), "\(second.standardOutput)")
        // A subfolder by another path: the same photos, keyed by their absolute paths.
        let subfolder = try run(["photos", "import", "./my photos/../my photos/ansel-adams"] + library, in: folder)
        #expect(subfolder.standardOutput.contains(": 0 added, 0 updated, 7 unchanged"), "\(subfolder.standardOutput)")

        let photographers = try run(["photos", "photographers", "--json"] + library, in: folder)
        let list = try JSONSerialization.jsonObject(with: Data(photographers.standardOutput.utf8)) as? [[String: Any]]
        #expect(list?.map { $0["name"] as? String } == ["Ansel Adams", "Dorothea Lange", "李明"])
        #expect(list?.map { $0["photos"] as? Int } == [7, 7, 7])

        let listing = try run(["photos", "list", "--photographer", "dorothea lange"] + library, in: folder)
        let lines = listing.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "Dorothea Lange: 7 photos")
        let titles = lines.dropFirst().map { $0.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")[0] }
        #expect(titles == titles.sorted { $0.localizedCaseInsensitiveCompare($1) == .orderedAscending }, "\(titles)")
        let unknown = try run(["photos", "list", "--photographer", "Nobody"] + library, in: folder)
        #expect(
            unknown.status == 2
                && unknown.standardError.hasPrefix("mapwright: no photos by 'Nobody'; photographers found: Ansel Adams")
        )
    }

    /// Photomania's checks in order, each one line with status 2 and nothing written; then a
    /// photo added (its id printed, its files in the library's folder), moved and removed.
    @Test func addValidatesInOrderThenAddsMovesAndRemoves() throws {
        let folder = try ServeCommandTests.folderWithPhotos()
        let library = ["--library", "my library.sqlite"]
        let withGPS = "my photos/ansel-adams/el-capitan.jpg"
        let noGPS = "my photos/ansel-adams/darkroom-test-strip.jpg"
        let cases: [([String], String)] = [
            (["--title", "T"], "mapwright: No photo taken: an image is required (--image FILE)\n"),
            (["--image", withGPS], "mapwright: Title required (--title TITLE)\n"),
            (["--image", withGPS, "--title", "  "], "mapwright: Title required (--title TITLE)\n"),
            (
                ["--image", noGPS, "--title", "Strip"],
                "mapwright: no location: \(noGPS) has no GPS position in its EXIF; give one with --at LAT,LON\n"
            ),
            (
                ["--image", "missing.jpg", "--title", "x", "--at", "-33.9,18.4"],
                "mapwright: missing.jpg: cannot be read: there is no such file\n"
            ),
            (
                ["--image", withGPS, "--title", "x", "--at", "95,0"],
                "mapwright: The value '95,0' is invalid for '--at <at>': LAT 95 is not a latitude between -90 and 90 (the order is latitude, then longitude)\n"
            ),
        ]
        for (arguments, message) in cases {
            let result = try run(["photos", "add"] + library + arguments, in: folder)
            #expect(result.status == 2 && result.standardError == message, "\(arguments): \(result.standardError)")
        }
        let photoFolder = folder.url.appendingPathComponent("my library.photos")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: photoFolder.path)) ?? []).isEmpty)

        let added = try run(
            ["photos", "add"] + library + [
                "--image", noGPS, "--title", "Test strip", "--at", "-33.9,18.4", "--photographer", "Guest",
            ], in: folder)
        #expect(added.status == 0, "\(added.standardError)")
        let id = added.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(UUID(uuidString: id) != nil, "\(added.standardOutput)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: photoFolder.path).sorted() == [
                "\(id).jpg", "\(id).thumbnail.jpg",
            ])

        let moved = try run(["photos", "set-location", id, "-34.35,18.47"] + library, in: folder)
        #expect(
            moved.standardOutput == "moved \(id) from -33.9,18.4 to -34.35,18.47\n",
            "\(moved.standardOutput)\(moved.standardError)")
        let listed = try run(["photos", "list", "--json"] + library, in: folder)
        #expect(listed.standardOutput.contains(#""latitude":-34.35"#))
        let badPlace = try run(["photos", "set-location", id, "-95,18"] + library, in: folder)
        #expect(
            badPlace.status == 2 && badPlace.standardError.hasPrefix("mapwright: -95,18: LAT -95 is not a latitude"),
            "\(badPlace.standardError)")

        let removed = try run(["photos", "remove", id] + library, in: folder)
        #expect(removed.standardOutput == "removed \(id) (Test strip)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: photoFolder.path).isEmpty)
        let again = try run(["photos", "remove", id] + library, in: folder)
        #expect(
            again.status == 2 && again.standardError == "mapwright: no photo has the id '\(id)' in my library.sqlite\n")
    }

    /// A library a newer Mapwright wrote: one line, the file untouched.
    @Test func aNewerLibraryIsOneLineAndLeftAlone() throws {
        let folder = try TemporaryDirectory()
        let made = try run(
            [
                "photos", "import",
                MapwrightProcess.repository.appendingPathComponent("Samples/flickr-photos.json").path, "--library",
                "lib.sqlite",
            ], in: folder)
        #expect(made.status == 0)
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        sqlite.arguments = [
            "-c",
            "import sqlite3; c = sqlite3.connect('lib.sqlite'); c.execute('PRAGMA journal_mode = DELETE'); c.execute('PRAGMA user_version = 9'); c.commit()",
        ]
        sqlite.currentDirectoryURL = folder.url
        try sqlite.run()
        sqlite.waitUntilExit()
        let before = try Data(contentsOf: folder.file("lib.sqlite"))
        let result = try run(["photos", "list", "--library", "lib.sqlite"], in: folder)
        #expect(result.status == 2)
        #expect(
            result.standardError
                == "mapwright: lib.sqlite: was written by a newer Mapwright (library version 9; this one reads versions up to 3); it was left unchanged: upgrade Mapwright to use it\n"
        )
        #expect(try Data(contentsOf: folder.file("lib.sqlite")) == before)
    }

    /// `render --library --photographer` draws the same map as `render --photos --photographer`.
    @Test func renderFromTheLibraryEqualsRenderFromTheFolder() throws {
        let folder = try ServeCommandTests.folderWithPhotos()
        #expect(try run(["photos", "import", "my photos", "--library", "lib.sqlite"], in: folder).status == 0)
        let fromLibrary = try run(
            ["render", "--library", "lib.sqlite", "--photographer", "ansel adams", "--select", "first", "-o", "a.png"],
            in: folder)
        #expect(fromLibrary.status == 0, "\(fromLibrary.standardError)")
        let fromFolder = try run(
            ["render", "--photos", "my photos", "--photographer", "Ansel Adams", "--select", "first", "-o", "b.png"],
            in: folder)
        #expect(fromFolder.status == 0, "\(fromFolder.standardError)")
        #expect(try Data(contentsOf: folder.file("a.png")) == (try Data(contentsOf: folder.file("b.png"))))
        let unknown = try run(
            ["render", "--library", "lib.sqlite", "--photographer", "Nobody", "-o", "c.png"], in: folder)
        #expect(unknown.status == 2 && unknown.standardError.hasPrefix("mapwright: no photos by 'Nobody'"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("c.png").path))
    }

    /// `serve --library --cache`: the cache file records which photos its overlay tiles are
    /// drawn for. A photo added while serving, then removed while the server is stopped, is not
    /// drawn after a restart, though the restarted server opens the same cache file.
    @Test func aRestartedServeDoesNotDrawAPhotoRemovedWhileItWasStopped() async throws {
        let folder = try ServeCommandTests.folderWithPhotos()
        #expect(try run(["photos", "import", "my photos", "--library", "lib.sqlite"], in: folder).status == 0)
        try FileManager.default.createDirectory(at: folder.file("cache dir"), withIntermediateDirectories: true)
        let arguments = ["--library", "lib.sqlite", "--cache", "cache dir/c.mbtiles", "--jobs", "2"]
        let tilePath = "/overlays/photos/6/35/38.png"  // Cape Town
        func photoCount(_ server: ServeCommandTests.RunningServer, becoming expected: Int) async throws -> Int {
            var count = -1
            for _ in 0..<100 where count != expected {
                if count != -1 { try await Task.sleep(nanoseconds: 100_000_000) }
                let answer = try await server.get("/annotations.json?bbox=-180,-85,180,85&zoom=20")
                count =
                    ((try JSONSerialization.jsonObject(with: answer.data) as? [String: Any])?["features"] as? [Any])?
                    .count ?? -1
            }
            return count
        }

        let first = try ServeCommandTests.RunningServer(arguments, in: folder.url)
        defer { _ = first.stop() }
        try await first.waitUntilReady()
        let empty = try await first.get(tilePath)
        #expect(empty.status == 200)
        let added = try run(
            [
                "photos", "add", "--library", "lib.sqlite", "--image", "my photos/ansel-adams/darkroom-test-strip.jpg",
                "--title", "Strip", "--at", "-33.92,18.42",
            ],
            in: folder)
        #expect(added.status == 0, "\(added.standardError)")
        #expect(try await photoCount(first, becoming: 22) == 22)
        #expect(try await first.get(tilePath).data != empty.data, "the pin is drawn")
        #expect(first.stop() == 0, "\(first.standardError)")
        let cacheFiles = try FileManager.default.contentsOfDirectory(atPath: folder.file("cache dir").path).filter {
            $0.hasSuffix(".mbtiles")
        }

        let id = added.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try run(["photos", "remove", id, "--library", "lib.sqlite"], in: folder).status == 0)
        let second = try ServeCommandTests.RunningServer(arguments, in: folder.url)
        defer { _ = second.stop() }
        try await second.waitUntilReady()
        #expect(try await photoCount(second, becoming: 21) == 21)
        #expect(try await second.get(tilePath).data == empty.data, "the removed photo's pin is not drawn")
        #expect(second.stop() == 0, "\(second.standardError)")
        let filesAfter = try FileManager.default.contentsOfDirectory(atPath: folder.file("cache dir").path).filter {
            $0.hasSuffix(".mbtiles")
        }
        #expect(filesAfter.sorted() == cacheFiles.sorted(), "the restarted server used the same cache files")
    }

    /// A running `serve --library`: a photo added, moved and removed from another process shows
    /// in the annotations and the overlay tiles once the server's library watch sees it, and
    /// requests made while `photos add` writes all succeed.
    @Test func serveShowsLibraryChanges() async throws {
        let folder = try ServeCommandTests.folderWithPhotos()
        #expect(try run(["photos", "import", "my photos", "--library", "lib.sqlite"], in: folder).status == 0)
        let server = try ServeCommandTests.RunningServer(["--library", "lib.sqlite", "--jobs", "2"], in: folder.url)
        defer { _ = server.stop() }
        try await server.waitUntilReady()
        func photoCount() async throws -> Int {
            let answer = try await server.get("/annotations.json?bbox=-180,-85,180,85&zoom=20")
            let json = try JSONSerialization.jsonObject(with: answer.data) as? [String: Any]
            return (json?["features"] as? [Any])?.count ?? -1
        }
        /// The count once it is `expected`: the server checks the library every 0.5 s (serve's
        /// default), and on a machine busy with the whole suite reading a change may take longer.
        func photoCount(becoming expected: Int) async throws -> Int {
            var count = try await photoCount()
            for _ in 0..<100 where count != expected {
                try await Task.sleep(nanoseconds: 100_000_000)
                count = try await photoCount()
            }
            return count
        }
        #expect(try await photoCount() == 21)
        // Cape Town's overlay tile at zoom 6 is empty before the photo comes.
        let tilePath = "/overlays/photos/6/35/38.png"
        let emptyTile = try await server.get(tilePath)
        #expect(emptyTile.status == 200)

        // Readers while a writer adds: every answer is a 200 with a count the library had.
        let addTask = Task.detached { () throws -> [String] in
            var ids: [String] = []
            for index in 0..<5 {
                let added = try MapwrightProcess.run(
                    [
                        "photos", "add", "--library", "lib.sqlite", "--image",
                        "my photos/ansel-adams/darkroom-test-strip.jpg",
                        "--title", "Strip \(index)", "--at", "-33.92,18.42",
                    ], in: folder.url)
                guard added.status == 0 else { throw ServeCommandTests.Failure(added.standardError) }
                ids.append(added.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            return ids
        }
        var seen: [Int] = []
        while seen.count < 200, !(seen.last == 26) {
            seen.append(try await photoCount())
        }
        let ids = try await addTask.value
        #expect(seen.allSatisfy { (21...26).contains($0) }, "\(seen)")
        #expect(try await photoCount(becoming: 26) == 26)
        let pinnedTile = try await server.get(tilePath)
        #expect(pinnedTile.data != emptyTile.data, "the tile over Cape Town shows the new pins")

        for id in ids {
            #expect(try run(["photos", "remove", id, "--library", "lib.sqlite"], in: folder).status == 0)
        }
        #expect(try await photoCount(becoming: 21) == 21)
        #expect(try await server.get(tilePath).data == emptyTile.data, "the tile is empty again")
        #expect(server.stop() == 0, "\(server.standardError)")
    }
}
