public import MapCore

/// Features in order: a GeoJSON FeatureCollection (RFC 7946 §3.3), a GeoPackage table, a GPX file.
public struct FeatureCollection: Hashable, Sendable {
    /// The features, in the order the source lists them.
    public var features: [Feature]
    /// The members of a GeoJSON FeatureCollection that are not valid GeoJSON, each one's error
    /// in file order; they are left out of ``features``. Empty by default.
    public var skippedFeatures: [GeoDataError]

    /// Creates a collection.
    public init(features: [Feature], skippedFeatures: [GeoDataError] = []) {
        self.features = features
        self.skippedFeatures = skippedFeatures
    }

    /// One warning line for ``skippedFeatures``, or `nil` when there are none: the file, the
    /// count and the first reason, as in `trip.geojson: 2 broken features are not drawn (the
    /// first: feature 3: geometry.coordinates[0]: a polygon ring needs at least 4 positions, it has 2)`.
    public var skippedFeaturesWarning: String? {
        guard let first = skippedFeatures.first else { return nil }
        let count = skippedFeatures.count
        let reason: String
        let path: String
        switch first {
        case .invalidGeoJSON(let file, let index?, let text):
            path = file
            reason = "feature \(index): \(text)"
        default:
            path = ""
            reason = first.description
        }
        let what = count == 1 ? "1 broken feature is" : "\(count) broken features are"
        return "\(path.isEmpty ? "" : "\(path): ")\(what) not drawn (the first: \(reason))"
    }

    /// The smallest box containing every feature's geometry, or `nil` when none has a position.
    public var boundingBox: BoundingBox? {
        features.compactMap { $0.geometry?.boundingBox }.reduce(nil) { $0?.union($1) ?? $1 }
    }
}
