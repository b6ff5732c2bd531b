public import Foundation
import ImageCodec
public import MapData
public import MapStyle
public import MapUtilities

/// An error from rendering, naming the file, source or layer it concerns.
public enum RendererError: Error, Sendable {
    /// Cairo could not create or finish a surface.
    case canvas(reason: String)
    /// A style layer names a source the style does not define.
    case unknownSource(layer: String, source: String)
    /// The map's data could not be read: a source, the basemap, raster or vector tiles (the
    /// message is the data's own).
    case mapData(MapDataError)
    /// The style is invalid or needs something not configured (a raster source).
    case style(StyleError)
    /// The output could not be written.
    case output(path: String, reason: String)
    /// The requested image is larger than the renderer allows.
    case imageTooLarge(width: Int, height: Int, limit: Int)
    /// The requested image rounds to no pixel on a side (a view under half a pixel wide or high).
    case emptyImage(width: Int, height: Int)
    /// Tile options out of range (size, scale, metatile size, buffer), a cluster index not built
    /// over the annotations, or tiles outside the world.
    case invalidTileOptions(reason: String)
    /// A tile that could not be encoded, named `z/x/y`.
    case encoding(tile: String, reason: String)
}

extension RendererError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .canvas(let reason):
            return "cannot draw: \(reason)"
        case .unknownSource(let layer, let source):
            return "style layer '\(layer)' uses source '\(source)', which the style does not define"
        case .mapData(let error):
            return error.description
        case .style(let error):
            return error.description
        case .output(let path, let reason):
            return "\(path): \(reason)"
        case .imageTooLarge(let width, let height, let limit):
            return "an image of \(width)x\(height) pixels is larger than \(limit) pixels per side"
        case .emptyImage(let width, let height):
            return "an image of \(width)x\(height) pixels is empty: each side needs at least one pixel"
        case .invalidTileOptions(let reason):
            return "tiles: \(reason)"
        case .encoding(let tile, let reason):
            return "tile \(tile): cannot encode it: \(reason)"
        }
    }

    public var errorDescription: String? { description }
}

/// Bad input: exit status 2.
extension RendererError: ExitStatusError {}

extension RendererError {
    /// Runs `body`, which reads the map's data, with its error as ``mapData(_:)``: where a
    /// render fails on data.
    static func readingData<T>(_ body: () throws(MapDataError) -> T) throws(RendererError) -> T {
        do { return try body() } catch { throw .mapData(error) }
    }
}
