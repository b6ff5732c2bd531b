import Dispatch
import Foundation
import Hummingbird
import MapComposer
import MapCore
import MapJSON
import MapRenderer
import Synchronization

/// The photos as GeoJSON from the overlay's cluster index, in supercluster's conventions, for a
/// web viewer to draw as markers:
///
/// - `/annotations.json?bbox=W,S,E,N&zoom=Z`: the clusters and single photos shown at zoom `Z`
///   (whole zooms, as the tiles' clusters are) in the box (EAST < WEST crosses the
///   antimeridian). Clusters carry `cluster: true`, `cluster_id`, `point_count`,
///   `point_count_abbreviated`, `expansion_zoom` and `clustering_identifier` (the photographer
///   when photos cluster by photographer); photos carry `cluster: false`, `id`, `title`,
///   `subtitle` and `photographer`.
/// - `/clusters/{id}/leaves?limit=10&offset=0`: the photos of a cluster, as supercluster's
///   `getLeaves` pages them (`limit` 1 to 1,000, default 10; `offset` default 0).
/// - `/clusters/{id}/expansion-zoom`: `{"cluster_id": id, "expansion_zoom": z}`, the zoom at
///   which the cluster splits (supercluster's `getClusterExpansionZoom`).
///
/// Without photos these answer 404. Bad parameters are one-line 400s; an id the index never made is 404.
struct AnnotationRoutes {
    let server: MapTileServer
    init(server: MapTileServer) {
        self.server = server
    }

    func add(to router: Router<ServeRequestContext>) {
        router.get("/annotations.json") { request, _ in try await annotations(request) }
        router.get("/clusters/{id}/leaves") { request, context in
            try await leaves(request, id: context.parameters.get("id") ?? "")
        }
        router.get("/clusters/{id}/expansion-zoom") { request, context in
            try await expansionZoom(request, id: context.parameters.get("id") ?? "")
        }
    }

    /// The annotations and the cluster index of the overlay.
    private func content() async throws -> MapTileContent {
        guard try server.servedContent().overlay != nil else {
            throw ServeError.notFound("no photos are served (start with --photos)")
        }
        return try await server.overlayContent()
    }

    private func annotations(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        guard let bboxText = query["bbox"].map(String.init) else {
            throw ServeError.badRequest("bbox: missing; give bbox=WEST,SOUTH,EAST,NORTH in degrees")
        }
        let edges = bboxText.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard edges.count == 4, let west = edges[0], let south = edges[1], let east = edges[2], let north = edges[3],
            [west, south, east, north].allSatisfy(\.isFinite)
        else { throw ServeError.badRequest("bbox: '\(bboxText)' is not WEST,SOUTH,EAST,NORTH in degrees") }
        let region: CoordinateRegion
        do throws(MapCoreError) {
            region = try CoordinateRegion(west: west, south: south, east: east, north: north)
        } catch {
            throw ServeError.badRequest("bbox: '\(bboxText)': \(error)")
        }
        guard let zoomText = query["zoom"].map(String.init) else {
            throw ServeError.badRequest("zoom: missing; give zoom=Z, 0 to 24")
        }
        guard let zoom = Double(zoomText), zoom.isFinite, (0...24).contains(zoom) else {
            throw ServeError.badRequest("zoom: '\(zoomText)' is not a zoom from 0 to 24")
        }
        let content = try await content()
        let items: [ClusterItem]
        if let clusters = content.clusterIndex {
            items = clusters.items(in: region, zoomLevel: zoom.rounded(.down))
        } else {
            items = content.annotations.indices.compactMap { index in
                let coordinate = content.annotations[index].coordinate
                return region.contains(coordinate) ? .point(index: index, coordinate: coordinate) : nil
            }
        }
        return geoJSON(items, annotations: content.annotations, request: request)
    }

    private func cluster(_ text: String) async throws -> (ClusterID, ClusterIndex) {
        guard let number = Int(text), number >= 0 else {
            throw ServeError.badRequest("cluster id '\(text)' is not a whole number")
        }
        guard let clusters = try await content().clusterIndex else {
            throw ServeError.notFound("photos are not clustered (--no-cluster)")
        }
        return (ClusterID(rawValue: number), clusters)
    }

    private func leaves(_ request: Request, id: String) async throws -> Response {
        let (cluster, clusters) = try await cluster(id)
        let query = request.uri.queryParameters
        let limit = try Self.integer(query["limit"].map(String.init), name: "limit", range: 1...1_000, default: 10)
        let offset = try Self.integer(
            query["offset"].map(String.init), name: "offset", range: 0...Int(Int32.max), default: 0)
        let indices: [Int]
        do throws(MapCoreError) { indices = try clusters.leaves(of: cluster, limit: limit, offset: offset) } catch {
            throw ServeError.notFound("no cluster \(id)")
        }
        let content = try await content()
        let items = indices.map { ClusterItem.point(index: $0, coordinate: content.annotations[$0].coordinate) }
        return geoJSON(items, annotations: content.annotations, request: request)
    }

    private func expansionZoom(_ request: Request, id: String) async throws -> Response {
        let (cluster, clusters) = try await cluster(id)
        let zoom: Int
        do throws(MapCoreError) { zoom = try clusters.expansionZoom(of: cluster) } catch {
            throw ServeError.notFound("no cluster \(id)")
        }
        return try HTTPCaching.json(
            ["cluster_id": cluster.rawValue, "expansion_zoom": zoom], request: request,
            maxAgeSeconds: server.photosMaxAgeSeconds)
    }

    static func integer(_ text: String?, name: String, range: ClosedRange<Int>, default value: Int) throws -> Int {
        guard let text else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw ServeError.badRequest(
                "\(name): '\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A FeatureCollection of the items, members in a fixed order.
    private func geoJSON(_ items: [ClusterItem], annotations: [MapAnnotation], request: Request) -> Response {
        var writer = JSONWriter()
        writer.clusterFeatureCollection(items) { index in
            let annotation = annotations[index]
            let photographer = annotation.clusteringIdentifier.flatMap { $0.isEmpty ? nil : $0 }
            return ClusterPointProperties(
                id: annotation.id, title: annotation.title, subtitle: annotation.subtitle, photographer: photographer)
        }
        return HTTPCaching.response(
            Data(writer.bytes), contentType: "application/geo+json", request: request,
            maxAgeSeconds: server.photosMaxAgeSeconds)
    }
}
