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

    /// The count as a cluster marker shows it: supercluster's `point_count_abbreviated` rule
    /// (below 1,000 in full, below 10,000 in thousands to one decimal, else in whole thousands),
    /// extended to millions the same way, which supercluster does not have.
    ///
    /// For example, 16 is "16", 1,234 is "1.2k", 2,000 is "2k", 34,499 is "34k", 1,234,567 is
    /// "1.2M" and 3,000,000 is "3M".
    public var abbreviatedCount: String { Cluster.abbreviatedCount(count) }

    /// A count abbreviated as ``abbreviatedCount`` does.
    public static func abbreviatedCount(_ count: Int) -> String {
        func abbreviated(_ value: Double, unit: String) -> String {
            if value >= 10 { return "\(Int(value.rounded()))\(unit)" }
            let tenths = Int((value * 10).rounded())
            return tenths % 10 == 0 ? "\(tenths / 10)\(unit)" : "\(tenths / 10).\(tenths % 10)\(unit)"
        }
        if (Double(count) / 1000).rounded() >= 1000 { return abbreviated(Double(count) / 1_000_000, unit: "M") }
        if count >= 1000 { return abbreviated(Double(count) / 1000, unit: "k") }
        return String(count)
    }
}
