import Foundation
import ImageCodec
import ImageCompare
import MBTiles
public import MapCore
import MapUtilities
public import TileSources
import Tilesets

/// Two tilesets compared tile by tile with the compare engine (pixelmatch): `mapwright tiles
/// diff`, and what a test calls to compare whole rendered regions.
///
/// ```swift
/// let difference = try TilesetDifference(TileSourceLocation.file(expected).open(), TileSourceLocation.file(actual).open(), threshold: 0.1)
/// #expect(difference.isEmpty)
/// ```
///
/// Tiles at the same address with the same bytes are identical; with different bytes both are
/// decoded (PNG or JPEG) and compared at `threshold`: no pixel over it makes them the same in
/// pixels (counted apart: their bytes differ, their images do not), else they differ by that many
/// pixels.
public struct TilesetDifference: Sendable {
    /// A tile both files have, whose images differ.
    public struct DifferentTile: Hashable, Sendable {
        /// The address.
        public var tile: TileID
        /// Pixels over the threshold (anti-aliased pixels not counted, as pixelmatch does).
        public var differentPixels: Int

        /// A tile and its count.
        public init(tile: TileID, differentPixels: Int) {
            self.tile = tile
            self.differentPixels = differentPixels
        }
    }

    /// Tiles with the same bytes in both.
    public var identicalCount = 0
    /// Tiles whose bytes differ but whose pixels do not, at the threshold.
    public var samePixels: [TileID] = []
    /// Tiles only the first file has.
    public var onlyInFirst: [TileID] = []
    /// Tiles only the second file has.
    public var onlyInSecond: [TileID] = []
    /// Tiles whose pixels differ.
    public var different: [DifferentTile] = []

    /// Whether the files show the same tiles: none missing, extra or different in pixels.
    public var isEmpty: Bool { onlyInFirst.isEmpty && onlyInSecond.isEmpty && different.isEmpty }

    /// Compares two tilesets.
    ///
    /// - Parameters:
    ///   - first: The expected tileset.
    ///   - second: The tileset compared with it.
    ///   - threshold: pixelmatch's colour threshold, 0 to 1. The default is 0.1.
    /// - Throws: ``TilesetToolsError/undecodableTile(path:tile:reason:)`` for differing tiles that are
    ///   not PNG or JPEG images; ``TilesetToolsError/tileSizesDiffer(first:firstSize:second:secondSize:)``
    ///   for tiles of different pixel sizes; the files' errors.
    public init(_ first: any TileSource, _ second: any TileSource, threshold: Double = 0.1) throws(TilesetToolsError) {
        let options = DiffOptions(threshold: threshold)
        var difference = TilesetDifference()
        try TilesetToolsError.wrapping {
            try first.forEachTile { tile, data in
                guard let other = try second.tile(at: tile) else {
                    difference.onlyInFirst.append(tile)
                    return
                }
                if other == data {
                    difference.identicalCount += 1
                    return
                }
                let expected = try Self.image(data, path: first.displayPath, tile: tile)
                let actual = try Self.image(other, path: second.displayPath, tile: tile)
                guard expected.size == actual.size else {
                    throw TilesetToolsError.tileSizesDiffer(
                        first: first.displayPath, firstSize: "\(expected.size)", second: second.displayPath,
                        secondSize: "\(actual.size)")
                }
                let result: DiffResult
                do { result = try compare(expected, actual, options: options) } catch {
                    throw TilesetToolsError.undecodableTile(
                        path: second.displayPath, tile: "\(tile)", reason: "\(error)")
                }
                if result.differentPixels == 0 {
                    difference.samePixels.append(tile)
                } else {
                    difference.different.append(DifferentTile(tile: tile, differentPixels: result.differentPixels))
                }
            }
            try second.forEachTile { tile, _ in
                if try first.tile(at: tile) == nil { difference.onlyInSecond.append(tile) }
            }
        }
        self = difference
    }

    private init() {}

    /// A tile's image, PNG or JPEG.
    static func image(_ data: Data, path: String, tile: TileID) throws(TilesetToolsError) -> RGBAImage {
        let format = TileFormat(sniffing: data)
        guard format == .png || format == .jpg else {
            throw .undecodableTile(path: path, tile: "\(tile)", reason: "it is neither PNG nor JPEG")
        }
        do throws(ImageCodecError) {
            return format == .png ? try RGBAImage(pngData: data) : try RGBAImage(jpegData: data)
        } catch {
            throw .undecodableTile(path: path, tile: "\(tile)", reason: error.description)
        }
    }
}
