import ArgumentParser
import Foundation
import MapComposer
import MapCore
import MapJSON
import MapRenderer
import MapUtilities
import PhotoSources

/// `mapwright cluster`: the clusters and single photos a map shows at a zoom level, as text or
/// as the GeoJSON web viewers read (supercluster's properties).
struct ClusterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Print the clusters and single photos shown at a zoom level, as text or GeoJSON.",
        discussion: """
            Clusters come from the same index `render` draws: hierarchical greedy clustering with a \
            radius in points at 256-point tiles. Without --bbox, --region or --place the whole world \
            is queried.
            """
    )

    @OptionGroup var photoSources: PhotoSourceOptions

    @Option(parsing: .unconditional, help: "The zoom level, from 0 to 30; clusters change at whole levels.")
    var zoom: Double

    @OptionGroup var area: AreaOptions

    @Option(parsing: .unconditional, help: "Which photos may share a cluster: photographer, all or none.")
    var clusterBy: PhotoMapRequest.ClusterGrouping = .photographer

    @Option(parsing: .unconditional, help: "The cluster radius in points at 256-point tiles, more than 0.")
    var radius: Double = 40

    @Option(parsing: .unconditional, help: "The fewest photos that make a cluster, at least 2.")
    var minPoints: Int = 2

    @Option(parsing: .unconditional, help: "The zoom level above which every photo stands alone, from 0 to 30.")
    var maxZoom: Int = 16

    @Option(parsing: .unconditional, help: "The folder holding the bundled basemap, for --place; by default $MAPWRIGHT_DATA/Tiles/basemap, then the installed, user and checkout data.")
    var basemapDirectory: String?

    @Flag(help: "Print a GeoJSON FeatureCollection instead of text.")
    var json = false

    func validate() throws {
        guard zoom.isFinite, zoom >= 0, zoom <= 30 else { throw ValidationError("--zoom: \(ArgumentValues.number(zoom)) is not a zoom level from 0 to 30") }
        _ = try options()
        _ = try area.area()
    }

    func run() throws {
        // The area first: an unknown --place is reported before any photo is read.
        let queryRegion = try queryRegion()
        let photos = try photoSources.load()
        guard !photos.isEmpty else { throw CommandFailure("no photo has a location: nothing to cluster", status: 1) }
        let index = ClusterIndex(
            photos.map { ClusterInput(coordinate: $0.coordinate, clusteringIdentifier: clusterBy.clusteringIdentifier(for: $0)) }, options: try options())
        let items = index.items(in: queryRegion, zoomLevel: zoom)
        if json {
            print(geoJSON(items, photos: photos).jsonText)
        } else {
            for item in items { print(text(for: item, photos: photos)) }
            let clusters = items.filter { if case .cluster = $0 { return true }; return false }.count
            print("\(clusters) clusters and \(items.count - clusters) single photos at zoom \(index.options.zoomLevel(forQuery: zoom))")
        }
    }

    private func options() throws -> ClusterOptions {
        do throws(MapCoreError) {
            return try ClusterOptions(radiusPoints: radius, minimumPoints: minPoints, maximumZoom: maxZoom)
        } catch {
            switch error {
            case .invalidClusterRadius:
                throw ValidationError("--radius: \(JSONValue.text(of: radius)) is not a positive number of points")
            case .invalidMinimumClusterPoints:
                throw ValidationError("--min-points: \(minPoints) is less than 2")
            case .invalidClusterZoom(_, _, let range):
                throw ValidationError("--max-zoom: \(maxZoom) is outside [\(range.lowerBound), \(range.upperBound)]")
            default:
                throw ValidationError("\(error)")
            }
        }
    }

    /// The queried region: the option given, else the whole world.
    private func queryRegion() throws -> CoordinateRegion {
        switch try area.area() {
        case .region(let region)?:
            return region
        case .place(let place)?:
            let data = MapData(basemapDirectory: try DataLocations.commands.basemapDirectory(option: basemapDirectory, needed: true))
            let found: CoordinateRegion?
            do { found = try data.region(ofPlaceNamed: place) } catch { throw CommandFailure(error.description) }
            guard let found else {
                let suggestions = (try? data.placeNames(closestTo: place)) ?? []
                throw CommandFailure(PhotoMapError.unknownPlace(place, suggestions: suggestions).description)
            }
            return found
        case nil:
            return try CoordinateRegion(west: -180, south: -90, east: 180, north: 90)
        }
    }

    private func text(for item: ClusterItem, photos: [Photo]) -> String {
        switch item {
        case .cluster(let cluster):
            return "cluster \(cluster.id): \(cluster.count) photos at \(cluster.coordinate), expands at zoom \(cluster.expansionZoom)"
                + (cluster.clusteringIdentifier.map { $0.isEmpty ? "" : " (\($0))" } ?? "")
        case .point(let index, let coordinate):
            let photo = photos[index]
            return "photo \(photo.id): \(photo.calloutTitle) at \(coordinate)"
        }
    }

    /// The items as a GeoJSON FeatureCollection with supercluster's properties (`cluster`,
    /// `cluster_id`, `point_count`, `point_count_abbreviated`, `expansion_zoom`); single photos
    /// carry their id, title and photographer.
    private func geoJSON(_ items: [ClusterItem], photos: [Photo]) -> JSONValue {
        let features = items.map { item -> JSONValue in
            let coordinate = item.coordinate.rounded()
            var properties: [String: JSONValue]
            var feature: [String: JSONValue] = ["type": .string("Feature")]
            switch item {
            case .cluster(let cluster):
                properties = [
                    "cluster": .bool(true),
                    "cluster_id": .number(Double(cluster.id.rawValue)),
                    "point_count": .number(Double(cluster.count)),
                    "point_count_abbreviated": .string(cluster.abbreviatedCount),
                    "expansion_zoom": .number(Double(cluster.expansionZoom)),
                ]
                if let identifier = cluster.clusteringIdentifier, !identifier.isEmpty { properties["clustering_identifier"] = .string(identifier) }
                feature["id"] = .number(Double(cluster.id.rawValue))
            case .point(let index, _):
                let photo = photos[index]
                properties = ["cluster": .bool(false), "id": .string(photo.id), "title": .string(photo.calloutTitle)]
                if let photographer = photo.photographer { properties["photographer"] = .string(photographer) }
            }
            feature["geometry"] = .object([
                "type": .string("Point"),
                "coordinates": .array([.number(coordinate.longitude), .number(coordinate.latitude)]),
            ])
            feature["properties"] = .object(properties)
            return .object(feature)
        }
        return .object(["type": .string("FeatureCollection"), "features": .array(features)])
    }
}
