import Foundation

/// A group of annotations drawn as one marker at a zoom level (MapKit's MKClusterAnnotation).
public struct Cluster: Hashable, Sendable, Identifiable {
    /// The cluster's stable identity in its index.
    public let id: ClusterID
    /// The centre of its annotations in Web Mercator, each weighted once.
    public let coordinate: Coordinate
    /// How many annotations it holds, at least ``ClusterOptions/minimumPoints``.
    public let count: Int
    /// The zoom level at which it breaks apart into its ``ClusterIndex/children(of:)``: zoom in to
    /// this level on a tap to see them.
    public let expansionZoom: Int
    /// The identifier its annotations share.
    public let clusteringIdentifier: String?

    /// Creates a cluster; ``ClusterIndex`` makes them.
    public init(id: ClusterID, coordinate: Coordinate, count: Int, expansionZoom: Int, clusteringIdentifier: String?) {
        self.id = id
        self.coordinate = coordinate
        self.count = count
        self.expansionZoom = expansionZoom
        self.clusteringIdentifier = clusteringIdentifier
    }

    /// The count as a cluster marker shows it, by supercluster's `point_count_abbreviated` rule:
    /// below 1,000 in full, below 10,000 in thousands to one decimal, else in whole thousands.
    ///
    /// For example, 16 is "16", 1,234 is "1.2k", 2,000 is "2k", 34,499 is "34k" and 1,000,000 is
    /// "1000k".
    public var abbreviatedCount: String { Cluster.abbreviatedCount(count) }

    /// A count abbreviated as ``abbreviatedCount`` does.
    public static func abbreviatedCount(_ count: Int) -> String {
        if count >= 10_000 { return "\(Int((Double(count) / 1000).rounded()))k" }
        if count >= 1000 {
            let tenths = Int((Double(count) / 100).rounded())
            return tenths % 10 == 0 ? "\(tenths / 10)k" : "\(tenths / 10).\(tenths % 10)k"
        }
        return String(count)
    }
}
