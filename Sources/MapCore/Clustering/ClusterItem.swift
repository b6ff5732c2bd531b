import Foundation

/// What a view draws at a zoom level: an annotation standing alone, or a cluster of them.
public enum ClusterItem: Hashable, Sendable {
    /// The input at `index` of the array the index was built from, at its own coordinate.
    case point(index: Int, coordinate: Coordinate)
    /// A cluster of inputs.
    case cluster(Cluster)

    /// Where to draw the item: the input's coordinate, or the cluster's centre.
    public var coordinate: Coordinate {
        switch self {
        case .point(_, let coordinate): coordinate
        case .cluster(let cluster): cluster.coordinate
        }
    }
}
