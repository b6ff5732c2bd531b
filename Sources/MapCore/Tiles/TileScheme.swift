/// How tile rows are numbered: the one tiling-scheme type of the package, used by style sources
/// (`scheme`, MapLibre Style Specification, "Sources"), URL templates and tile stores.
///
/// Columns always count from the west. ``TileID`` is XYZ; ``TileID/tmsY`` gives the TMS row.
public enum TileScheme: String, Hashable, Sendable, CaseIterable {
    /// Rows counted from the north, as OpenStreetMap, Google and MapLibre do. The default.
    case xyz
    /// Rows counted from the south (OSGeo Tile Map Service, and MBTiles' `tile_row`):
    /// `2^z - 1 - y`.
    case tms
}
