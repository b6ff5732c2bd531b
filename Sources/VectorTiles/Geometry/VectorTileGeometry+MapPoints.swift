public import MapCore

extension VectorTileGeometry {
    /// The geometry placed on the map in `tile`: each tile coordinate scaled from `0...extent`
    /// onto the tile's ``TileID/mapRect``, so (0, 0) is the tile's north-west corner,
    /// (extent, extent) its south-east corner and (extent / 2, extent / 2) its centre. Points of
    /// the buffer land outside the tile's map rect, in the tiles around it.
    ///
    /// For example:
    ///
    /// ```swift
    /// let tile = try TileID(z: 1, x: 1, y: 0)  // the north-east quarter of the world
    /// VectorTileGeometry.points([TilePoint(x: 0, y: 4096)]).mapPoints(in: tile, extent: 4096)
    /// // .points([MapPoint(x: 134217728, y: 134217728)]), the world's centre
    /// ```
    ///
    /// - Parameters:
    ///   - tile: The tile the geometry was decoded from.
    ///   - extent: The layer's ``VectorTileLayer/extent``; must be at least 1.
    /// - Returns: The same shapes with ``MapPoint``s.
    public func mapPoints(in tile: TileID, extent: Int) -> MapGeometry {
        precondition(extent > 0, "a layer's extent is at least 1")
        let rect = tile.mapRect
        let scale = rect.width / Double(extent)
        func place(_ point: TilePoint) -> MapPoint {
            MapPoint(x: rect.minX + Double(point.x) * scale, y: rect.minY + Double(point.y) * scale)
        }
        switch self {
        case .points(let points): return .points(points.map(place))
        case .lines(let lines): return .lines(lines.map { $0.map(place) })
        case .polygons(let polygons): return .polygons(polygons.map { $0.map { $0.map(place) } })
        case .none: return .none
        }
    }
}
