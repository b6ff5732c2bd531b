import Foundation
import MapCore
import MapRenderer
package import MapStyle

/// Clusters of different clustering identifiers (different photographers) at one spot: each
/// cluster is clustered with its own kind only, so two can stand on the same point and the one
/// drawn last would hide the other. They are spread on a small ring around their common centre
/// instead, like a spiderfied marker, just far enough apart that their discs (halos included)
/// keep ``spreadGapPoints`` between them.
extension AnnotationLayout {
    /// The clear space kept between spread cluster discs, halos included, in points: 2.
    static let spreadGapPoints: Double = 2

    /// A cluster marker before spreading: where the index puts it and how far its halo reaches.
    struct ClusterSpot {
        let cluster: Cluster
        /// Its centre in view points, on the cluster's coordinate.
        let center: ViewPoint
        /// Its halo's radius in points (see ``ClusterMarker/frame(count:center:style:)``).
        let outerRadius: Double

        /// Orders spots whose directions from a centre do not tell them apart.
        var sortKey: (String, Int) { (cluster.clusteringIdentifier ?? "", cluster.id.rawValue) }
    }

    /// Where each cluster marker is drawn, in the order given: its own centre when no cluster of
    /// another clustering identifier overlaps it, else its place on a ring (see
    /// ``ringCenters(of:)``). A cluster's group is itself and the clusters of other identifiers
    /// it overlaps; it takes its place on the ring of the largest group among its own and its
    /// neighbours' (ties: the first by identifier).
    ///
    /// A cluster's place depends only on the clusters within two steps of it, never on the
    /// view's edges, so an image and a grid of tiles of the same area spread them alike. When the
    /// clusters of one spot all overlap one another (the usual case), or form a chain of three,
    /// they share one ring and no two of them overlap; in longer chains (dense clusters of many
    /// photographers) some may still touch.
    static func spreadCenters(of spots: [ClusterSpot]) -> [ViewPoint] {
        // Spots in a grid of cells as wide as the farthest two halos can overlap, so each spot
        // only meets the spots of its own and the eight cells around it.
        guard let widest = spots.map(\.outerRadius).max() else { return [] }
        let cellSize = 2 * widest + spreadGapPoints
        func cell(_ point: ViewPoint) -> (x: Int, y: Int) {
            (Int((point.x / cellSize).rounded(.down)), Int((point.y / cellSize).rounded(.down)))
        }
        var grid: [Int: [Int: [Int]]] = [:]
        for (index, spot) in spots.enumerated() {
            let (x, y) = cell(spot.center)
            grid[x, default: [:]][y, default: []].append(index)
        }
        let groups = spots.indices.map { index -> [Int] in
            let spot = spots[index]
            let (x, y) = cell(spot.center)
            var others: [Int] = []
            for column in (x - 1)...(x + 1) {
                for row in (y - 1)...(y + 1) {
                    for other in grid[column]?[row] ?? []
                    where other != index
                        && spots[other].cluster.clusteringIdentifier != spot.cluster.clusteringIdentifier
                        && overlap(spot, spots[other])
                    {
                        others.append(other)
                    }
                }
            }
            // In one order whatever the query's order, so every member of a group, in an image
            // or a tile, computes the same ring to the last bit.
            return ([index] + others).sorted { spots[$0].sortKey < spots[$1].sortKey }
        }
        // Each cluster takes its place on the ring of the largest group among its own and its
        // neighbours' (ties: the first by identifier), so a chain of three overlapping clusters
        // shares the middle one's ring.
        return spots.indices.map { index in
            guard groups[index].count > 1 else { return spots[index].center }
            let leader = groups[index].max { a, b in
                groups[a].count != groups[b].count
                    ? groups[a].count < groups[b].count : spots[a].sortKey > spots[b].sortKey
            }!
            let group = groups[leader]
            return ringCenters(of: group.map { spots[$0] })[group.firstIndex(of: index)!]
        }
    }

    /// Whether two cluster markers' halos come closer than ``spreadGapPoints``.
    static func overlap(_ a: ClusterSpot, _ b: ClusterSpot) -> Bool {
        hypot(a.center.x - b.center.x, a.center.y - b.center.y) < a.outerRadius + b.outerRadius + spreadGapPoints
    }

    /// Centres on one ring for a group of cluster markers, in the order given: evenly spaced
    /// around the group's mean centre, each member in the direction it already lay in (members on
    /// the same point go in order of clustering identifier, the first to the left, then
    /// clockwise), the ring just wide enough that no two halos come closer than
    /// ``spreadGapPoints``.
    static func ringCenters(of group: [ClusterSpot]) -> [ViewPoint] {
        let count = Double(group.count)
        guard group.count > 1 else { return group.map(\.center) }
        let center = ViewPoint(
            x: group.map(\.center.x).reduce(0, +) / count, y: group.map(\.center.y).reduce(0, +) / count)
        let angles = group.map { atan2($0.center.y - center.y, $0.center.x - center.x) }
        let coincident = group.allSatisfy { hypot($0.center.x - center.x, $0.center.y - center.y) < 0.5 }
        // Slot k of the ring is member order[k].
        let order = group.indices.sorted { a, b in
            if !coincident, angles[a] != angles[b] { return angles[a] < angles[b] }
            return group[a].sortKey < group[b].sortKey
        }
        let step = 2 * Double.pi / count
        // The ring's turn that keeps members nearest their own directions (a circular mean).
        var start = Double.pi
        if !coincident {
            let offsets = order.enumerated().map { slot, member in angles[member] - Double(slot) * step }
            start = atan2(offsets.map(sin).reduce(0, +), offsets.map(cos).reduce(0, +))
        }
        // Wide enough for every pair: slots d apart are a chord of 2R·sin(d·π/n) apart.
        var radius = 0.0
        for a in 0..<group.count {
            for b in (a + 1)..<group.count {
                let apart = min(b - a, group.count - (b - a))
                let needed = group[order[a]].outerRadius + group[order[b]].outerRadius + spreadGapPoints
                radius = max(radius, needed / (2 * sin(Double(apart) * .pi / count)))
            }
        }
        var centers = group.map(\.center)
        for (slot, member) in order.enumerated() {
            let angle = start + Double(slot) * step
            centers[member] = ViewPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
        }
        return centers
    }

    /// How far outside the view the clusters must be looked for, in points, so that every
    /// cluster that spreading can bring into the view, and every cluster it is spread with, is
    /// found: for groups of up to `groupSize` of the largest discs.
    package static func spreadingReachPoints(groupSize: Int, style: MapwrightMetadata.Cluster) -> Double {
        let outer = style.maxRadius + ClusterMarker.haloWidthPoints
        // Equal discs: adjacent slots are the closest, a chord of 2R·sin(π/n).
        let ring = (2 * outer + spreadGapPoints) / (2 * sin(.pi / Double(max(2, groupSize))))
        // The ring, the disc, and two steps of neighbours (a cluster may use a neighbour's ring).
        return ring + 5 * outer + 2 * spreadGapPoints
    }
}
