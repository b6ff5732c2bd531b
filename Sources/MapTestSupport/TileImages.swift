public import Foundation
public import ImageCodec
public import MapCore

/// Tile images made by the tests: 16 x 16 pixels of one colour that encodes the tile address.
public enum TileImages {
    public static func image(for tile: TileID) -> RGBAImage {
        RGBAImage(width: 16, height: 16, filledWith: colour(for: tile))
    }

    public static func colour(for tile: TileID) -> RGBAPixel {
        RGBAPixel(red: UInt8(tile.z * 20), green: UInt8(tile.x * 16 % 256), blue: UInt8(tile.y * 16 % 256))
    }

    public static func png(for tile: TileID) throws -> Data {
        try image(for: tile).pngData()
    }

    /// Writes PNG tiles as `root/z/x/y.png`, as a static tile server lays them out.
    public static func writeFolder(_ tiles: [TileID], to root: URL, suffix: String = "") throws {
        for tile in tiles {
            let folder = root.appendingPathComponent("\(tile.z)/\(tile.x)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try png(for: tile).write(to: folder.appendingPathComponent("\(tile.y)\(suffix).png"))
        }
    }
}
