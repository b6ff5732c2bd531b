import Foundation

/// A rectangular geographic region: a centre and a span in degrees (MapKit's MKCoordinateRegion).
///
/// A region may cross the antimeridian: its west edge is then east of its east edge, as in
/// `CoordinateRegion(center: 0,180, span: 10,20)`, which covers longitudes 170 to -170.
public struct CoordinateRegion: Hashable, Sendable, Codable {
    /// The centre of the region.
    public var center: Coordinate
    /// The extent of the region in degrees.
    public var span: CoordinateSpan

    /// Creates a region from its centre and span.
    public init(center: Coordinate, span: CoordinateSpan) {
        self.center = center
        self.span = span
    }

    /// Creates a region around a centre, `latitudinalMeters` tall and `longitudinalMeters` wide
    /// (MapKit's MKCoordinateRegionMakeWithDistance), on the mean-radius sphere of ``Earth``.
    ///
    /// - Throws: ``MapCoreError/invalidDistance(name:meters:)`` for a negative or non-finite distance.
    public init(center: Coordinate, latitudinalMeters: Double, longitudinalMeters: Double) throws(MapCoreError) {
        guard latitudinalMeters.isFinite, latitudinalMeters >= 0 else {
            throw .invalidDistance(name: "latitudinalMeters", meters: latitudinalMeters)
        }
        guard longitudinalMeters.isFinite, longitudinalMeters >= 0 else {
            throw .invalidDistance(name: "longitudinalMeters", meters: longitudinalMeters)
        }
        let latitudeDelta = latitudinalMeters / Earth.metersPerDegreeOfLatitude
        let cosine = max(cos(center.latitude * .pi / 180), 1e-12)
        let longitudeDelta = longitudinalMeters / (Earth.metersPerDegreeOfLatitude * cosine)
        self.init(
            center: center, span: CoordinateSpan(uncheckedLatitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta))
    }

    /// Creates a region from its edges in degrees, as a GeoJSON bbox orders them.
    ///
    /// An `east` smaller than `west` means the box crosses the antimeridian.
    ///
    /// - Throws: ``MapCoreError`` naming the first edge that is out of range, or
    ///   ``MapCoreError/invalidSpan(name:value:range:)`` when `south` is north of `north`.
    public init(west: Double, south: Double, east: Double, north: Double) throws(MapCoreError) {
        let southWest = try Coordinate(latitude: south, longitude: west)
        let northEast = try Coordinate(latitude: north, longitude: east)
        guard northEast.latitude >= southWest.latitude else {
            throw .invalidSpan(name: "latitudeDelta", value: north - south, range: 0...180)
        }
        var longitudeDelta = northEast.longitude - southWest.longitude
        if longitudeDelta < 0 { longitudeDelta += 360 }
        let center = Coordinate(
            uncheckedLatitude: (south + north) / 2,
            longitude: Coordinate.wrappedLongitude(west + longitudeDelta / 2)
        )
        self.init(
            center: center,
            span: CoordinateSpan(uncheckedLatitudeDelta: north - south, longitudeDelta: longitudeDelta)
        )
    }

    /// The latitude of the north edge, clamped to 90.
    public var north: Double { min(90, center.latitude + span.latitudeDelta / 2) }
    /// The latitude of the south edge, clamped to -90.
    public var south: Double { max(-90, center.latitude - span.latitudeDelta / 2) }
    /// The longitude of the west edge, wrapped into [-180, 180); -180 for a region 360 degrees wide,
    /// to pair with its east edge of 180.
    public var west: Double {
        span.longitudeDelta >= 360 ? -180 : Coordinate.wrappedLongitude(center.longitude - span.longitudeDelta / 2)
    }
    /// The longitude of the east edge, wrapped into [-180, 180).
    public var east: Double {
        span.longitudeDelta >= 360 ? 180 : Coordinate.wrappedLongitude(center.longitude + span.longitudeDelta / 2)
    }

    /// Whether the region reaches across the ±180° meridian.
    public var crossesAntimeridian: Bool {
        span.longitudeDelta < 360
            && (center.longitude - span.longitudeDelta / 2 < -180 || center.longitude + span.longitudeDelta / 2 > 180)
    }

    /// Whether the coordinate lies inside the region or on its edge.
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard coordinate.latitude >= south, coordinate.latitude <= north else { return false }
        if span.longitudeDelta >= 360 { return true }
        let offset = abs(Coordinate.wrappedLongitude(coordinate.longitude - center.longitude))
        return offset <= span.longitudeDelta / 2 + 1e-12
    }

    /// The smallest region containing both, taking the shorter way around in longitude.
    public func union(_ other: CoordinateRegion) -> CoordinateRegion {
        let south = min(self.south, other.south)
        let north = max(self.north, other.north)
        let longitudes = LongitudeArc(self).union(LongitudeArc(other))
        return CoordinateRegion(
            center: Coordinate(uncheckedLatitude: (south + north) / 2, longitude: longitudes.center),
            span: CoordinateSpan(uncheckedLatitudeDelta: north - south, longitudeDelta: longitudes.widthDegrees)
        )
    }

    /// Grows this region to contain `other`.
    public mutating func formUnion(_ other: CoordinateRegion) {
        self = union(other)
    }
}

// MARK: - Regions of coordinates

extension CoordinateRegion {
    /// The smallest region containing every coordinate, with the shortest span in longitude:
    /// points on both sides of the antimeridian give a region that crosses it.
    ///
    /// One coordinate (or many identical ones) gives a region of zero span.
    ///
    /// - Throws: ``MapCoreError/noCoordinates`` when the sequence is empty.
    public init<S: Sequence>(enclosing coordinates: S) throws(MapCoreError) where S.Element == Coordinate {
        var south = Double.infinity
        var north = -Double.infinity
        var longitudes: [Double] = []
        for coordinate in coordinates {
            south = min(south, coordinate.latitude)
            north = max(north, coordinate.latitude)
            longitudes.append(Coordinate.wrappedLongitude(coordinate.longitude))
        }
        guard !longitudes.isEmpty else { throw .noCoordinates }
        let arc = LongitudeArc(covering: longitudes)
        self.init(
            center: Coordinate(uncheckedLatitude: (south + north) / 2, longitude: arc.center),
            span: CoordinateSpan(uncheckedLatitudeDelta: north - south, longitudeDelta: arc.widthDegrees)
        )
    }
}

// MARK: - Map space

extension CoordinateRegion {
    /// The map rect of the region (MapKit's MKMapRectForCoordinateRegion).
    ///
    /// Its minX lies in [0, worldSize); a region crossing the antimeridian gives a rect whose
    /// maxX is beyond worldSize.
    public var mapRect: MapRect {
        let northWest = MapPoint(Coordinate(uncheckedLatitude: north, longitude: west))
        let southWest = MapPoint(Coordinate(uncheckedLatitude: south, longitude: west))
        let width = span.longitudeDelta / 360 * WebMercator.worldSize
        return MapRect(x: northWest.x, y: northWest.y, width: width, height: southWest.y - northWest.y)
    }

    /// The region of a map rect (MapKit's MKCoordinateRegionForMapRect).
    ///
    /// The centre latitude is midway between the rect's north and south latitudes, so
    /// `CoordinateRegion(region.mapRect)` gives back the region (within the Mercator limit).
    public init(_ mapRect: MapRect) {
        let north = MapPoint(x: mapRect.minX, y: mapRect.minY).coordinate.latitude
        let south = MapPoint(x: mapRect.minX, y: mapRect.maxY).coordinate.latitude
        let longitudeDelta = min(360, mapRect.width / WebMercator.worldSize * 360)
        let centerLongitude = Coordinate.wrappedLongitude(mapRect.midX / WebMercator.worldSize * 360 - 180)
        self.init(
            center: Coordinate(uncheckedLatitude: (north + south) / 2, longitude: centerLongitude),
            span: CoordinateSpan(uncheckedLatitudeDelta: north - south, longitudeDelta: longitudeDelta)
        )
    }
}

/// An arc of longitudes going east from `west` for `widthDegrees`, on the circle of longitudes.
struct LongitudeArc: Hashable {
    /// West end in [-180, 180).
    var west: Double
    /// Eastward extent in [0, 360].
    var widthDegrees: Double

    init(west: Double, widthDegrees: Double) {
        self.west = Coordinate.wrappedLongitude(west)
        self.widthDegrees = min(360, max(0, widthDegrees))
    }

    init(_ region: CoordinateRegion) {
        self.init(
            west: region.center.longitude - region.span.longitudeDelta / 2, widthDegrees: region.span.longitudeDelta)
    }

    /// The shortest arc covering every longitude: the complement of the widest gap between them.
    init(covering longitudes: [Double]) {
        let sorted = longitudes.sorted()
        guard let first = sorted.first, let last = sorted.last else {
            self.init(west: 0, widthDegrees: 0)
            return
        }
        // The gap across the antimeridian, from the last longitude round to the first.
        var widestGap = first + 360 - last
        var westAfterGap = first
        for (a, b) in zip(sorted, sorted.dropFirst()) where b - a > widestGap {
            widestGap = b - a
            westAfterGap = b
        }
        self.init(west: westAfterGap, widthDegrees: 360 - widestGap)
    }

    /// The centre longitude in [-180, 180).
    var center: Double { Coordinate.wrappedLongitude(west + widthDegrees / 2) }

    /// The shortest arc covering both: it starts at the west end of one of them.
    func union(_ other: LongitudeArc) -> LongitudeArc {
        func eastwardOffset(from a: Double, to b: Double) -> Double {
            let offset = (b - a).truncatingRemainder(dividingBy: 360)
            return offset < 0 ? offset + 360 : offset
        }
        let fromSelf = max(widthDegrees, eastwardOffset(from: west, to: other.west) + other.widthDegrees)
        let fromOther = max(other.widthDegrees, eastwardOffset(from: other.west, to: west) + widthDegrees)
        return fromSelf <= fromOther
            ? LongitudeArc(west: west, widthDegrees: fromSelf)
            : LongitudeArc(west: other.west, widthDegrees: fromOther)
    }
}
