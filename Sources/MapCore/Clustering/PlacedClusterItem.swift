import Foundation

/// A ``ClusterItem`` placed in map space, in the copy of the world a map rect showed it in.
///
/// A map rect wider than the world, or one crossing the antimeridian, shows some items in more
/// than one copy of the world; ``ClusterIndex/items(in:zoomLevel:)-(MapRect,_)`` returns an item
/// once per copy, each with the map point of that copy. For example, an item at longitude 179 seen
/// through a rect from `worldSize - 100` to `worldSize + 100` is placed just west of `worldSize`,
/// and one at -179 just east of it.
public struct PlacedClusterItem: Hashable, Sendable {
    /// The item.
    public let item: ClusterItem
    /// Where to draw it: x is in the world copy the rect showed it in, so it may lie outside
    /// [0, ``WebMercator/worldSize``).
    public let mapPoint: MapPoint

    /// Creates a placed item.
    public init(item: ClusterItem, mapPoint: MapPoint) {
        self.item = item
        self.mapPoint = mapPoint
    }
}
