import Foundation
public import MapCore
import Synchronization

/// A vector source over one GeoPackage feature table, read on demand: opening reads the
/// table's primary keys only; a rect query goes through the table's R-tree index and reads the
/// rows it finds that have not been read yet, so a street-level view reads the few countries,
/// lakes and rivers around it rather than the whole world. Rows once read are kept. A table
/// without an R-tree is read whole on the first query and scanned by feature rects.
///
/// For example:
///
/// ```swift
/// let geoPackage = try GeoPackage(path: "Tiles/basemap/world_map.gpkg")
/// let countries = try GeoPackageSource(geoPackage: geoPackage, table: "countries")
/// let near = try countries.features(in: helsinkiRect)   // reads Finland and its neighbours
/// ```
///
/// Thread-safe: rows read are kept behind a `Mutex`, held while reading so that each row is
/// read once.
public final class GeoPackageSource: FeatureSource {
    public let name: String
    /// The GeoPackage the features come from.
    public let geoPackage: GeoPackage
    /// The table the features come from.
    public let table: GeoPackage.FeatureTable

    /// Every row's primary key, in the table's order: a feature's index is its key's place here.
    private let identifiers: [Int64]
    /// Feature positions by primary key, to turn R-tree hits into indices.
    private let indexByID: [Int64: Int]
    private let loaded: Mutex<Loaded>

    /// The rows read so far, by index, with their exact map rects; `whole` once all are read.
    private struct Loaded {
        var features: [Feature?]
        var rects: [MapRect]
        /// Whether the row at an index was read (its feature may still be nil: a row that did
        /// not decode).
        var isRead: [Bool]
        var whole: (features: [Feature], rects: [MapRect])?
    }

    /// Opens a table: reads its primary keys, not its rows.
    ///
    /// - Parameters:
    ///   - geoPackage: An open GeoPackage.
    ///   - tableName: The feature table (compared case-insensitively).
    /// - Throws: ``GeoDataError`` naming the file and the table.
    public init(geoPackage: GeoPackage, table tableName: String) throws(GeoDataError) {
        let table = try geoPackage.featureTable(named: tableName)
        let identifiers = try geoPackage.featureIDs(in: table)
        var indexByID: [Int64: Int] = [:]
        indexByID.reserveCapacity(identifiers.count)
        for (index, identifier) in identifiers.enumerated() { indexByID[identifier] = index }
        self.name = "\((geoPackage.path as NSString).lastPathComponent):\(table.name)"
        self.geoPackage = geoPackage
        self.table = table
        self.identifiers = identifiers
        self.indexByID = indexByID
        loaded = Mutex(
            Loaded(
                features: Array(repeating: nil, count: identifiers.count),
                rects: Array(repeating: .null, count: identifiers.count),
                isRead: Array(repeating: false, count: identifiers.count)))
    }

    public var featureCount: Int {
        identifiers.count
    }

    /// Every row, read now if some were not yet (a row that cannot be read leaves the feature
    /// without geometry; queries throw its error).
    public var features: [Feature] {
        (try? whole().features) ?? []
    }

    public var featureRects: [MapRect] {
        (try? whole().rects) ?? []
    }

    public func features(at indices: [Int]) throws(GeoDataError) -> [Feature] {
        try read(indices).features
    }

    public func featureIndices(inWorldRect rect: MapRect) throws(GeoDataError) -> [Int] {
        guard !rect.isNull else { return [] }
        guard let found = try geoPackage.featureIDs(in: table, intersecting: BoundingBox(rect)) else {
            let rects = try whole().rects
            return rects.indices.filter { rects[$0].intersects(rect) }
        }
        // The R-tree's float envelopes are a little generous; the exact rects decide.
        let indices = Array(Set(found.compactMap { indexByID[$0] })).sorted()
        // The rects alone: copying the features too retained each one's geometry and
        // properties (a tenth of the world tiles' time was retains and releases).
        let rects = try loaded.withLock { loaded throws(GeoDataError) in
            try readRows(indices, into: &loaded)
            return indices.map { loaded.rects[$0] }
        }
        return zip(indices, rects).filter { $0.1.intersects(rect) }.map(\.0)
    }

    /// The features and rects at `indices`, reading the rows not read yet.
    private func read(_ indices: [Int]) throws(GeoDataError) -> (features: [Feature], rects: [MapRect]) {
        try loaded.withLock { loaded throws(GeoDataError) in
            try readRows(indices, into: &loaded)
            var features: [Feature] = []
            var rects: [MapRect] = []
            features.reserveCapacity(indices.count)
            rects.reserveCapacity(indices.count)
            for index in indices {
                features.append(
                    loaded.features[index]
                        ?? Feature(id: .number(Double(identifiers[index])), geometry: nil, properties: [:]))
                rects.append(loaded.rects[index])
            }
            return (features, rects)
        }
    }

    /// Reads the rows at `indices` not read yet into `loaded`.
    private func readRows(_ indices: [Int], into loaded: inout Loaded) throws(GeoDataError) {
        let missing = indices.filter { !loaded.isRead[$0] }
        guard !missing.isEmpty else { return }
        for feature in try geoPackage.features(in: table, withIDs: missing.map { identifiers[$0] }) {
            guard case .number(let key)? = feature.id, let index = indexByID[Int64(key)] else { continue }
            loaded.features[index] = feature
            loaded.rects[index] = feature.geometry?.mapRect ?? .null
        }
        for index in missing { loaded.isRead[index] = true }
    }

    /// Every row and rect, the rows not read yet read in one pass of the table.
    private func whole() throws(GeoDataError) -> (features: [Feature], rects: [MapRect]) {
        try loaded.withLock { loaded throws(GeoDataError) in
            if let whole = loaded.whole { return whole }
            let features = try geoPackage.features(in: table)
            let rects = features.map { $0.geometry?.mapRect ?? .null }
            loaded.whole = (features, rects)
            for (index, feature) in features.enumerated() where index < loaded.features.count {
                loaded.features[index] = feature
                loaded.rects[index] = rects[index]
                loaded.isRead[index] = true
            }
            return (features, rects)
        }
    }
}
