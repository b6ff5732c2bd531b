import Foundation

/// One annotation given to a ``ClusterIndex``: where it is and whom it may cluster with.
///
/// The index refers to inputs by their position in the array it was built from, so callers keep
/// their own payloads (photos, places) in a parallel array.
public struct ClusterInput: Hashable, Sendable {
    /// Where the annotation stands.
    public var coordinate: Coordinate
    /// Annotations cluster only with annotations of the same identifier (MapKit's
    /// `clusteringIdentifier`); `nil` never clusters.
    public var clusteringIdentifier: String?

    /// Creates a clustering input.
    ///
    /// - Parameters:
    ///   - coordinate: Where the annotation stands.
    ///   - clusteringIdentifier: Whom it may cluster with; `nil` keeps it alone at every zoom.
    public init(coordinate: Coordinate, clusteringIdentifier: String?) {
        self.coordinate = coordinate
        self.clusteringIdentifier = clusteringIdentifier
    }
}
