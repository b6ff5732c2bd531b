import Foundation
import ImageCodec
import MapCore
import Synchronization
import TileSources

/// Turning tile bytes into pixels: PNG or JPEG, told apart by their first bytes.
enum RasterImageDecoding {
    /// Decodes one tile's bytes.
    ///
    /// - Parameter source: The URL or file the bytes came from, for the error.
    /// - Throws: ``MapDataError/undecodableRasterTile(tile:source:reason:)``.
    static func image(from data: Data, tile: TileID, source: String) throws(MapDataError) -> RGBAImage {
        do {
            switch TileFormat(sniffing: data) {
            case .png: return try RGBAImage(pngData: data)
            case .jpg: return try RGBAImage(jpegData: data)
            case .webp:
                throw MapDataError.undecodableRasterTile(
                    tile: tile, source: source, reason: "WebP tiles are not supported")
            case .pbf:
                throw MapDataError.undecodableRasterTile(tile: tile, source: source, reason: "it is a vector tile")
            case nil:
                throw MapDataError.undecodableRasterTile(
                    tile: tile, source: source, reason: TileFormat.unrecognisedReason(data))
            }
        } catch let error as MapDataError {
            throw error
        } catch {
            let reason =
                switch error as? ImageCodecError {
                case .unreadablePNG(_, let reason)?, .unreadableJPEG(_, let reason)?: reason
                default: "\(error)"
                }
            throw .undecodableRasterTile(tile: tile, source: source, reason: reason)
        }
    }

    /// Decodes many tiles on every core; the first failure, in tile order, is thrown.
    ///
    /// - Parameter source: The URL or file each tile's bytes came from.
    static func images(
        from tiles: [TileID: Data],
        source: (TileID) -> String
    ) throws(MapDataError) -> [TileID: RGBAImage] {
        var images: [TileID: RGBAImage] = [:]
        for (tile, result) in results(from: tiles, source: source).sorted(by: { $0.key < $1.key }) {
            images[tile] = try result.get()
        }
        return images
    }

    /// Decodes many tiles on every core, keeping each tile's success or failure.
    ///
    /// - Parameter source: The URL or file each tile's bytes came from.
    static func results(
        from tiles: [TileID: Data],
        source: (TileID) -> String
    ) -> [TileID: Result<RGBAImage, MapDataError>] {
        let work = Array(tiles)
        let sources = work.map { source($0.key) }
        let slots = ResultSlots<RGBAImage>(count: work.count)
        DispatchQueue.concurrentPerform(iterations: work.count) { index in
            let (tile, data) = work[index]
            slots[index] = Result { () throws(MapDataError) in try image(from: data, tile: tile, source: sources[index])
            }
        }
        var results: [TileID: Result<RGBAImage, MapDataError>] = [:]
        for (index, result) in slots.values.enumerated() {
            results[work[index].key] = result
        }
        return results
    }
}

/// One result slot per task, filled from many threads, read once all are done.
final class ResultSlots<Value: Sendable>: Sendable {
    private let slots: Mutex<[Result<Value, MapDataError>?]>

    init(count: Int) {
        slots = Mutex(Array(repeating: nil, count: count))
    }

    subscript(index: Int) -> Result<Value, MapDataError>? {
        get { slots.withLock { $0[index] } }
        set { slots.withLock { $0[index] = newValue } }
    }

    /// Every slot's result; a slot never filled is a programming error.
    var values: [Result<Value, MapDataError>] {
        slots.withLock { $0.map { $0! } }
    }
}
