import Foundation

/// A point on the unit sphere as an Earth-centred vector (Gade's n-vector).
///
/// x points to latitude 0, longitude 0; y to latitude 0, longitude 90; z to the north pole.
/// Working with vectors keeps the great-circle formulas free of special cases at the
/// antimeridian and well conditioned near the poles.
struct UnitVector {
    var x: Double
    var y: Double
    var z: Double

    init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    init(_ coordinate: Coordinate) {
        let latitude = coordinate.latitude * .pi / 180
        let longitude = coordinate.longitude * .pi / 180
        self.init(x: cos(latitude) * cos(longitude), y: cos(latitude) * sin(longitude), z: sin(latitude))
    }

    /// The unit vector pointing north along the surface at `coordinate`.
    ///
    /// At a pole it points along the meridian of the coordinate's longitude, so bearings there
    /// are measured as if one had stepped off the pole along that meridian.
    static func north(at coordinate: Coordinate) -> UnitVector {
        let latitude = coordinate.latitude * .pi / 180
        let longitude = coordinate.longitude * .pi / 180
        return UnitVector(x: -sin(latitude) * cos(longitude), y: -sin(latitude) * sin(longitude), z: cos(latitude))
    }

    /// The unit vector pointing east along the surface at `coordinate`.
    static func east(at coordinate: Coordinate) -> UnitVector {
        let longitude = coordinate.longitude * .pi / 180
        return UnitVector(x: -sin(longitude), y: cos(longitude), z: 0)
    }

    /// The coordinate this vector points at; its length does not matter, only its direction.
    ///
    /// The longitude is wrapped into [-180, 180).
    var coordinate: Coordinate {
        let latitude = atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi
        let longitude = atan2(y, x) * 180 / .pi
        return Coordinate(uncheckedLatitude: latitude, longitude: Coordinate.wrappedLongitude(longitude))
    }

    func dot(_ other: UnitVector) -> Double {
        x * other.x + y * other.y + z * other.z
    }

    static func * (vector: UnitVector, scale: Double) -> UnitVector {
        UnitVector(x: vector.x * scale, y: vector.y * scale, z: vector.z * scale)
    }

    static func + (lhs: UnitVector, rhs: UnitVector) -> UnitVector {
        UnitVector(x: lhs.x + rhs.x, y: lhs.y + rhs.y, z: lhs.z + rhs.z)
    }
}
