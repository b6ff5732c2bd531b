public import Foundation
import MapCore
import MapJSON
import MapProjection

/// Reads GeoJSON (RFC 7946): a FeatureCollection, a single Feature, or a bare geometry.
///
/// Whatever the top level, the result is a ``FeatureCollection``: a Feature gives one feature,
/// a bare geometry one feature without properties. Positions are checked as they are read:
/// at least two numbers, longitude in [-180, 180] and latitude in [-90, 90]; elevation is
/// dropped. A LineString needs two positions; a polygon ring four, the last equal to the
/// first (RFC 7946 §3.1.4, §3.1.6), but a ring of three or more that does not end where it
/// starts is closed, as MapLibre and GDAL read it. `bbox` and foreign members are ignored.
///
/// A legacy `crs` member (the 2008 GeoJSON specification's, which GDAL still writes: EPSG:3067,
/// British National Grid...) is honoured: every position is transformed to WGS 84 longitude
/// and latitude through PROJ (see ``MapProjection/GeoJSONCRS``); a linked or unknown CRS is an
/// error naming the file and the CRS.
///
/// For example:
///
/// ```swift
/// let overlay = try GeoJSONReader.read(path: "trip.geojson")
/// ```
///
/// Errors name the file and, inside a FeatureCollection, the 0-based feature index:
/// `trip.geojson: feature 3: geometry.coordinates[1]: latitude 95.0 is outside [-90, 90]`.
/// A FeatureCollection member that is not valid is left out and its error kept in
/// ``FeatureCollection/skippedFeatures`` (one broken feature among thousands never fails the
/// file); only when every member is broken is the first one's error thrown.
public enum GeoJSONReader {
    /// Reads a GeoJSON file.
    ///
    /// - Parameter path: The file; errors name it as given.
    /// - Throws: ``GeoDataError/unreadableFile(path:reason:)``, ``GeoDataError/invalidJSON(path:reason:)``
    ///   or ``GeoDataError/invalidGeoJSON(path:featureIndex:reason:)``.
    public static func read(path: String) throws(GeoDataError) -> FeatureCollection {
        try read(data: GeoDataError.contents(ofFile: path), path: path)
    }

    /// Reads GeoJSON from memory; `path` names its origin in errors.
    ///
    /// - Throws: ``GeoDataError/invalidJSON(path:reason:)`` or
    ///   ``GeoDataError/invalidGeoJSON(path:featureIndex:reason:)``.
    public static func read(data: Data, path: String) throws(GeoDataError) -> FeatureCollection {
        let root: JSONValue
        do {
            root = try JSONValue.parse(data)
        } catch {
            throw .invalidJSON(path: path, reason: error.reason)
        }
        var reader = Reader(path: path)
        reader.toWGS84 = try projection(of: root, path: path)
        return try reader.featureCollection(from: root)
    }
}

extension GeoJSONReader {
    /// PROJ's transformation of the file's legacy `crs` (GeoJSON 2008, see
    /// ``MapProjection/GeoJSONCRS``) to longitudes and latitudes; nil without one, or for
    /// CRS84 and EPSG:4326.
    ///
    /// - Throws: ``GeoDataError/unsupportedCRS(path:reason:)`` naming the CRS: a linked crs, or
    ///   one PROJ does not know.
    static func projection(of root: JSONValue, path: String) throws(GeoDataError) -> Projection? {
        switch GeoJSONCRS.projectionToWGS84(document: root) {
        case .success(let projection): return projection
        case .failure(let problem): throw .unsupportedCRS(path: path, reason: problem.message)
        }
    }
}

/// The walk over decoded JSON; `featureIndex` says which feature errors belong to.
private struct Reader {
    let path: String
    var featureIndex: Int?
    /// The transformation of the file's legacy `crs` to longitudes and latitudes; nil for none.
    var toWGS84: Projection?

    init(path: String) {
        self.path = path
    }

    mutating func featureCollection(from root: JSONValue) throws(GeoDataError) -> FeatureCollection {
        let object = try self.object(root, at: "the top level")
        let type = try self.type(of: object, at: "the top level")
        switch type {
        case "FeatureCollection":
            guard case .array(let features)? = object["features"] else {
                throw error("a FeatureCollection needs a \"features\" array", at: "the top level")
            }
            var collection: [Feature] = []
            var skipped: [GeoDataError] = []
            collection.reserveCapacity(features.count)
            for (index, value) in features.enumerated() {
                featureIndex = index
                do throws(GeoDataError) {
                    collection.append(try feature(from: value))
                } catch {
                    skipped.append(error)
                }
            }
            if collection.isEmpty, let first = skipped.first { throw first }
            return FeatureCollection(features: collection, skippedFeatures: skipped)
        case "Feature":
            return FeatureCollection(features: [try feature(from: root)])
        default:
            return FeatureCollection(features: [Feature(geometry: try geometry(from: root, at: "the top level"))])
        }
    }

    func feature(from value: JSONValue) throws(GeoDataError) -> Feature {
        let object = try self.object(value, at: "the feature")
        guard try type(of: object, at: "the feature") == "Feature" else {
            throw error("its type is not \"Feature\"", at: "the feature")
        }
        let id: Feature.Identifier?
        switch object["id"] {
        case nil, .null?: id = nil
        case .string(let string)?: id = .string(string)
        case .number(let number)?: id = .number(number)
        case let other?: throw error("id is \(other.kindDescription), not a string or a number", at: "the feature")
        }
        guard let geometryValue = object["geometry"] else {
            throw error("it has no \"geometry\" member (it may be null)", at: "the feature")
        }
        let geometry: Geometry? = geometryValue == .null ? nil : try self.geometry(from: geometryValue, at: "geometry")
        var properties: [String: FeatureValue] = [:]
        switch object["properties"] {
        case nil, .null?: break
        case .object(let members)?:
            for (name, member) in members {
                switch member {
                case .null: properties[name] = .null
                case .bool(let bool): properties[name] = .bool(bool)
                case .number(let number): properties[name] = .number(number)
                case .string(let string): properties[name] = .string(string)
                case .array, .object: properties[name] = .string(member.jsonText)
                }
            }
        case let other?:
            throw error("properties is \(other.kindDescription), not an object", at: "the feature")
        }
        return Feature(id: id, geometry: geometry, properties: properties)
    }

    func geometry(from value: JSONValue, at location: String) throws(GeoDataError) -> Geometry {
        let object = try self.object(value, at: location)
        let type = try self.type(of: object, at: location)
        if type == "GeometryCollection" {
            guard case .array(let members)? = object["geometries"] else {
                throw error("a GeometryCollection needs a \"geometries\" array", at: location)
            }
            var geometries: [Geometry] = []
            for (index, member) in members.enumerated() {
                geometries.append(try geometry(from: member, at: "\(location).geometries[\(index)]"))
            }
            return .geometryCollection(geometries)
        }
        guard let coordinates = object["coordinates"] else {
            throw error("a \(type) needs \"coordinates\"", at: location)
        }
        let at = "\(location).coordinates"
        switch type {
        case "Point":
            return .point(try position(from: coordinates, at: at))
        case "MultiPoint":
            return .multiPoint(try positions(from: coordinates, at: at))
        case "LineString":
            return .lineString(try line(from: coordinates, at: at))
        case "MultiLineString":
            return .multiLineString(
                try array(coordinates, at: at).enumerated().map { (index, value) throws(GeoDataError) in
                    try line(from: value, at: "\(at)[\(index)]")
                })
        case "Polygon":
            return .polygon(try rings(from: coordinates, at: at))
        case "MultiPolygon":
            return .multiPolygon(
                try array(coordinates, at: at).enumerated().map { (index, value) throws(GeoDataError) in
                    try rings(from: value, at: "\(at)[\(index)]")
                })
        default:
            throw error("type \"\(type)\" is not a GeoJSON geometry type", at: location)
        }
    }

    // MARK: - Coordinates

    func rings(from value: JSONValue, at location: String) throws(GeoDataError) -> [[Position]] {
        try array(value, at: location).enumerated().map { (index, member) throws(GeoDataError) in
            let at = "\(location)[\(index)]"
            var ring = try positions(from: member, at: at)
            // A ring that does not end where it starts (against RFC 7946 §3.1.6) is closed, as
            // MapLibre and GDAL read it.
            if let first = ring.first, ring.count >= 3, first != ring.last { ring.append(first) }
            guard ring.count >= 4 else {
                throw error("a polygon ring needs at least 4 positions, it has \(ring.count)", at: at)
            }
            return ring
        }
    }

    func line(from value: JSONValue, at location: String) throws(GeoDataError) -> [Position] {
        let line = try positions(from: value, at: location)
        guard line.count >= 2 else {
            throw error("a line needs at least 2 positions, it has \(line.count)", at: location)
        }
        return line
    }

    func positions(from value: JSONValue, at location: String) throws(GeoDataError) -> [Position] {
        try array(value, at: location).enumerated().map { (index, member) throws(GeoDataError) in
            try position(from: member, at: "\(location)[\(index)]")
        }
    }

    func position(from value: JSONValue, at location: String) throws(GeoDataError) -> Position {
        let members = try array(value, at: location)
        guard members.count >= 2, case .number(let longitude) = members[0], case .number(let latitude) = members[1]
        else {
            throw error("a position needs at least two numbers, longitude then latitude", at: location)
        }
        if let toWGS84 {
            // Easting and northing (the traditional GIS order, as GDAL reads them) to degrees.
            guard let placed = try? toWGS84.transform(x: longitude, y: latitude), placed.x.isFinite, placed.y.isFinite,
                let coordinate = try? Coordinate(latitude: placed.y, longitude: placed.x)
            else {
                throw error(
                    "PROJ cannot place [\(longitude), \(latitude)] of \(toWGS84.source) on the globe", at: location)
            }
            return Position(coordinate)
        }
        do {
            return Position(try Coordinate(latitude: latitude, longitude: longitude))
        } catch {
            throw self.error("\(error)", at: location)
        }
    }

    // MARK: - Shapes

    func object(_ value: JSONValue, at location: String) throws(GeoDataError) -> [String: JSONValue] {
        guard case .object(let object) = value else {
            throw error("expected an object, found \(value.kindDescription)", at: location)
        }
        return object
    }

    func array(_ value: JSONValue, at location: String) throws(GeoDataError) -> [JSONValue] {
        guard case .array(let array) = value else {
            throw error("expected an array, found \(value.kindDescription)", at: location)
        }
        return array
    }

    func type(of object: [String: JSONValue], at location: String) throws(GeoDataError) -> String {
        guard case .string(let type)? = object["type"] else {
            throw error("it has no \"type\" string", at: location)
        }
        return type
    }

    func error(_ reason: String, at location: String) -> GeoDataError {
        .invalidGeoJSON(path: path, featureIndex: featureIndex, reason: "\(location): \(reason)")
    }
}
