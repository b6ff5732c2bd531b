public import Foundation
public import ImageCodec
public import MapCore

/// One tile's pixels, cut from its metatile.
public struct RenderedTile: Hashable, Sendable {
    /// The tile's address.
    public let tile: TileID
    /// Its pixels: ``TileRenderOptions/tileSizePixels`` square, straight-alpha RGBA.
    public let image: RGBAImage

    public init(tile: TileID, image: RGBAImage) {
        self.tile = tile
        self.image = image
    }

    /// Whether every pixel is the same (open sea, empty overlay tiles): such tiles encode once
    /// per colour (see ``MapTileRenderer/pngData(for:encoding:)``).
    public var isUniform: Bool {
        image.pixels.withUnsafeBytes { bytes in
            let words = bytes.bindMemory(to: UInt32.self)
            guard let first = words.first else { return true }
            return !words.contains { $0 != first }
        }
    }
}

/// How tiles are encoded: PNG, RGBA or palette.
public struct TilePNGEncoding: Hashable, Sendable {
    /// zlib's level, 0 to 9. The default is 1, the fastest (ISA-L's igzip: several times
    /// libdeflate's speed, tiles about a tenth larger than at 6).
    public var compressionLevel: Int
    /// Whether tiles are reduced to an 8-bit palette, as `render --palette` does (smaller, lossy
    /// beyond 256 colours, deterministic). The default is false.
    public var palette: Bool

    /// Creates an encoding; PNG level 1, RGBA, by default.
    public init(compressionLevel: Int = 1, palette: Bool = false) {
        self.compressionLevel = compressionLevel
        self.palette = palette
    }
}

extension TilePNGEncoding {
    /// Throws unless the compression level is one of zlib's, 0 to 9.
    func check(_ tile: TileID) throws(RendererError) {
        guard (0...9).contains(compressionLevel) else {
            throw .encoding(tile: tile.description, reason: "compression level \(compressionLevel) is outside 0-9")
        }
    }
}

/// One tile encoded.
public struct EncodedTile: Hashable, Sendable {
    /// The tile's address.
    public let tile: TileID
    /// The tile's PNG file, byte for byte the same for the same inputs.
    public let data: Data

    public init(tile: TileID, data: Data) {
        self.tile = tile
        self.data = data
    }
}
