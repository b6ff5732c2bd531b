import MapCore
public import MapRenderer
import PhotoSources

extension PhotoMapBuilder {
    /// What tiles of a photo map draw over its style (see ``MapTileRenderer``): the photos' pins
    /// in their photographers' colours, the selected photo's callout with its thumbnail (made at
    /// the request's scale), the overlays and accuracy circles, and one cluster index for the
    /// whole tileset; the same annotations `mapwright render` draws for the request. The
    /// request's framing and size play no part: a tileset covers what its cover says.
    ///
    /// Clustering: ``PhotoMapRequest/Clustering/automatic`` and ``PhotoMapRequest/Clustering/always``
    /// both give the index, queried at each zoom (whether pins would overlap depends on the zoom,
    /// and the index answers that zoom by zoom); ``PhotoMapRequest/Clustering/never`` and the
    /// grouping ``PhotoMapRequest/ClusterGrouping/none`` give none.
    ///
    /// - Parameter warnings: Gets the problems that do not stop the tiles: a thumbnail that cannot
    ///   be made or cached.
    /// - Throws: ``PhotoMapError`` for a selection that matches nothing.
    public func tileContent(for request: PhotoMapRequest, warnings: inout [PhotoMapWarning]) throws(PhotoMapError)
        -> MapTileContent
    {
        let (selected, annotations, overlays) = try content(for: request, warnings: &warnings)
        let clusters: ClusterIndex?
        switch (request.clustering, request.clusterGrouping) {
        case (.never, _), (_, .none):
            clusters = nil
        case (.automatic, _), (.always, _):
            clusters = ClusterIndex(
                annotations.map {
                    ClusterInput(coordinate: $0.coordinate, clusteringIdentifier: $0.clusteringIdentifier)
                })
        }
        return MapTileContent(
            annotations: annotations, clusterIndex: clusters, clusterMemberName: "photos",
            selectedAnnotationID: selected?.id,
            overlays: overlays)
    }

    /// ``tileContent(for:warnings:)`` without the warnings.
    public func tileContent(for request: PhotoMapRequest) throws(PhotoMapError) -> MapTileContent {
        var warnings: [PhotoMapWarning] = []
        return try tileContent(for: request, warnings: &warnings)
    }
}
