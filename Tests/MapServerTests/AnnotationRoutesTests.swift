import Foundation
import HTTPTypes
import HummingbirdTesting
import MapComposer
import MapCore
import MapRenderer
import MapServer
import MapStyle
import MapTestSupport
import Testing

/// The photos as GeoJSON for a web viewer: clusters and photos in a box at a zoom, a cluster's
/// leaves page by page, and its expansion zoom, checked against what supercluster promises
/// (every photo shown exactly once at every zoom; the leaves are the cluster's photos; at the
/// expansion zoom the cluster has split) rather than against recorded answers.
@Suite struct AnnotationRoutesTests {
    /// 30 photos around Cape Town by Ana, 20 around Paris (10 by Ana, 10 by Bo), two either side
    /// of the antimeridian near Fiji, by Bo.
    static func photos() throws -> [MapAnnotation] {
        var photos: [(String, Double, Double, String)] = []
        for index in 0..<30 {
            photos.append(("cape-\(index)", -33.9 + Double(index % 6) * 0.01, 18.4 + Double(index / 6) * 0.01, "Ana"))
        }
        for index in 0..<20 {
            photos.append(
                (
                    "paris-\(index)", 48.85 + Double(index % 5) * 0.004, 2.35 + Double(index / 5) * 0.004,
                    index < 10 ? "Ana" : "Bo"
                ))
        }
        photos.append(("fiji-east", -17.0, 179.95, "Bo"))
        photos.append(("fiji-west", -17.0, -179.95, "Bo"))
        return try photos.map { id, latitude, longitude, photographer in
            MapAnnotation(
                id: id, coordinate: try Coordinate(latitude: latitude, longitude: longitude), title: "Photo \(id)",
                subtitle: "2024-05-01", marker: .pin(.black), clusteringIdentifier: photographer)
        }
    }

    static func server(clustered: Bool = true, folder: TemporaryDirectory) throws -> MapTileServer {
        let style = try ServerFixtures.colourStyle("#ffffff")
        let annotations = try photos()
        let index =
            clustered
            ? ClusterIndex(
                annotations.map {
                    ClusterInput(coordinate: $0.coordinate, clusteringIdentifier: $0.clusteringIdentifier)
                })
            : nil
        let overlay = ServedOverlay(style: style.style, data: style.data, contentHash: "photos") { _ in
            MapTileContent(annotations: annotations, clusterIndex: index)
        }
        return ServerFixtures.server(ServerContent(styles: [style], overlay: overlay), folder: folder)
    }

    struct Feature {
        var coordinates: [Double]
        var properties: [String: Any]
        var count: Int { properties["cluster"] as? Bool == true ? properties["point_count"] as? Int ?? -1 : 1 }
    }

    static func features(_ response: TestResponse) throws -> [Feature] {
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "application/geo+json")
        let json = try response.json()
        #expect(json["type"] as? String == "FeatureCollection")
        let features = try #require(json["features"] as? [[String: Any]])
        return try features.map { feature in
            #expect(feature["type"] as? String == "Feature")
            let geometry = try #require(feature["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "Point")
            return Feature(
                coordinates: try #require(geometry["coordinates"] as? [Double]),
                properties: try #require(feature["properties"] as? [String: Any]))
        }
    }

    @Test func everyPhotoIsShownOnceAtEveryZoom() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.server(folder: folder)
        let total = try Self.photos().count
        try await ServerFixtures.test(server) { client in
            var sawClusters = false
            for zoom in 0...20 {
                let features = try await client.execute(
                    uri: "/annotations.json?bbox=-180,-85,180,85&zoom=\(zoom)", method: .get
                ) {
                    try Self.features($0)
                }
                #expect(features.reduce(0) { $0 + $1.count } == total, "zoom \(zoom)")
                let clusters = features.filter { $0.properties["cluster"] as? Bool == true }
                sawClusters = sawClusters || !clusters.isEmpty
                for cluster in clusters {
                    #expect(cluster.properties["cluster_id"] is Int)
                    #expect(cluster.properties["point_count_abbreviated"] as? String == String(cluster.count))
                    #expect(
                        (cluster.properties["expansion_zoom"] as? Int ?? -1) > zoom,
                        "a cluster shown at \(zoom) splits deeper")
                    // Photos cluster only with their own photographer's.
                    #expect(["Ana", "Bo"].contains(cluster.properties["clustering_identifier"] as? String ?? ""))
                }
                if zoom == 20 {
                    #expect(clusters.isEmpty, "at zoom 20 every photo stands alone")
                    let ids = Set(features.compactMap { $0.properties["id"] as? String })
                    #expect(ids == Set(try Self.photos().map(\.id)))
                    let cape = try #require(features.first { $0.properties["id"] as? String == "cape-0" })
                    #expect(cape.coordinates == [18.4, -33.9])
                    #expect(cape.properties["title"] as? String == "Photo cape-0")
                    #expect(cape.properties["subtitle"] as? String == "2024-05-01")
                    #expect(cape.properties["photographer"] as? String == "Ana")
                }
            }
            #expect(sawClusters)
        }
    }

    @Test func aBoxInTheSouthWestOrAcrossTheAntimeridianHoldsOnlyItsPhotos() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.server(folder: folder)
        try await ServerFixtures.test(server) { client in
            let cape = try await client.execute(uri: "/annotations.json?bbox=17,-35,20,-33&zoom=18", method: .get) {
                try Self.features($0)
            }
            #expect(cape.count == 30)
            #expect(cape.allSatisfy { ($0.properties["id"] as? String ?? "").hasPrefix("cape-") })
            // EAST < WEST: the box crosses the antimeridian.
            let fiji = try await client.execute(uri: "/annotations.json?bbox=179,-18,-179,-16&zoom=18", method: .get) {
                try Self.features($0)
            }
            #expect(Set(fiji.compactMap { $0.properties["id"] as? String }) == ["fiji-east", "fiji-west"])
            let none = try await client.execute(uri: "/annotations.json?bbox=-60,-10,-50,0&zoom=5", method: .get) {
                try Self.features($0)
            }
            #expect(none.isEmpty)
        }
    }

    @Test func leavesPageThroughExactlyTheClustersPhotos() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.server(folder: folder)
        try await ServerFixtures.test(server) { client in
            let features = try await client.execute(uri: "/annotations.json?bbox=-180,-85,180,85&zoom=3", method: .get)
            { try Self.features($0) }
            let cape = try #require(
                features.first { $0.properties["cluster"] as? Bool == true && $0.coordinates[1] < -30 })
            let id = try #require(cape.properties["cluster_id"] as? Int)
            #expect(cape.count == 30)
            var leaves: [String] = []
            for offset in stride(from: 0, to: 35, by: 7) {
                let page = try await client.execute(
                    uri: "/clusters/\(id)/leaves?limit=7&offset=\(offset)", method: .get
                ) { try Self.features($0) }
                #expect(page.count == min(7, max(0, 30 - offset)), "offset \(offset)")
                #expect(page.allSatisfy { $0.properties["cluster"] as? Bool == false })
                leaves += page.compactMap { $0.properties["id"] as? String }
            }
            #expect(leaves.count == 30)
            #expect(Set(leaves) == Set((0..<30).map { "cape-\($0)" }))
            // The default page is 10.
            let first = try await client.execute(uri: "/clusters/\(id)/leaves", method: .get) { try Self.features($0) }
            #expect(first.count == 10)
        }
    }

    @Test func atItsExpansionZoomAClusterHasSplit() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.server(folder: folder)
        try await ServerFixtures.test(server) { client in
            let features = try await client.execute(uri: "/annotations.json?bbox=-180,-85,180,85&zoom=2", method: .get)
            { try Self.features($0) }
            let clusters = features.filter { $0.properties["cluster"] as? Bool == true }
            #expect(!clusters.isEmpty)
            for cluster in clusters {
                let id = try #require(cluster.properties["cluster_id"] as? Int)
                let answer = try await client.execute(uri: "/clusters/\(id)/expansion-zoom", method: .get) {
                    try $0.json()
                }
                #expect(answer["cluster_id"] as? Int == id)
                let zoom = try #require(answer["expansion_zoom"] as? Int)
                #expect(zoom == cluster.properties["expansion_zoom"] as? Int)
                let leaves = try await client.execute(uri: "/clusters/\(id)/leaves?limit=1000", method: .get) {
                    try Self.features($0)
                }
                let members = Set(leaves.compactMap { $0.properties["id"] as? String })
                // One zoom above, the members are still one cluster; at the expansion zoom they are in more than one item.
                func itemsHolding(atZoom zoom: Int) async throws -> Int {
                    let shown = try await client.execute(
                        uri: "/annotations.json?bbox=-180,-85,180,85&zoom=\(zoom)", method: .get
                    ) { try Self.features($0) }
                    var holding = 0
                    for item in shown {
                        if let photo = item.properties["id"] as? String, item.properties["cluster"] as? Bool == false {
                            holding += members.contains(photo) ? 1 : 0
                        } else if let other = item.properties["cluster_id"] as? Int {
                            let inside = try await client.execute(
                                uri: "/clusters/\(other)/leaves?limit=1000", method: .get
                            ) { try Self.features($0) }
                            holding +=
                                inside.contains { members.contains($0.properties["id"] as? String ?? "") } ? 1 : 0
                        }
                    }
                    return holding
                }
                #expect(try await itemsHolding(atZoom: zoom - 1) == 1, "cluster \(id)")
                #expect(try await itemsHolding(atZoom: zoom) > 1, "cluster \(id)")
            }
        }
    }

    @Test func withoutClusteringEveryPhotoIsAPointAndClusterRoutesAre404() async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.server(clustered: false, folder: folder)
        try await ServerFixtures.test(server) { client in
            let features = try await client.execute(uri: "/annotations.json?bbox=-180,-85,180,85&zoom=0", method: .get)
            { try Self.features($0) }
            #expect(features.count == 52)
            try await client.execute(uri: "/clusters/0/leaves", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.text == "photos are not clustered (--no-cluster)\n")
            }
        }
    }

    @Test(arguments: [
        ("/annotations.json?zoom=3", 400, "bbox: missing; give bbox=WEST,SOUTH,EAST,NORTH in degrees\n"),
        ("/annotations.json?bbox=1,2,3&zoom=3", 400, "bbox: '1,2,3' is not WEST,SOUTH,EAST,NORTH in degrees\n"),
        ("/annotations.json?bbox=-10,35,5,45", 400, "zoom: missing; give zoom=Z, 0 to 24\n"),
        ("/annotations.json?bbox=-10,35,5,45&zoom=abc", 400, "zoom: 'abc' is not a zoom from 0 to 24\n"),
        ("/clusters/abc/leaves", 400, "cluster id 'abc' is not a whole number\n"),
        ("/clusters/0/leaves?limit=0", 400, "limit: '0' is not a whole number from 1 to 1000\n"),
        ("/clusters/999999/leaves", 404, "no cluster 999999\n"),
        ("/clusters/999999/expansion-zoom", 404, "no cluster 999999\n"),
    ])
    func badQueriesAreOneLine(uri: String, status: Int, message: String) async throws {
        let folder = try TemporaryDirectory()
        let server = try Self.server(folder: folder)
        try await ServerFixtures.test(server) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(Int(response.status.code) == status)
                #expect(response.text == message)
            }
        }
    }

    @Test func withoutPhotosTheAnnotationsAre404() async throws {
        let folder = try TemporaryDirectory()
        let server = ServerFixtures.server(
            ServerContent(styles: [try ServerFixtures.colourStyle("#ffffff")]), folder: folder)
        try await ServerFixtures.test(server) { client in
            try await client.execute(uri: "/annotations.json?bbox=-10,35,5,45&zoom=3", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.text == "no photos are served (start with --photos)\n")
            }
        }
    }
}
