import Foundation

extension Sequence where Element == Coordinate {
    /// The longitudes of the coordinates in degrees, each shifted by whole turns to lie within
    /// 180 degrees of the one before, so a line across the antimeridian runs on instead of
    /// jumping back across the world.
    ///
    /// The first longitude is kept as is; the rest may leave [-180, 180]. For example, the
    /// longitudes 170, -175, -160 unwrap to 170, 185, 200. A step of exactly 180 degrees, which
    /// could go either way, goes west.
    public func unwrappedLongitudes() -> [Double] {
        var result: [Double] = []
        for coordinate in self {
            guard let previous = result.last else {
                result.append(coordinate.longitude)
                continue
            }
            result.append(previous + Coordinate.wrappedLongitude(coordinate.longitude - previous))
        }
        return result
    }

    /// The map points of the coordinates, with x shifted by whole worlds as
    /// ``unwrappedLongitudes()`` shifts longitudes: ready to stroke as one polyline.
    ///
    /// x may leave [0, ``WebMercator/worldSize``]; those points lie on copies of the world east
    /// or west of it, as ``MapRect`` allows. Latitudes are clamped to ±``WebMercator/maximumLatitude``.
    public func unwrappedMapPoints() -> [MapPoint] {
        let coordinates = Array(self)
        return zip(coordinates, coordinates.unwrappedLongitudes()).map { coordinate, longitude in
            var point = MapPoint(coordinate)
            point.x = (longitude + 180) / 360 * WebMercator.worldSize
            return point
        }
    }
}
