import Foundation
public import MapCore

extension TileID {
    /// The tile's PMTiles tile id: its place on the Hilbert curves of all zoom levels, one after
    /// another from zoom 0 (specification 4.1).
    ///
    /// The tiles of zoom z take the ids from (4^z − 1) / 3, the number of tiles above them, in
    /// the order of the Hilbert curve through the 2^z × 2^z grid, starting at the north-west
    /// corner (0, 0) and ending at the north-east one. For example 0/0/0 is 0; 1/0/0, 1/0/1,
    /// 1/1/1 and 1/1/0 are 1 to 4; 12/3423/1763 is 19,078,479. Neighbouring tiles get nearby ids,
    /// which is why an archive in id order (clustered) keeps an area's tiles together.
    public var pmtilesID: UInt64 {
        var x = UInt64(self.x)
        var y = UInt64(self.y)
        var position: UInt64 = 0
        var side = z == 0 ? 0 : UInt64(1) << (z - 1)
        while side > 0 {
            let column: UInt64 = x & side == 0 ? 0 : 1
            let row: UInt64 = y & side == 0 ? 0 : 1
            position += side * side * ((3 * column) ^ row)
            // Keep the bits below this level, then turn the quadrant to the curve's orientation.
            x &= side - 1
            y &= side - 1
            Self.rotate(side: side, x: &x, y: &y, column: column, row: row)
            side >>= 1
        }
        return Self.firstPMTilesID(atZoom: z) + position
    }

    /// The tile with a PMTiles tile id; nil for an id beyond zoom 30, the deepest ``TileID`` has.
    ///
    /// The inverse of ``pmtilesID``.
    public init?(pmtilesID id: UInt64) {
        var zoom = 0
        while zoom < TileID.maximumZoom, id >= Self.firstPMTilesID(atZoom: zoom + 1) { zoom += 1 }
        guard id < Self.firstPMTilesID(atZoom: zoom + 1) else { return nil }
        var position = id - Self.firstPMTilesID(atZoom: zoom)
        var x: UInt64 = 0
        var y: UInt64 = 0
        var side: UInt64 = 1
        while side < UInt64(1) << zoom {
            let column = 1 & (position / 2)
            let row = 1 & (position ^ column)
            Self.rotate(side: side, x: &x, y: &y, column: column, row: row)
            x += side * column
            y += side * row
            position /= 4
            side <<= 1
        }
        do { try self.init(z: zoom, x: Int(x), y: Int(y)) } catch { return nil }
    }

    /// The id of the first tile of a zoom level, (4^zoom − 1) / 3: the tiles of all levels above it.
    /// Defined for zoom 0...31.
    static func firstPMTilesID(atZoom zoom: Int) -> UInt64 {
        ((UInt64(1) << (2 * zoom)) - 1) / 3
    }

    /// Turns a quadrant of `side` × `side` cells so that the curve's next level runs the right
    /// way: a quadrant in the first row (`row` 0) is mirrored on its main diagonal (x and y
    /// swapped) when in the first column, on its other diagonal when in the second; quadrants
    /// in the second row keep their orientation.
    private static func rotate(side: UInt64, x: inout UInt64, y: inout UInt64, column: UInt64, row: UInt64) {
        guard row == 0 else { return }
        if column == 1 {
            x = side - 1 - x
            y = side - 1 - y
        }
        swap(&x, &y)
    }
}
