public import Foundation
public import MapCore
import MapUtilities

/// A tile's bytes uncompressed and cut into its layers, none decoded yet: the first step of
/// ``VectorTile/init(data:tile:skippingBadFeatures:)``, for a caller that decodes the layers of
/// several tiles on every core at once (one flat list of layers, not a tile at a time):
///
/// ```swift
/// let undecoded = try UndecodedVectorTile(data: data, tile: tile)
/// let layers = (0..<undecoded.layerCount).map { undecoded.layer($0, skippingBadFeatures: true) }
/// let vectorTile = try VectorTile(undecoded, layers: layers)
/// ```
///
/// Errors are those of the one-step decoding, in the same order: a layer's error before one of
/// the tile's own fields after it.
public struct UndecodedVectorTile: Sendable {
    /// The uncompressed protocol buffer bytes.
    let bytes: [UInt8]
    /// Each layer's message (the tile's field 3), in the tile's order.
    let layerRanges: [Range<Int>]
    let location: VectorTileError.Location
    /// An error in the tile's own fields, met after every layer before it.
    let tileError: VectorTileError?

    /// The number of layers the tile holds.
    public var layerCount: Int { layerRanges.count }

    /// The tile's uncompressed bytes: the count of bytes its layers are decoded from.
    public var byteCount: Int { bytes.count }

    /// Uncompresses the tile's bytes (gzip or zlib, as ``VectorTile/init(data:tile:skippingBadFeatures:)``
    /// accepts them) and finds its layers.
    ///
    /// - Parameter tile: The tile's address, only to name it in errors. The default is none.
    /// - Throws: ``VectorTileError`` for data that does not decompress.
    public init(data: Data, tile: TileID? = nil) throws(VectorTileError) {
        let location = VectorTileError.Location(tile: tile)
        var bytes = [UInt8](data)
        if Gzip.isGzip(bytes) || Gzip.isZlib(bytes) {
            do {
                bytes = try Gzip.decompress(bytes, limitBytes: VectorTile.maximumDecompressedByteCount)
            } catch {
                throw .invalidCompression(reason: error.reason, location: location)
            }
        }
        self.init(protobuf: bytes, location: location)
    }

    /// Finds the layers of uncompressed protocol buffer bytes; a broken field of the tile's own is
    /// kept for ``VectorTile/init(_:layers:)`` to throw after the layers before it.
    init(protobuf bytes: [UInt8], location: VectorTileError.Location) {
        var reader = ProtobufReader(bytes: bytes, range: bytes.indices, location: location)
        var ranges: [Range<Int>] = []
        var tileError: VectorTileError?
        do throws(VectorTileError) {
            while let field = try reader.nextField() {
                guard field.number == 3 else {
                    try reader.skip(field)
                    continue
                }
                ranges.append(try reader.readLengthDelimited(field, named: "Tile.layers"))
            }
        } catch {
            tileError = error
        }
        self.bytes = bytes
        self.layerRanges = ranges
        self.location = location
        self.tileError = tileError
    }

    /// Decodes the layer at `index` (in `0..<layerCount`); safe to call from any thread.
    ///
    /// - Parameter skippingBadFeatures: As ``VectorTile/init(data:tile:skippingBadFeatures:)``'s.
    public func layer(_ index: Int, skippingBadFeatures: Bool = false) -> Result<VectorTileLayer, VectorTileError> {
        var layerLocation = location
        layerLocation.layerIndex = index
        do throws(VectorTileError) {
            return .success(
                try VectorTileLayer(
                    bytes: bytes, range: layerRanges[index], location: layerLocation,
                    skippingBadFeatures: skippingBadFeatures))
        } catch {
            return .failure(error)
        }
    }
}

extension VectorTile {
    /// The tile of `undecoded` from its layers, each decoded by
    /// ``UndecodedVectorTile/layer(_:skippingBadFeatures:)`` (one result per layer, in order).
    ///
    /// - Throws: The first layer's error, in the tile's order, then an error of the tile's own fields.
    public init(_ undecoded: UndecodedVectorTile, layers results: [Result<VectorTileLayer, VectorTileError>])
        throws(VectorTileError)
    {
        precondition(results.count == undecoded.layerCount, "one result per layer")
        var layers: [VectorTileLayer] = []
        layers.reserveCapacity(results.count)
        for result in results {
            switch result {
            case .success(let layer): layers.append(layer)
            case .failure(let error): throw error
            }
        }
        if let tileError = undecoded.tileError { throw tileError }
        self.init(layers: layers)
    }
}
