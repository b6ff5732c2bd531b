import Foundation

/// How a ``ClusterIndex`` groups annotations: the options of supercluster, in Mapwright's units.
///
/// Annotations closer than ``radiusPoints`` on screen at a zoom level merge into a cluster there;
/// above ``maximumZoom`` every annotation stands alone. For example:
///
/// ```swift
/// let options = try ClusterOptions(radiusPoints: 60, maximumZoom: 14)
/// let index = ClusterIndex(inputs, options: options)
/// ```
///
/// The initializer validates every value, so an index is never built from options it cannot honour.
public struct ClusterOptions: Hashable, Sendable {
    /// The deepest zoom level an index can cluster at: 30, as ``TileID/maximumZoom``.
    public static let zoomRange: ClosedRange<Int> = 0...TileID.maximumZoom

    /// The cluster radius in screen points, measured at tiles of ``tileSizePoints``. The default is 40.
    public let radiusPoints: Double
    /// The fewest annotations a cluster may hold, at least 2. The default is 2.
    public let minimumPoints: Int
    /// The shallowest zoom level that gets its own clusters; queries above it get its clusters.
    /// The default is 0.
    public let minimumZoom: Int
    /// The deepest zoom level that clusters; at `maximumZoom + 1` and above every annotation
    /// stands alone. In 0...30; the default is 16.
    public let maximumZoom: Int
    /// The size of a tile in screen points: the "extent" the radius is relative to. The default is
    /// 256, the tile size of ``WebMercator``, so the radius is in the points of a Mapwright view.
    public let tileSizePoints: Double

    /// The default options: a radius of 40 points at 256-point tiles, at least 2 annotations per
    /// cluster, clusters from zoom 0 to 16.
    public init() {
        radiusPoints = 40
        minimumPoints = 2
        minimumZoom = 0
        maximumZoom = 16
        tileSizePoints = 256
    }

    /// Creates clustering options, rejecting values an index cannot honour.
    ///
    /// - Parameters:
    ///   - radiusPoints: The cluster radius in screen points; finite and positive. The default is 40.
    ///   - minimumPoints: The fewest annotations per cluster, at least 2. The default is 2.
    ///   - minimumZoom: In 0...`maximumZoom`. The default is 0.
    ///   - maximumZoom: In 0...30. The default is 16.
    ///   - tileSizePoints: Finite and positive. The default is 256.
    /// - Throws: ``MapCoreError/invalidClusterRadius(points:)``,
    ///   ``MapCoreError/invalidMinimumClusterPoints(_:)``, ``MapCoreError/invalidClusterZoom(name:value:range:)``
    ///   or ``MapCoreError/invalidClusterTileSize(points:)``, naming the bad value.
    public init(
        radiusPoints: Double = 40,
        minimumPoints: Int = 2,
        minimumZoom: Int = 0,
        maximumZoom: Int = 16,
        tileSizePoints: Double = 256
    ) throws(MapCoreError) {
        guard radiusPoints.isFinite, radiusPoints > 0 else { throw .invalidClusterRadius(points: radiusPoints) }
        guard minimumPoints >= 2 else { throw .invalidMinimumClusterPoints(minimumPoints) }
        guard ClusterOptions.zoomRange.contains(maximumZoom) else {
            throw .invalidClusterZoom(name: "maximum zoom", value: maximumZoom, range: ClusterOptions.zoomRange)
        }
        guard (0...maximumZoom).contains(minimumZoom) else {
            throw .invalidClusterZoom(name: "minimum zoom", value: minimumZoom, range: 0...maximumZoom)
        }
        guard tileSizePoints.isFinite, tileSizePoints > 0 else { throw .invalidClusterTileSize(points: tileSizePoints) }
        self.radiusPoints = radiusPoints
        self.minimumPoints = minimumPoints
        self.minimumZoom = minimumZoom
        self.maximumZoom = maximumZoom
        self.tileSizePoints = tileSizePoints
    }

    /// The zoom level whose clusters a view at `zoomLevel` shows: `floor(zoomLevel)` clamped to
    /// `minimumZoom...maximumZoom + 1` (supercluster's rule). A NaN zoom level gets `minimumZoom`.
    ///
    /// Single renders, tiles and the viewer all go through this rule, so they agree on the clusters
    /// of any zoom level. For example, with the defaults 3.7 gives 3 and 20 gives 17.
    public func zoomLevel(forQuery zoomLevel: Double) -> Int {
        guard !zoomLevel.isNaN else { return minimumZoom }
        let floored = zoomLevel.rounded(.down)
        return Int(min(Double(maximumZoom + 1), max(Double(minimumZoom), floored)))
    }

    /// The cluster radius at a zoom level as a fraction of the world's width.
    func radiusWorldFraction(atZoom zoom: Int) -> Double {
        radiusPoints / (tileSizePoints * exp2(Double(zoom)))
    }
}
