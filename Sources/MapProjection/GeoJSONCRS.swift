import Foundation
public import MapJSON

/// The coordinate system a GeoJSON file of the 2008 specification names in its top-level `crs`
/// member (RFC 7946 dropped it, but GDAL and older tools still write it), as PROJ reads it.
///
/// - `{"type": "name", "properties": {"name": N}}`, N being `urn:ogc:def:crs:EPSG::3067` (any
///   version between the colons), `EPSG:3067`, `http://www.opengis.net/def/crs/EPSG/0/3067`, or
///   anything else PROJ knows (`ESRI:102100`); `urn:ogc:def:crs:OGC:1.3:CRS84` and EPSG:4326
///   are plain longitudes and latitudes.
/// - `{"type": "EPSG", "properties": {"code": 3067}}`, the 2008 draft's form.
/// - `{"type": "link", ...}` names a file or URL to fetch: refused.
///
/// Positions are read in the traditional GIS order whatever the CRS's official axis order, as
/// GDAL's GeoJSON driver reads them: easting before northing, longitude before latitude (so
/// `urn:ogc:def:crs:EPSG::4326`, officially latitude first, is read longitude first, as every
/// writer of such files writes it).
///
/// ```swift
/// let crs = try GeoJSONCRS(type: "name", name: "urn:ogc:def:crs:EPSG::3067", code: nil)
/// let toWGS84 = try crs.projectionToWGS84()   // nil for longitudes and latitudes
/// ```
public enum GeoJSONCRS: Hashable, Sendable, CustomStringConvertible {
    /// Longitudes and latitudes on WGS 84: no `crs`, CRS84 or EPSG:4326.
    case wgs84
    /// Another CRS, as PROJ is given it (`EPSG:3067`).
    case other(String)

    /// Reads a `crs` member's `type` and its properties' `name` (type `name`) or `code` (type
    /// `EPSG`). Nil `type` is no `crs`.
    ///
    /// - Throws: ``ProjectionError/unknownCRS(_:reason:)`` for a linked crs, a type this does not
    ///   read, or a member without its name or code.
    public init(type: String?, name: String?, code: Double?) throws(ProjectionError) {
        switch type?.lowercased() {
        case nil:
            self = .wgs84
        case "name":
            guard let name, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw .unknownCRS("name", reason: "a crs of type name needs properties.name")
            }
            self = Self.named(name.trimmingCharacters(in: .whitespaces))
        case "epsg":
            guard let code, code == code.rounded(), code > 0 else {
                throw .unknownCRS("EPSG", reason: "a crs of type EPSG needs properties.code")
            }
            self = Self.named("EPSG:\(Int(code))")
        case "link":
            throw .unknownCRS(
                "link",
                reason:
                    "a linked crs (type link) names a file or URL Mapwright does not fetch: reproject to longitudes and latitudes (ogr2ogr -t_srs EPSG:4326) or name the CRS, {\"type\": \"name\", \"properties\": {\"name\": \"EPSG:CODE\"}}"
            )
        case let other?:
            throw .unknownCRS(other, reason: "a crs is of type name (or EPSG), not \(other)")
        }
    }

    /// Reads a GeoJSON document's top-level `crs` member; nil `root` members or no `crs` (or
    /// `"crs": null`) is WGS 84.
    ///
    /// - Throws: ``ProjectionError/unknownCRS(_:reason:)`` as ``init(type:name:code:)`` does,
    ///   and for a `crs` that is not an object with a `type`.
    public init(document root: JSONValue) throws(ProjectionError) {
        guard case .object(let members) = root, let member = members["crs"], member != .null else {
            self = .wgs84
            return
        }
        guard case .object(let object) = member, case .string(let type)? = object["type"] else {
            throw .unknownCRS(
                "crs",
                reason:
                    "a crs is an object with a type, {\"type\": \"name\", \"properties\": {\"name\": \"EPSG:CODE\"}}")
        }
        var properties: [String: JSONValue] = [:]
        if case .object(let given)? = object["properties"] { properties = given }
        var code: Double?
        switch properties["code"] {
        case .number(let number)?: code = number
        case .string(let text)?: code = Double(text)
        default: break
        }
        try self.init(type: type, name: properties["name"]?.text, code: code)
    }

    /// The transformation to longitudes and latitudes of a GeoJSON document's `crs` (nil for
    /// WGS 84), or one line saying why it cannot be used, naming the CRS.
    public static func projectionToWGS84(document root: JSONValue) -> Result<Projection?, GeoJSONCRSProblem> {
        let crs: GeoJSONCRS
        do throws(ProjectionError) { crs = try GeoJSONCRS(document: root) } catch {
            return .failure(GeoJSONCRSProblem(message: "its crs cannot be used: \(error.reason)"))
        }
        do throws(ProjectionError) { return .success(try crs.projectionToWGS84()) } catch {
            // PROJ says "Unknown error (code 4096)" of an EPSG code it has not got.
            let reason = error.reason.hasPrefix("Unknown error") ? "" : " (\(error.reason))"
            return .failure(
                GeoJSONCRSProblem(message: "its crs '\(crs)' is not a coordinate system PROJ knows\(reason)"))
        }
    }

    /// The CRS a name stands for: an EPSG URN or URL as `EPSG:CODE`, CRS84 and EPSG:4326 as WGS 84.
    static func named(_ name: String) -> GeoJSONCRS {
        let lowered = name.lowercased()
        if [
            "urn:ogc:def:crs:ogc:1.3:crs84", "urn:ogc:def:crs:ogc::crs84", "ogc:crs84", "crs84", "wgs84",
            "http://www.opengis.net/def/crs/ogc/1.3/crs84",
        ].contains(lowered) {
            return .wgs84
        }
        var code: Substring?
        if lowered.hasPrefix("urn:ogc:def:crs:epsg:") {
            // urn:ogc:def:crs:EPSG:[version]:CODE
            code = name.split(separator: ":", omittingEmptySubsequences: false).last
        } else if lowered.hasPrefix("epsg:") {
            code = name.dropFirst("epsg:".count)
        } else if lowered.hasPrefix("http://www.opengis.net/def/crs/epsg/") {
            code = name.split(separator: "/").last
        } else if lowered.hasPrefix("http://www.opengis.net/gml/srs/epsg.xml#") {
            code = name.split(separator: "#").last
        }
        if let code, let number = Int(code) {
            return number == 4326 ? .wgs84 : .other("EPSG:\(number)")
        }
        return .other(name)
    }

    /// The CRS as a person reads it: `EPSG:3067`, `WGS 84`.
    public var description: String {
        switch self {
        case .wgs84: "WGS 84"
        case .other(let definition): definition
        }
    }

    /// PROJ's transformation from this CRS to longitudes and latitudes (EPSG:4326, longitude
    /// first); nil for WGS 84, which needs none.
    ///
    /// - Throws: ``ProjectionError/unknownCRS(_:reason:)`` when PROJ does not know the CRS,
    ///   ``ProjectionError/noOperation(source:target:reason:)`` when it cannot transform it.
    public func projectionToWGS84() throws(ProjectionError) -> Projection? {
        switch self {
        case .wgs84: nil
        case .other(let definition): try Projection(from: definition, to: "EPSG:4326")
        }
    }
}

/// Why a GeoJSON document's `crs` cannot be used, as the words after the file's name.
public struct GeoJSONCRSProblem: Error, Hashable, Sendable {
    public var message: String
}

extension ProjectionError {
    /// PROJ's or the crs reader's reason, without the error's own framing.
    public var reason: String {
        switch self {
        case .unknownCRS(_, let reason), .noOperation(_, _, let reason), .transformFailed(_, _, let reason): reason
        }
    }
}
