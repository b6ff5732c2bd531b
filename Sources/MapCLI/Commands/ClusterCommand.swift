import ArgumentParser
import Dispatch
import Foundation
import MapAssembly
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
        let photos = try photoSources.load(requireLocated: false)
        guard !photos.isEmpty else { throw CommandFailure("no photo has a location: nothing to cluster", status: 1) }
        // By index: iterating the array would copy each photo whole.
        let index = ClusterIndex(
            photos.indices.lazy.map { ClusterInput(coordinate: photos[$0].coordinate, clusteringIdentifier: clusterBy.clusteringIdentifier(for: photos[$0])) },
            options: try options())
        let items = index.items(in: queryRegion, zoomLevel: zoom)
        if json {
            photos.withUnsafeBufferPointer { writeGeoJSON(items, photos: $0) }
        } else {
            var output = TextOutput()
            for item in items { output.line(text(for: item, photos: photos)) }
            let clusters = items.filter { if case .cluster = $0 { return true }; return false }.count
            output.line("\(clusters) clusters and \(items.count - clusters) single photos at zoom \(index.options.zoomLevel(forQuery: zoom))")
            output.flush()
        }
        // A million photos take a tenth of a second to free: a thread of the pool frees them
        // while this one returns, and the process, which exits right after, need not wait.
        // Only that thread touches them from then on.
        let leftovers = UnsafeTransfer((photos, index))
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(leftovers) {} }
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
            return try MapInputs(basemapDirectory: basemapDirectory).placeData().resolvePlace(named: place).region
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

    /// Prints the items as a GeoJSON FeatureCollection with supercluster's properties (`cluster`,
    /// `cluster_id`, `point_count`, `point_count_abbreviated`, `expansion_zoom`, and
    /// `clustering_identifier` when not empty); single photos carry their id, title and
    /// photographer. Written straight to UTF-8 bytes, a megabyte at a time, ending with a line
    /// break: 200,000 features take a few tenths of a second.
    /// Members come in a fixed order: `type`, `id` (clusters), `geometry`, `properties`.
    private func writeGeoJSON(_ items: [ClusterItem], photos: UnsafeBufferPointer<Photo>) {
        let pieceBytes = 1 << 20
        var writer = JSONWriter(capacity: pieceBytes + 4_096)
        func writeOut() { writer.drain { FileHandle.standardOutput.write(Data(buffer: $0)) } }
        writer.beginObject()
        writer.key("type")
        writer.string("FeatureCollection")
        writer.key("features")
        writer.beginArray()
        for item in items {
            writer.clusterFeature(item) { writer, index in
                // Read in place: a copy of the photo (or a property read through an array) would
                // retain each of its strings.
                let photo = photos.baseAddress! + index
                writer.key("id")
                writer.string(photo.pointee.id)
                writer.key("title")
                writer.string(photo.pointee.calloutTitle)
                if let photographer = photo.pointee.photographer {
                    writer.key("photographer")
                    writer.string(photographer)
                }
            }
            if writer.bytes.count >= pieceBytes { writeOut() }
        }
        writer.endArray()
        writer.endObject()
        writer.newline()
        writeOut()
    }
}

/// Lines for standard output, written a megabyte at a time (a `print` per line takes seconds
/// for a million lines).
private struct TextOutput {
    private var bytes: [UInt8] = []

    mutating func line(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        if bytes.count >= 1 << 20 { flush() }
    }

    mutating func flush() {
        FileHandle.standardOutput.write(Data(bytes))
        bytes.removeAll(keepingCapacity: true)
    }
}
