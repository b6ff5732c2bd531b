/// The Earth model of Mapwright's geodesy: a sphere of the IUGG mean radius.
///
/// Great-circle distances on this sphere differ from the WGS 84 ellipsoid's geodesics by at
/// most about 0.5 % (typically under 0.3 %). Web Mercator uses a different sphere, the WGS 84
/// semi-major axis (``WebMercator/earthRadiusMeters``), because EPSG:3857 says so.
public enum Earth {
    /// The IUGG mean Earth radius, 6,371,008.8 m (the radius Turf and most web maps use).
    public static let meanRadiusMeters: Double = 6_371_008.8

    /// Meters along a meridian per degree of latitude on the mean sphere (about 111,195 m).
    public static let metersPerDegreeOfLatitude: Double = meanRadiusMeters * .pi / 180
}
