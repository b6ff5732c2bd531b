import Foundation

/// The address of a Web Mercator map tile in the XYZ scheme (the "slippy map" scheme of
/// OpenStreetMap, Google and MapLibre).
///
/// At zoom `z` the world is a grid of 2^z × 2^z tiles. `x` counts columns east from the
/// antimeridian, `y` counts rows south from the north edge (latitude
/// ``WebMercator/maximumLatitude``). For example:
///
/// ```swift
/// let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
/// let tile = try TileID(coordinate: paris, zoom: 10) // 10/518/352
/// tile.quadkey // "1202200110"
/// ```
///
/// Tiles order by zoom, then row (north to south), then column (west to east); the covers of
/// ``tiles(covering:zoom:maximumCount:)`` come in that order.
public struct TileID: Hashable, Sendable {
    /// The zoom level, in 0...``maximumZoom``.
    public let z: Int
    /// The column, east from the antimeridian, in 0..<2^z.
    public let x: Int
    /// The row, south from the north edge, in 0..<2^z.
    public let y: Int

    /// The deepest zoom level a tile can have: 30, where a tile is a quarter of a map point wide.
    public static let maximumZoom = 30

    /// Creates a tile address, rejecting one outside the grid.
    ///
    /// - Parameters:
    ///   - z: The zoom level, in 0...30.
    ///   - x: The column, in 0..<2^z.
    ///   - y: The row counted from the north, in 0..<2^z.
    /// - Throws: ``MapCoreError/invalidTile(z:x:y:)``.
    public init(z: Int, x: Int, y: Int) throws(MapCoreError) {
        guard (0...TileID.maximumZoom).contains(z), (0..<1 << z).contains(x), (0..<1 << z).contains(y) else {
            throw .invalidTile(z: z, x: x, y: y)
        }
        self.init(uncheckedZ: z, x: x, y: y)
    }

    /// Creates a tile address the caller has computed within the grid.
    init(uncheckedZ z: Int, x: Int, y: Int) {
        assert((0...TileID.maximumZoom).contains(z) && (0..<1 << z).contains(x) && (0..<1 << z).contains(y))
        self.z = z
        self.x = x
        self.y = y
    }

    /// The number of tiles across the world at this tile's zoom, 2^z.
    public var tilesPerSide: Int { 1 << z }
}

// MARK: - Tiles of positions

extension TileID {
    /// The tile at a zoom level containing a map point.
    ///
    /// x is wrapped into the world; y is clamped into it, so points beyond the north or south
    /// edge fall in the edge row. A point on the boundary between tiles belongs to the tile east
    /// or south of it.
    ///
    /// - Throws: ``MapCoreError/invalidZoomLevel(_:range:)`` for a zoom outside 0...30.
    public init(mapPoint: MapPoint, zoom: Int) throws(MapCoreError) {
        try TileID.validate(zoom: zoom)
        let tileSize = TileID.tileSizeMapPoints(atZoom: zoom)
        self.init(
            uncheckedZ: zoom,
            x: TileID.index(of: mapPoint.wrapped.x, tileSize: tileSize, zoom: zoom),
            y: TileID.index(of: mapPoint.y, tileSize: tileSize, zoom: zoom)
        )
    }

    /// The tile at a zoom level containing a coordinate; latitudes beyond
    /// ±``WebMercator/maximumLatitude`` fall in the edge row.
    ///
    /// - Throws: ``MapCoreError/invalidZoomLevel(_:range:)`` for a zoom outside 0...30.
    public init(coordinate: Coordinate, zoom: Int) throws(MapCoreError) {
        try self.init(mapPoint: MapPoint(coordinate), zoom: zoom)
    }

    /// Throws unless `zoom` is a tile zoom level, 0...30.
    static func validate(zoom: Int) throws(MapCoreError) {
        guard (0...maximumZoom).contains(zoom) else {
            throw .invalidZoomLevel(Double(zoom), range: 0...Double(maximumZoom))
        }
    }

    /// The width of a tile at a zoom level in map points: ``WebMercator/worldSize`` / 2^zoom.
    static func tileSizeMapPoints(atZoom zoom: Int) -> Double {
        WebMercator.worldSize / Double(1 << zoom)
    }

    /// The row or column holding a map-space ordinate, clamped into the grid.
    static func index(of ordinate: Double, tileSize: Double, zoom: Int) -> Int {
        let index = (ordinate / tileSize).rounded(.down)
        return Int(min(Double((1 << zoom) - 1), max(0, index)))
    }
}

// MARK: - TMS and quadkeys

extension TileID {
    /// The row in the TMS scheme, counted from the south edge (as MBTiles stores `tile_row`).
    public var tmsY: Int { tilesPerSide - 1 - y }

    /// Creates a tile address from a TMS row, counted from the south edge.
    ///
    /// - Throws: ``MapCoreError/invalidTile(z:x:y:)`` naming the TMS row given.
    public init(z: Int, x: Int, tmsY: Int) throws(MapCoreError) {
        guard (0...TileID.maximumZoom).contains(z), (0..<1 << z).contains(x), (0..<1 << z).contains(tmsY) else {
            throw .invalidTile(z: z, x: x, y: tmsY)
        }
        self.init(uncheckedZ: z, x: x, y: (1 << z) - 1 - tmsY)
    }

    /// The Bing Maps quadkey: one digit 0–3 per zoom level, from the coarsest.
    ///
    /// Each digit picks a quarter of the parent tile: 0 north-west, 1 north-east, 2 south-west,
    /// 3 south-east. The tile at zoom 0 has the empty quadkey; 3/3/5 is "213".
    /// See <https://learn.microsoft.com/bingmaps/articles/bing-maps-tile-system>.
    public var quadkey: String {
        String(
            (0..<z).reversed().map { level in
                let digit = ((x >> level) & 1) | (((y >> level) & 1) << 1)
                return Character(String(digit))
            })
    }

    /// Creates a tile address from a Bing Maps quadkey; its length is the zoom level.
    ///
    /// - Throws: ``MapCoreError/invalidQuadkey(_:)`` for a character other than 0–3 or more
    ///   than 30 of them.
    public init(quadkey: String) throws(MapCoreError) {
        guard quadkey.count <= TileID.maximumZoom else { throw .invalidQuadkey(quadkey) }
        var x = 0
        var y = 0
        for character in quadkey {
            guard let digit = character.wholeNumberValue, (0...3).contains(digit), character.isASCII else {
                throw .invalidQuadkey(quadkey)
            }
            x = (x << 1) | (digit & 1)
            y = (y << 1) | (digit >> 1)
        }
        self.init(uncheckedZ: quadkey.count, x: x, y: y)
    }
}

// MARK: - Bounds

extension TileID {
    /// The tile's bounds in map space, ``WebMercator/worldSize`` / 2^z map points wide.
    public var mapRect: MapRect {
        let size = TileID.tileSizeMapPoints(atZoom: z)
        return MapRect(x: Double(x) * size, y: Double(y) * size, width: size, height: size)
    }

    /// The tile's bounds as a geographic region.
    ///
    /// Tiles are square in map space, so the region's centre latitude is midway between its
    /// edges' latitudes, north of the tile's centre in map space.
    public var region: CoordinateRegion { CoordinateRegion(mapRect) }
}

// MARK: - Pyramid

extension TileID {
    /// The tile one zoom level up that contains this one; `nil` at zoom 0.
    public var parent: TileID? {
        z == 0 ? nil : TileID(uncheckedZ: z - 1, x: x >> 1, y: y >> 1)
    }

    /// The four tiles one zoom level down that this one contains, in quadkey order: north-west,
    /// north-east, south-west, south-east. Empty at zoom 30, the deepest level.
    public var children: [TileID] {
        guard z < TileID.maximumZoom else { return [] }
        return (0..<4).map { digit in
            TileID(uncheckedZ: z + 1, x: (x << 1) | (digit & 1), y: (y << 1) | (digit >> 1))
        }
    }
}

// MARK: - Conformances

extension TileID: Comparable {
    /// Orders by zoom, then row from the north, then column from the west.
    public static func < (lhs: TileID, rhs: TileID) -> Bool {
        (lhs.z, lhs.y, lhs.x) < (rhs.z, rhs.y, rhs.x)
    }
}

extension TileID: CustomStringConvertible {
    /// The tile as `z/x/y`, as in tile URLs.
    public var description: String { "\(z)/\(x)/\(y)" }
}

extension TileID: Codable {
    private enum CodingKeys: String, CodingKey { case z, x, y }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            z: container.decode(Int.self, forKey: .z),
            x: container.decode(Int.self, forKey: .x),
            y: container.decode(Int.self, forKey: .y)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(z, forKey: .z)
        try container.encode(x, forKey: .x)
        try container.encode(y, forKey: .y)
    }
}
