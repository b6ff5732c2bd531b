public import MapCore

extension BoundingBox {
    /// The smallest box containing the positions, or `nil` for none.
    public init?<S: Sequence>(enclosing positions: S) where S.Element == Position {
        var west = Double.infinity
        var south = Double.infinity
        var east = -Double.infinity
        var north = -Double.infinity
        for position in positions {
            west = min(west, position.longitude)
            east = max(east, position.longitude)
            south = min(south, position.latitude)
            north = max(north, position.latitude)
        }
        guard west.isFinite, south.isFinite, east.isFinite, north.isFinite else { return nil }
        self.init(west: west, south: south, east: east, north: north)
    }

    /// The map rect of the box (latitudes clamped to the Mercator square).
    public var mapRect: MapRect {
        let corners = [Position(longitude: west, latitude: north), Position(longitude: east, latitude: south)]
        return MapRect(enclosing: corners.compactMap(\.mapPoint))
    }
}
