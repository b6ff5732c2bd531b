import Foundation
import MapTestSupport
import Testing

@testable import MapAssembly

/// The registry the street-level basemaps and the DEMs share: its file, names, order and messages.
struct TilesetRegistryTests {
    private struct Entry: RegisteredTileset, Equatable {
        struct Stored: Codable {
            var name: String
            var path: String
        }

        var name: String
        var path: String

        init(name: String, path: String) {
            self.name = name
            self.path = path
        }

        init(stored: Stored) { self.init(name: stored.name, path: stored.path) }
        var stored: Stored { Stored(name: name, path: path) }
    }

    private func registry(_ home: TemporaryDirectory) -> TilesetRegistry<Entry> {
        TilesetRegistry(
            "things.json", key: "things", input: .terrain,
            locations: DataLocations(
                environment: ["HOME": home.url.path, "XDG_DATA_HOME": home.file("data").path], executableURL: nil))
    }

    @Test func entriesAreKeptNewestFirstUnderTheKey() throws {
        let home = try TemporaryDirectory()
        let registry = registry(home)
        #expect(try registry.entries().isEmpty)
        try registry.add(Entry(name: "a", path: "/a.mbtiles"))
        try registry.add(Entry(name: "b", path: "/b.mbtiles"))
        try registry.add(Entry(name: "a2", path: "/a.mbtiles"))
        #expect(
            try registry.entries() == [Entry(name: "a2", path: "/a.mbtiles"), Entry(name: "b", path: "/b.mbtiles")])
        #expect(registry.url == home.file("data/mapwright/things.json"))
        let file = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: registry.url)) as? [String: Any])
        #expect((file["things"] as? [[String: String]])?.first == ["name": "a2", "path": "/a.mbtiles"])

        #expect { try registry.add(Entry(name: "b", path: "/c.mbtiles")) } throws: { error in
            "\(error)" == "terrain: the name 'b' is taken by /b.mbtiles: give another with --name, or remove it first"
        }
        #expect { try registry.add(Entry(name: ".hidden", path: "/c.mbtiles")) } throws: { error in
            "\(error)" == "terrain: '.hidden' is not a usable name: use letters, digits, '-', '_' and '.'"
        }
        #expect {
            try registry.add(Entry(name: "c", path: "/c.mbtiles")) { _ throws(AssemblyError) in
                throw .invalid(.terrain, reason: "no")
            }
        } throws: { error in
            "\(error)" == "terrain: no"
        }
        #expect(try registry.remove(name: "b") { _ in "" } == Entry(name: "b", path: "/b.mbtiles"))
        #expect { try registry.remove(name: "b") { names in "none of \(names)" } } throws: { error in
            "\(error)" == "terrain: none of [\"a2\"]"
        }
        #expect {
            try registry.checkBuildName("a2", destination: URL(fileURLWithPath: "/elsewhere/a2.mbtiles"))
        } throws: { error in
            "\(error)".hasPrefix("terrain: the name 'a2' is taken by /a.mbtiles")
        }
        try registry.checkBuildName("a2", destination: URL(fileURLWithPath: "/a.mbtiles"))
    }

    @Test func aFileThatCannotBeReadIsNamed() throws {
        let home = try TemporaryDirectory()
        let registry = registry(home)
        try FileManager.default.createDirectory(
            at: registry.url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"other\": []}".utf8).write(to: registry.url)
        #expect { try registry.entries() } throws: { error in
            "\(error)".hasPrefix("terrain: \(registry.url.path) cannot be read: ")
                && "\(error)".hasSuffix("; remove it to start again")
        }
    }

    @Test func aBuildLeavesNothingBehindWhenItFails() throws {
        let home = try TemporaryDirectory()
        let registry = registry(home)
        let destination = home.file("built.mbtiles")
        var work: URL?
        #expect(throws: AssemblyError.self) {
            try registry.building(into: destination, prefix: "mapwright-registry-test-") {
                folder throws(AssemblyError) in
                work = folder
                throw .invalid(.terrain, reason: "failed")
            }
        }
        #expect(work.map { FileManager.default.fileExists(atPath: $0.path) } == false)
        try registry.building(into: destination, prefix: "mapwright-registry-test-") { folder throws(AssemblyError) in
            let file = folder.appendingPathComponent("x.mbtiles")
            _ = FileManager.default.createFile(atPath: file.path, contents: Data("tiles".utf8))
            return file
        }
        #expect(try Data(contentsOf: destination) == Data("tiles".utf8))
    }
}
