import Foundation

/// The identity of a cluster in one ``ClusterIndex``.
///
/// Ids number the clusters in the order the index creates them: those of the deepest zoom first,
/// and within a zoom in the order of its sweep. The same inputs in the same order with the same
/// options give the same ids, so an id can travel in a URL from a tile to the viewer. A cluster
/// keeps its id at every zoom that shows it unchanged.
public struct ClusterID: Hashable, Sendable, RawRepresentable, Codable, CustomStringConvertible {
    /// The cluster's number in its index, from 0.
    public let rawValue: Int

    /// Creates an id from its number; the index answers an id it never made with
    /// ``MapCoreError/unknownCluster(id:)``.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    public var description: String { String(rawValue) }
}
