import ArgumentParser
import Dispatch
import Foundation
import MapAssembly
import MapComposer
import MapCore
import MapJSON
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

    @Option(
        parsing: .unconditional,
        help:
            "The folder holding the bundled basemap, for --place; by default $MAPWRIGHT_DATA/Tiles/basemap, then the installed, user and checkout data."
    )
    var basemapDirectory: String?

    @Flag(help: "Print a GeoJSON FeatureCollection instead of text.")
    var json = false

    func validate() throws {
        guard zoom.isFinite, zoom >= 0, zoom <= 30 else {
            throw ValidationError("--zoom: \(ArgumentValues.number(zoom)) is not a zoom level from 0 to 30")
        }
        _ = try options()
        _ = try area.area()
    }

    func run() throws {
        let inputs = try inputs()
        let clusters = try Mapwright.warning { warnings in try inputs.query(warnings: &warnings) }
        if json {
            clusters.writeGeoJSON { FileHandle.standardOutput.write(Data(buffer: $0)) }
        } else {
            var output = TextOutput()
            for item in clusters.items { output.line(text(for: item, photos: clusters.photos)) }
            let count = clusters.clusterCount
            output.line(
                "\(count) clusters and \(clusters.items.count - count) single photos at zoom \(clusters.clusterZoomLevel)"
            )
            output.flush()
        }
        // A million photos take a tenth of a second to free: a thread of the pool frees them
        // while this one returns, and the process, which exits right after, need not wait.
        // Only that thread touches them from then on.
        let leftovers = UnsafeTransfer(clusters)
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(leftovers) {} }
    }

    /// The options as the assembly takes them.
    func inputs() throws -> ClusterInputs {
        let queried: ClusterInputs.Area? =
            switch try area.area() {
            case .region(let region)?: .region(region)
            case .place(let place)?: .place(place)
            case nil: nil
            }
        return ClusterInputs(
            photos: photoSources.inputs, zoomLevel: zoom, area: queried, grouping: clusterBy, options: try options(),
            map: MapInputs(basemapDirectory: basemapDirectory))
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

    private func text(for item: ClusterItem, photos: [Photo]) -> String {
        switch item {
        case .cluster(let cluster):
            return
                "cluster \(cluster.id): \(cluster.count) photos at \(cluster.coordinate), expands at zoom \(cluster.expansionZoom)"
                + (cluster.clusteringIdentifier.map { $0.isEmpty ? "" : " (\($0))" } ?? "")
        case .point(let index, let coordinate):
            let photo = photos[index]
            return "photo \(photo.id): \(photo.calloutTitle) at \(coordinate)"
        }
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
