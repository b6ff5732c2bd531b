public import MapJSON

/// A geometry with properties: a GeoJSON Feature (RFC 7946 §3.2) or a GeoPackage table row.
///
/// For example:
///
/// ```swift
/// let france = features.first { $0.properties["NAME"]?.stringValue == "France" }
/// ```
public struct Feature: Hashable, Sendable {
    /// A feature identifier: GeoJSON's `id` (a string or a number), a GeoPackage row's primary key.
    public enum Identifier: Hashable, Sendable {
        case string(String)
        case number(Double)
    }

    /// The identifier, when the source gives one.
    public var id: Identifier?
    /// The geometry; `nil` for GeoJSON's `"geometry": null` or a NULL geometry column.
    public var geometry: Geometry?
    /// Property values by name: GeoJSON's `properties`, a GeoPackage row's other columns.
    public var properties: [String: FeatureValue]

    /// Creates a feature.
    public init(id: Identifier? = nil, geometry: Geometry?, properties: [String: FeatureValue] = [:]) {
        self.id = id
        self.geometry = geometry
        self.properties = properties
    }
}
