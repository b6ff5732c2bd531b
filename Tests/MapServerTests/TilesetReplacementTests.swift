import Foundation
import MBTiles
import MapCore
import MapTestSupport
import MapUtilities
import Synchronization
import Testing
import TileSources
import TilesetTools

@testable import MapServer

#if canImport(Glibc)
    import Glibc
    import HTTPTypes
    import HummingbirdTesting
#endif

/// A served tileset file replaced by another renamed over it, as `tiles export` finishes: within
/// a check of the watcher every tile and the TileJSON come from the new file, and requests
/// during the swap are all answered, from one file or the other. Over real HTTP on loopback.
@Suite struct TilesetReplacementTests {
    /// The tiles asked for: every tile of zooms 0 to 2, in both files.
    private static let tiles: [TileID] = (0...2).flatMap { z in
        (0..<(1 << z)).flatMap { x in (0..<(1 << z)).map { y in try! TileID(z: z, x: x, y: y) } }
    }

    /// A tile's bytes in file `marker` (`A` or `B`): a PNG signature, the marker and the address.
    private static func bytes(_ marker: Character, _ tile: TileID) -> Data {
        Data([
            0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, marker.asciiValue!, UInt8(tile.z), UInt8(tile.x),
            UInt8(tile.y),
        ])
    }

    /// File A: zooms 0-2 over the world. File B: zooms 0-3 over a smaller box, other bytes.
    private static func metadata(_ marker: Character) -> TileMetadata {
        marker == "A"
            ? TileMetadata(
                name: "A", format: .png, bounds: BoundingBox(west: -180, south: -85, east: 180, north: 85), minZoom: 0,
                maxZoom: 2)
            : TileMetadata(
                name: "B", format: .png, bounds: BoundingBox(west: -170, south: -80, east: 170, north: 80), minZoom: 0,
                maxZoom: 3)
    }

    /// Writes file `marker` to `url` as an export does (a work file, renamed into place).
    private static func write(_ marker: Character, to url: URL) throws {
        let writer = try TilesetWriter(output: url)
        var tiles = Dictionary(uniqueKeysWithValues: Self.tiles.map { ($0, bytes(marker, $0)) })
        if marker == "B" { tiles[try TileID(z: 3, x: 4, y: 3)] = bytes(marker, try TileID(z: 3, x: 4, y: 3)) }
        try writer.add(tiles)
        try writer.finish(metadata: metadata(marker))
    }

    /// A folder holding file A as `world.FORMAT`, the file served, and file B as `next.FORMAT`.
    private static func files(_ format: String) throws -> (folder: TemporaryDirectory, served: URL, next: URL) {
        let folder = try TemporaryDirectory()
        let served = folder.url.appendingPathComponent("world.\(format)")
        let next = folder.url.appendingPathComponent("next.\(format)")
        try write("A", to: served)
        try write("B", to: next)
        return (folder, served, next)
    }

    /// Moves `source` over `destination` with `rename(2)`: one step, a new inode at the path.
    private static func rename(_ source: URL, over destination: URL) throws {
        guard Glibc.rename(source.path, destination.path) == 0 else {
            throw LoopbackSocket.Failure(description: "rename: \(String(cString: strerror(errno)))")
        }
    }

    /// A flag set once, read from any thread.
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        func set() { value.store(true, ordering: .sequentiallyConsistent) }
        var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
    }

    /// A request's answer, and whether it was sent after the TileJSON showed file B.
    private struct Answer: Sendable {
        var tile: TileID
        var status: Int
        var body: Data
        var sentAfterSwitch: Bool
    }

    @Test(arguments: ["mbtiles", "pmtiles"])
    func aTilesetReplacedByRenameIsServedFromTheNewFileUnderConcurrentRequests(format: String) async throws {
        let (folder, served, next) = try Self.files(format)
        var configuration = ServerFixtures.configuration()
        configuration.tilesetCheckIntervalSeconds = 0.05
        let server = ServerFixtures.server(
            ServerContent(tilesets: [try ServedTileset(url: served)]), folder: folder, configuration: configuration)

        // The watcher on a thread of its own, as `serve` runs it (every check interval).
        let watcher = TilesetWatcher(server: server)
        watcher.check()
        let watcherStop = Flag()
        Thread {
            while !watcherStop.isSet {
                watcher.check()
                usleep(50_000)
            }
        }.start()
        defer { watcherStop.set() }

        let answers = Recorder<Answer>()
        let switched = Flag()
        let stop = Flag()
        try await ServerFixtures.test(server, .live) { client in
            let port = try #require(client.port)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<4 {
                    group.addTask {
                        var index = worker * 5
                        while !stop.isSet {
                            let tile = Self.tiles[index % Self.tiles.count]
                            index += 1
                            let sentAfterSwitch = switched.isSet
                            let answer = try await LoopbackSocket.get(
                                port: port, path: "/tilesets/world/\(tile.z)/\(tile.x)/\(tile.y).png",
                                timeoutSeconds: 60)
                            answers.append(
                                Answer(
                                    tile: tile, status: answer.status, body: answer.body,
                                    sentAfterSwitch: sentAfterSwitch))
                        }
                    }
                }
                // Requests answered from file A first, however busy the machine is.
                while answers.values.count < 8 { try await Task.sleep(nanoseconds: 10_000_000) }
                try Self.rename(next, over: served)
                let renamed = Date()
                // The TileJSON names file B's zooms once the watcher has opened it.
                while true {
                    let json = try await LoopbackSocket.get(
                        port: port, path: "/tilesets/world.json", timeoutSeconds: 60)
                    let object = try #require(try JSONSerialization.jsonObject(with: json.body) as? [String: Any])
                    if object["maxzoom"] as? Int == 3 { break }
                    guard Date().timeIntervalSince(renamed) < 120 else {
                        stop.set()
                        Issue.record("the TileJSON still shows the old file 120 s after the rename: \(object)")
                        break
                    }
                    try await Task.sleep(nanoseconds: 10_000_000)
                }
                switched.set()
                // Requests sent after the switch, from every worker's loop, before they stop.
                while answers.values.filter(\.sentAfterSwitch).count < 8, !stop.isSet {
                    try await Task.sleep(nanoseconds: 10_000_000)
                }
                stop.set()
                try await group.waitForAll()

                // Afterwards: every tile is file B's, and the TileJSON is B's.
                for tile in Self.tiles {
                    let answer = try await LoopbackSocket.get(
                        port: port, path: "/tilesets/world/\(tile.z)/\(tile.x)/\(tile.y).png")
                    #expect(answer.status == 200 && answer.body == Self.bytes("B", tile), "\(tile)")
                }
                #expect(
                    try await LoopbackSocket.get(port: port, path: "/tilesets/world/3/4/3.png").body
                        == Self.bytes("B", try TileID(z: 3, x: 4, y: 3)))
                let json = try await LoopbackSocket.get(port: port, path: "/tilesets/world.json")
                let object = try #require(try JSONSerialization.jsonObject(with: json.body) as? [String: Any])
                #expect(object["name"] as? String == "B")
                #expect(object["minzoom"] as? Int == 0 && object["maxzoom"] as? Int == 3)
                let bounds = try #require(object["bounds"] as? [Double])
                #expect(zip(bounds, [-170, -80, 170, 80]).allSatisfy { abs($0 - $1) < 1e-6 }, "\(bounds)")
            }
        }

        // How soon the switch comes is a matter for a benchmark, not this test: what is checked is
        // that it comes, and that no answer mixes the files.
        let all = answers.values
        #expect(
            all.filter { !$0.sentAfterSwitch }.count >= 8 && all.filter(\.sentAfterSwitch).count >= 8,
            "\(all.count) requests")
        #expect(
            all.contains { !$0.sentAfterSwitch && $0.body == Self.bytes("A", $0.tile) }, "some answers came from file A"
        )
        for answer in all {
            #expect(
                answer.status == 200, "\(answer.tile): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))"
            )
            if answer.sentAfterSwitch {
                #expect(answer.body == Self.bytes("B", answer.tile), "\(answer.tile) asked for after the switch")
            } else {
                #expect(
                    answer.body == Self.bytes("A", answer.tile) || answer.body == Self.bytes("B", answer.tile),
                    "\(answer.tile)")
            }
        }
    }

    /// A replacement that cannot be opened (half written) leaves the old file served, and is
    /// tried again at every check until it opens.
    @Test(arguments: ["mbtiles", "pmtiles"])
    func anUnreadableReplacementKeepsTheOldFileUntilAWholeOneComes(format: String) async throws {
        let (folder, served, next) = try Self.files(format)
        let broken = folder.url.appendingPathComponent("broken.\(format)")
        // The first bytes of file B and nothing else: neither format can open it.
        try Data(try Data(contentsOf: next).prefix(100)).write(to: broken)
        let server = ServerFixtures.server(ServerContent(tilesets: [try ServedTileset(url: served)]), folder: folder)
        let watcher = TilesetWatcher(server: server)
        watcher.check()
        let tile = try TileID(z: 2, x: 1, y: 1)
        try await ServerFixtures.test(server) { client in
            #expect(
                try await client.execute(uri: "/tilesets/world/2/1/1.png", method: .get) { $0.data }
                    == Self.bytes("A", tile))
            try Self.rename(broken, over: served)
            #expect(watcher.check() == [])
            #expect(watcher.check() == [], "tried again, still unreadable")
            #expect(
                try await client.execute(uri: "/tilesets/world/2/1/1.png", method: .get) { $0.data }
                    == Self.bytes("A", tile))
            #expect(
                try await client.execute(uri: "/tilesets/world.json", method: .get) { try $0.json() }["maxzoom"] as? Int
                    == 2)
            try Self.rename(next, over: served)
            #expect(watcher.check() == ["world"])
            #expect(
                try await client.execute(uri: "/tilesets/world/2/1/1.png", method: .get) { $0.data }
                    == Self.bytes("B", tile))
            #expect(
                try await client.execute(uri: "/tilesets/world.json", method: .get) { try $0.json() }["maxzoom"] as? Int
                    == 3)
        }
    }

    /// A file replaced at once after it was opened, before the watcher's first check (a deploy
    /// script's `mv` right after `/health` answers), is noticed by that first check: the watcher
    /// compares the path with the file as opened, not with its own first look.
    @Test(arguments: ["mbtiles", "pmtiles"])
    func aTilesetReplacedAtOnceAfterOpeningIsNoticedAtTheFirstCheck(format: String) async throws {
        let (folder, served, next) = try Self.files(format)
        let server = ServerFixtures.server(ServerContent(tilesets: [try ServedTileset(url: served)]), folder: folder)
        try Self.rename(next, over: served)
        let watcher = TilesetWatcher(server: server)
        #expect(watcher.check() == ["world"])
        #expect(watcher.check() == [], "unchanged since")
        let tile = try TileID(z: 2, x: 1, y: 1)
        try await ServerFixtures.test(server) { client async throws in
            #expect(
                try await client.execute(uri: "/tilesets/world/2/1/1.png", method: .get) { $0.data }
                    == Self.bytes("B", tile))
            #expect(
                try await client.execute(uri: "/tilesets/world.json", method: .get) { try $0.json() }["maxzoom"] as? Int
                    == 3)
        }
    }

    /// The modification time the rewritten file is given before and after: a whole second.
    private static let fixedTime = Date(timeIntervalSince1970: 1_700_000_000)

    /// A file written over in place (`cp new served`: the same inode, truncated and written), even
    /// with its modification time set back as `rsync --inplace --times` leaves it, is opened again:
    /// its status-change time moved.
    @Test(arguments: ["mbtiles", "pmtiles"])
    func aTilesetRewrittenInPlaceIsOpenedAgainEvenWithItsTimeSetBack(format: String) async throws {
        let (folder, served, next) = try Self.files(format)
        try FileManager.default.setAttributes([.modificationDate: Self.fixedTime], ofItemAtPath: served.path)
        let server = ServerFixtures.server(ServerContent(tilesets: [try ServedTileset(url: served)]), folder: folder)
        let watcher = TilesetWatcher(server: server)
        #expect(watcher.check() == [])
        let tile = try TileID(z: 2, x: 1, y: 1)
        try await ServerFixtures.test(server) { client in
            #expect(
                try await client.execute(uri: "/tilesets/world/2/1/1.png", method: .get) { $0.data }
                    == Self.bytes("A", tile))
            let before = try #require(FileIdentity(path: served.path))
            // As cp does: the same file, truncated and written; then its times set back.
            let bytes = try Data(contentsOf: next)
            let descriptor = open(served.path, O_WRONLY | O_TRUNC)
            #expect(descriptor >= 0)
            _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            try FileManager.default.setAttributes([.modificationDate: Self.fixedTime], ofItemAtPath: served.path)
            let after = try #require(FileIdentity(path: served.path))
            #expect(after.isSameFile(as: before) && after.modifiedNanoseconds == before.modifiedNanoseconds)
            #expect(watcher.check() == ["world"])
            #expect(
                try await client.execute(uri: "/tilesets/world/2/1/1.png", method: .get) { $0.data }
                    == Self.bytes("B", tile))
            #expect(
                try await client.execute(uri: "/tilesets/world.json", method: .get) { try $0.json() }["maxzoom"] as? Int
                    == 3)
        }
    }
}
