public import Foundation

/// An error raised when a map-core value is given something it cannot represent.
///
/// Every case names the offending value, so a message can be shown to a person as is:
///
/// ```swift
/// do { _ = try Coordinate(latitude: 91, longitude: 0) }
/// catch { print(error) } // latitude 91.0 is outside [-90, 90]
/// ```
public enum MapCoreError: Error, Hashable, Sendable {
    /// A latitude that is not finite or outside [-90, 90] degrees.
    case invalidLatitude(Double)
    /// A longitude that is not finite or outside [-180, 180] degrees.
    case invalidLongitude(Double)
    /// A span delta that is not finite or outside its range; `name` is the field.
    case invalidSpan(name: String, value: Double, range: ClosedRange<Double>)
    /// A distance that is not finite or is negative; `name` is the field.
    case invalidDistance(name: String, meters: Double)
    /// A camera field that is not finite or outside its range; `name` is the field.
    case invalidCamera(name: String, value: Double, range: ClosedRange<Double>)
    /// A viewport size that is not finite or not positive.
    case invalidViewportSize(width: Double, height: Double)
    /// A screen scale that is not finite or outside [1, 4].
    case invalidScale(Double)
    /// A zoom level that is not finite or outside its range.
    case invalidZoomLevel(Double, range: ClosedRange<Double>)
    /// A fly-over curvature (``FlightPath/curvature``, the ρ of van Wijk and Nuij) that is not
    /// finite or not positive.
    case invalidCurvature(Double)
    /// A tile address outside the tile grid at its zoom.
    case invalidTile(z: Int, x: Int, y: Int)
    /// A quadkey with characters other than 0–3, or longer than the deepest zoom.
    case invalidQuadkey(String)
    /// Edge padding that leaves no room in the viewport.
    case paddingExceedsViewport(width: Double, height: Double)
    /// An operation that needs at least one coordinate was given none.
    case noCoordinates
    /// A distance below the smallest an operation accepts; `name` is the field.
    case distanceTooShort(name: String, meters: Double, minimumMeters: Double)
    /// A tile cover with more tiles than the caller's limit; `count` is how many it would have.
    case tooManyTiles(count: Int, limit: Int)
    /// A metatile size (tiles per side) outside the sizes allowed.
    case invalidMetatileSize(Int, range: ClosedRange<Int>)
    /// A metatile address outside the grid of metatiles at its zoom.
    case invalidMetatile(z: Int, x: Int, y: Int, size: Int)
    /// A zoom range outside the tile zoom levels (0...30).
    case invalidZoomRange(ClosedRange<Int>)
    /// A shard that is not one of `count` shards (`index` counts from 0), or a count below 1.
    case invalidShard(index: Int, count: Int)
    /// A cluster radius that is not finite or not positive, in screen points.
    case invalidClusterRadius(points: Double)
    /// A tile size for clustering that is not finite or not positive, in screen points.
    case invalidClusterTileSize(points: Double)
    /// A minimum number of points per cluster below 2.
    case invalidMinimumClusterPoints(Int)
    /// A clustering zoom outside its range; `name` is the option.
    case invalidClusterZoom(name: String, value: Int, range: ClosedRange<Int>)
    /// A cluster id that no cluster of the index has.
    case unknownCluster(id: Int)
}

extension MapCoreError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .invalidLatitude(let value):
            return "latitude \(value) is outside [-90, 90]"
        case .invalidLongitude(let value):
            return "longitude \(value) is outside [-180, 180]"
        case .invalidSpan(let name, let value, let range):
            return "\(name) \(value) is outside [\(range.lowerBound), \(range.upperBound)]"
        case .invalidDistance(let name, let meters):
            return "\(name) \(meters) m is not a finite, non-negative distance"
        case .invalidCamera(let name, let value, let range):
            return "\(name) \(value) is outside [\(range.lowerBound), \(range.upperBound)]"
        case .invalidViewportSize(let width, let height):
            return "viewport size \(width)x\(height) points is not positive"
        case .invalidScale(let value):
            return "scale \(value) is outside [1, 4]"
        case .invalidZoomLevel(let value, let range):
            return "zoom level \(value) is outside [\(range.lowerBound), \(range.upperBound)]"
        case .invalidCurvature(let value):
            return "flight curvature \(value) is not a positive number"
        case .invalidTile(let z, let x, let y):
            return "tile \(z)/\(x)/\(y) is outside the tile grid"
        case .invalidQuadkey(let key):
            return "quadkey '\(key)' is not made of the digits 0-3 (at most 30 of them)"
        case .paddingExceedsViewport(let width, let height):
            return "edge padding leaves \(width)x\(height) points of the viewport: nothing fits"
        case .noCoordinates:
            return "no coordinates were given"
        case .distanceTooShort(let name, let meters, let minimumMeters):
            return "\(name) \(meters) m is shorter than the minimum of \(minimumMeters) m"
        case .tooManyTiles(let count, let limit):
            return "the cover needs \(count) tiles, more than the limit of \(limit)"
        case .invalidMetatileSize(let size, let range):
            return "metatile size \(size) is outside [\(range.lowerBound), \(range.upperBound)] tiles per side"
        case .invalidMetatile(let z, let x, let y, let size):
            return "metatile \(z)/\(x)/\(y) of \(size)x\(size) tiles is outside the metatile grid"
        case .invalidZoomRange(let range):
            return "zoom range \(range.lowerBound)-\(range.upperBound) is outside 0-\(TileID.maximumZoom)"
        case .invalidShard(let index, let count):
            return "shard \(index)/\(count) is not one of \(count) shards numbered from 0"
        case .invalidClusterRadius(let points):
            return "cluster radius \(points) points must be positive"
        case .invalidClusterTileSize(let points):
            return "cluster tile size \(points) points must be positive"
        case .invalidMinimumClusterPoints(let count):
            return "minimum points \(count) must be at least 2"
        case .invalidClusterZoom(let name, let value, let range):
            return "\(name) \(value) is outside [\(range.lowerBound), \(range.upperBound)]"
        case .unknownCluster(let id):
            return "no cluster has id \(id) in this index"
        }
    }

    public var errorDescription: String? { description }
}
