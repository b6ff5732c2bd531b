public import MapComposer
public import MapCore
import MapJSON
import MapRenderer
public import PhotoSources

/// What a cluster query asks, as values: the photos, the zoom level and area, which photos may
/// share a cluster and how the index clusters. Answers as `mapwright cluster` does, with the
/// index `render` draws (not to be confused with MapCore's `ClusterInput`, one point of an index):
///
/// ```swift
/// let inputs = ClusterInputs(photos: PhotoInputs(sources: ["photos.csv"]), zoomLevel: 12, area: .place("Finland"))
/// var warnings: [String] = []
/// let clusters = try inputs.query(warnings: &warnings)
/// print(clusters.items.count)
/// ```
public struct ClusterInputs: Sendable {
    /// Where the clusters are looked for.
    public enum Area: Hashable, Sendable {
        case region(CoordinateRegion)
        /// A country or state/province of the bundled basemap.
        case place(String)
    }

    public var photos: PhotoInputs
    /// The zoom level, from 0 to 30; clusters change at whole levels.
    public var zoomLevel: Double
    /// The area queried; nil (the default) is the whole world.
    public var area: Area?
    /// Which photos may share a cluster. The default is the photographer's.
    public var grouping: PhotoMapRequest.ClusterGrouping
    /// The index's radius, fewest points and deepest zoom. The default is ``MapCore/ClusterOptions/init()``:
    /// 40 points, 2 photos, zoom 16.
    public var options: ClusterOptions
    /// Where the bundled basemap is, for a place.
    public var map: MapInputs

    public init(
        photos: PhotoInputs, zoomLevel: Double, area: Area? = nil,
        grouping: PhotoMapRequest.ClusterGrouping = .photographer,
        options: ClusterOptions = ClusterOptions(), map: MapInputs = MapInputs()
    ) {
        self.photos = photos
        self.zoomLevel = zoomLevel
        self.area = area
        self.grouping = grouping
        self.options = options
        self.map = map
    }

    /// The clusters and single photos at ``zoomLevel`` in ``area``: the area first (an unknown
    /// place is reported before any photo is read), then the photos (those without a location
    /// left out, said in `warnings`, appended as they are found), indexed.
    ///
    /// - Throws: ``AssemblyError`` naming the place or photo source at fault;
    ///   ``AssemblyError/nothingToCluster`` (status 1) when no photo has a location.
    public func query(warnings: inout [String]) throws(AssemblyError) -> PhotoClusters {
        let region: CoordinateRegion
        switch area {
        case .region(let value)?:
            region = value
        case .place(let name)?:
            let data = try map.placeData()
            do throws(PhotoMapError) { region = try data.resolvePlace(named: name).region } catch {
                throw .photoMap(error)
            }
        case nil:
            do throws(MapCoreError) {
                region = try CoordinateRegion(west: -180, south: -90, east: 180, north: 90)
            } catch {
                preconditionFailure("the world is a region: \(error)")
            }
        }
        let loaded = try photos.load(requireLocated: false)
        warnings += loaded.warnings
        let photos = loaded.photos
        guard !photos.isEmpty else { throw .nothingToCluster }
        // By index: iterating the array would copy each photo whole.
        let index = ClusterIndex(
            photos.indices.lazy.map {
                ClusterInput(
                    coordinate: photos[$0].coordinate,
                    clusteringIdentifier: grouping.clusteringIdentifier(for: photos[$0]))
            },
            options: options)
        return PhotoClusters(
            photos: photos, index: index, items: index.items(in: region, zoomLevel: zoomLevel), zoomLevel: zoomLevel)
    }
}

/// The answer of a cluster query (``ClusterInputs/query(warnings:)``).
public struct PhotoClusters: Sendable {
    /// The photos indexed; a ``MapCore/ClusterItem/point(index:coordinate:)`` is one of them by index.
    public var photos: [Photo]
    public var index: ClusterIndex
    /// The clusters and single photos shown.
    public var items: [ClusterItem]
    /// The zoom level asked for.
    public var zoomLevel: Double

    public init(photos: [Photo], index: ClusterIndex, items: [ClusterItem], zoomLevel: Double) {
        self.photos = photos
        self.index = index
        self.items = items
        self.zoomLevel = zoomLevel
    }

    /// The whole zoom level the clusters are of.
    public var clusterZoomLevel: Int { index.options.zoomLevel(forQuery: zoomLevel) }

    /// How many of the items are clusters.
    public var clusterCount: Int { items.count { if case .cluster = $0 { true } else { false } } }

    /// Writes the items as a GeoJSON FeatureCollection with supercluster's properties
    /// (``MapJSON/JSONWriter/clusterFeatureCollection(_:pieceBytes:drain:point:)``); single photos
    /// carry their id, title and photographer. Written straight to UTF-8 bytes handed to `write`
    /// a megabyte at a time, ending with a line break: 200,000 features take a few tenths of a second.
    public func writeGeoJSON(_ write: (UnsafeBufferPointer<UInt8>) -> Void) {
        let pieceBytes = 1 << 20
        var writer = JSONWriter(capacity: pieceBytes + 4_096)
        photos.withUnsafeBufferPointer { photos in
            writer.clusterFeatureCollection(items, pieceBytes: pieceBytes, drain: { $0.drain(write) }) { index in
                // Read in place: a copy of the photo (or a property read through an array) would
                // retain each of its strings.
                let photo = photos.baseAddress! + index
                return ClusterPointProperties(
                    id: photo.pointee.id, title: photo.pointee.calloutTitle, photographer: photo.pointee.photographer)
            }
        }
        writer.newline()
        writer.drain(write)
    }
}
