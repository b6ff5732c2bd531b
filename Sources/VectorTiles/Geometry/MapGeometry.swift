public import MapCore

/// A vector tile feature's geometry placed on the map: the shapes of ``VectorTileGeometry``
/// with ``MapPoint``s (MapCore's map space, MapKit's 2^28-point world, y south) instead of tile
/// coordinates, ready for a renderer. Made by ``VectorTileGeometry/mapPoints(in:extent:)``.
///
/// Rings are as in ``VectorTileGeometry/polygons(_:)``: exterior first, then holes, without the
/// first point repeated, an exterior winding clockwise on the map (y south).
public enum MapGeometry: Hashable, Sendable {
    /// Points, one or several.
    case points([MapPoint])
    /// Lines, each of at least two points.
    case lines([[MapPoint]])
    /// Polygons, each its exterior ring, then its holes.
    case polygons([[[MapPoint]]])
    /// No geometry.
    case none
}
