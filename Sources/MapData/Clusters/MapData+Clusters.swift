package import MapCore
package import MapStyle
import Synchronization

extension MapData {
    /// A clustered GeoJSON source's index, and the source point of each input.
    package struct GeoJSONClusters: Sendable {
        package let index: ClusterIndex
        package let points: [(feature: Int, point: MapPoint)]
    }

    /// The cluster index of a clustered GeoJSON source (what the renderer's `StylePainter.clusteredFeatures` draws),
    /// built once per source and clustering from `make`'s inputs; nil when the clustering's
    /// options cannot cluster (a radius of 0: every point stands alone).
    package func clusterIndex(
        key: String, clustering: GeoJSONSource.Clustering,
        make: () -> ([ClusterInput], [(feature: Int, point: MapPoint)])
    ) -> GeoJSONClusters? {
        let key = "\(key)#\(clustering.radius)-\(clustering.maxZoom)-\(clustering.minPoints)"
        if let kept = caches.withLock({ $0.clusterIndexes[key] }) { return kept }
        let made: GeoJSONClusters?
        if let options = try? ClusterOptions(
            radiusPoints: clustering.radius, minimumPoints: clustering.minPoints,
            maximumZoom: min(clustering.maxZoom, ClusterOptions.zoomRange.upperBound),
            tileSizePoints: 512)
        {
            let (inputs, points) = make()
            made = GeoJSONClusters(index: ClusterIndex(inputs, options: options), points: points)
        } else {
            made = nil
        }
        caches.withLock { $0.clusterIndexes[key] = made }
        return made
    }
}
