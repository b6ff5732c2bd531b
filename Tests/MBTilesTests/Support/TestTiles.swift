import Foundation
import MBTiles
import MapCore
import MapSQLite
import MapTestSupport

/// Tiles and files for the MBTiles tests.
enum TestTiles {
    /// Bytes that differ from tile to tile: the address in text.
    static func bytes(_ id: TileID) -> Data {
        Data("tile \(id)".utf8)
    }

    /// Seeded tiles at zooms 0 to `maximumZoom` (every tile of each zoom up to 3, then a
    /// sample): sizes from 0 to 3,000 bytes, one in four a copy of a shared "ocean" tile.
    static func seeded(maximumZoom: Int = 6, seed: UInt64 = 7) throws -> [TileID: Data] {
        var generator = SeededGenerator(seed: seed)
        let ocean = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        var tiles: [TileID: Data] = [:]
        for zoom in 0...maximumZoom {
            let side = 1 << zoom
            let ids =
                zoom <= 3
                ? try (0..<side * side).map { try TileID(z: zoom, x: $0 % side, y: $0 / side) }
                : try (0..<40).map { _ in
                    try TileID(
                        z: zoom, x: Int.random(in: 0..<side, using: &generator),
                        y: Int.random(in: 0..<side, using: &generator))
                }
            for id in ids {
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    tiles[id] = ocean
                } else {
                    tiles[id] = Data(
                        (0..<Int.random(in: 0...3_000, using: &generator)).map { _ in
                            UInt8.random(in: 0...255, using: &generator)
                        })
                }
            }
        }
        return tiles
    }

    /// The bytes of a file and of the files SQLite may put beside it, by name, for checking
    /// that something left them alone.
    static func snapshot(of url: URL) throws -> [String: Data] {
        let folder = url.deletingLastPathComponent()
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where name.hasPrefix(url.lastPathComponent) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    /// Runs SQL on a file through a connection of its own, outside any store.
    static func execute(_ sql: String, on url: URL) throws {
        try Database(path: url.path, mode: .readWrite).execute(sql)
    }

    /// The single integer a query returns, read through a connection of its own.
    static func integer(_ sql: String, in url: URL) throws -> Int64 {
        let statement = try Database(path: url.path).prepare(sql)
        try statement.step()
        return statement.int64(at: 0)
    }
}
