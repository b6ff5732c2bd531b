import Foundation
public import MapCore

/// A vector source over features held in memory: a GeoJSON or GPX file, or features made in
/// code. A grid index answers rect queries.
///
/// For example:
///
/// ```swift
/// let overlay = try FeatureCollectionSource(geoJSONPath: "trip.geojson")
/// let track = try FeatureCollectionSource(gpxPath: "walk.gpx")
/// ```
public final class FeatureCollectionSource: FeatureSource {
    public let name: String
    public let features: [Feature]
    public let featureRects: [MapRect]

    private let grid: FeatureGrid

    /// Creates a source over features.
    ///
    /// - Parameters:
    ///   - name: A name for messages.
    ///   - collection: The features; positions outside [-180, 180] × [-90, 90] are clamped.
    public init(name: String, collection: FeatureCollection) {
        self.name = name
        features = collection.features
        featureRects = collection.features.map { $0.geometry?.mapRect ?? .null }
        grid = FeatureGrid(rects: featureRects)
    }

    /// Reads a GeoJSON file (see ``GeoJSONReader``); the source is named after the file.
    ///
    /// - Throws: ``GeoDataError`` naming the file and, when it comes to that, the feature.
    public convenience init(geoJSONPath path: String) throws(GeoDataError) {
        self.init(name: (path as NSString).lastPathComponent, collection: try GeoJSONReader.read(path: path))
    }

    /// Reads a GPX file's tracks, routes and waypoints (see ``GPXDocument/featureCollection``).
    ///
    /// - Throws: ``GeoDataError`` naming the file and the line.
    public convenience init(gpxPath path: String) throws(GeoDataError) {
        self.init(
            name: (path as NSString).lastPathComponent, collection: try GPXReader.read(path: path).featureCollection)
    }

    public func featureIndices(inWorldRect rect: MapRect) throws(GeoDataError) -> [Int] {
        grid.indices(meeting: rect)
    }
}
