import Foundation
public import MapCore

/// A vector source over one GeoPackage feature table: its rows are read once, and rect queries
/// go through the table's R-tree index (a scan of the feature rects when it has none).
///
/// For example:
///
/// ```swift
/// let geoPackage = try GeoPackage(path: "Tiles/basemap/world_map.gpkg")
/// let countries = try GeoPackageSource(geoPackage: geoPackage, table: "countries")
/// ```
public final class GeoPackageSource: FeatureSource {
    public let name: String
    public let features: [Feature]
    public let featureRects: [MapRect]
    /// The GeoPackage the features come from.
    public let geoPackage: GeoPackage
    /// The table the features come from.
    public let table: GeoPackage.FeatureTable

    /// Feature positions by primary key, to turn R-tree hits into indices.
    private let indexByID: [Int64: Int]

    /// Reads every feature of a table.
    ///
    /// - Parameters:
    ///   - geoPackage: An open GeoPackage.
    ///   - tableName: The feature table (compared case-insensitively).
    /// - Throws: ``GeoDataError`` naming the file and the table, or the row at fault.
    public init(geoPackage: GeoPackage, table tableName: String) throws(GeoDataError) {
        let table = try geoPackage.featureTable(named: tableName)
        let features = try geoPackage.features(in: table)
        var indexByID: [Int64: Int] = [:]
        for (index, feature) in features.enumerated() {
            if case .number(let id)? = feature.id { indexByID[Int64(id)] = index }
        }
        self.name = "\((geoPackage.path as NSString).lastPathComponent):\(table.name)"
        self.features = features
        self.featureRects = features.map { $0.geometry?.mapRect ?? .null }
        self.geoPackage = geoPackage
        self.table = table
        self.indexByID = indexByID
    }

    public func featureIndices(inWorldRect rect: MapRect) throws(GeoDataError) -> [Int] {
        guard !rect.isNull else { return [] }
        guard let identifiers = try geoPackage.featureIDs(in: table, intersecting: BoundingBox(rect)) else {
            return featureRects.indices.filter { featureRects[$0].intersects(rect) }
        }
        // The R-tree's float envelopes are a little generous; the exact rects decide.
        return identifiers.compactMap { indexByID[$0] }.filter { featureRects[$0].intersects(rect) }.sorted()
    }
}
