import ArgumentParser
import Foundation
import MapComposer
import Testing

@testable import MapCLI

/// `mapwright cluster` run as a process: the GeoJSON web viewers read, and clear errors.
struct ClusterCommandTests {
    private func features(_ output: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "FeatureCollection")
        return try #require(object["features"] as? [[String: Any]])
    }

    @Test func printsClustersAndPointsAsGeoJSONWithSuperclustersProperties() throws {
        let result = try MapwrightProcess.run(["cluster", "--photos", "Samples/photos", "--zoom", "3", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let items = try features(result.standardOutput)
        let clusters = items.filter { ($0["properties"] as? [String: Any])?["cluster"] as? Bool == true }
        #expect(!clusters.isEmpty)
        for cluster in clusters {
            let properties = try #require(cluster["properties"] as? [String: Any])
            #expect(
                Set(properties.keys).isSuperset(of: [
                    "cluster", "cluster_id", "point_count", "point_count_abbreviated", "expansion_zoom",
                ]))
            #expect((properties["point_count"] as? Int ?? 0) >= 2)
            let geometry = try #require(cluster["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "Point" && (geometry["coordinates"] as? [Double])?.count == 2)
        }
        // Every located sample photo is counted once: 21 photos in all.
        let total = items.reduce(0) { sum, feature in
            let properties = feature["properties"] as? [String: Any]
            return sum + ((properties?["cluster"] as? Bool == true) ? (properties?["point_count"] as? Int ?? 0) : 1)
        }
        #expect(total == 21)
    }

    @Test func photographersNeverShareAClusterUnlessAllAreAsked() throws {
        func clusterCount(_ extra: [String]) throws -> Int {
            let result = try MapwrightProcess.run(
                ["cluster", "--photos", "Samples/photos", "--zoom", "0", "--json"] + extra)
            #expect(result.status == 0, "\(result.standardError)")
            return try features(result.standardOutput).count
        }
        let byPhotographer = try clusterCount([])
        let all = try clusterCount(["--cluster-by", "all"])
        let none = try clusterCount(["--cluster-by", "none"])
        #expect(all < byPhotographer && byPhotographer < none && none == 21)
    }

    @Test func aBoundingBoxAcrossTheAntimeridianIsQueriedOnBothSides() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mapwright-cluster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = directory.appendingPathComponent("pacific.csv")
        try Data("latitude,longitude,title\n-17.7,178.1,Suva\n-14.3,-170.7,Pago Pago\n10,0,Far away\n".utf8).write(
            to: csv)
        let result = try MapwrightProcess.run([
            "cluster", "--photos", csv.path, "--zoom", "8", "--bbox", "170,-25,-165,-5", "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let titles = try features(result.standardOutput).compactMap {
            ($0["properties"] as? [String: Any])?["title"] as? String
        }
        #expect(Set(titles) == ["Suva", "Pago Pago"])
    }

    @Test(arguments: [
        (["--zoom", "3", "--radius", "0"], "radius"),
        (["--zoom", "3", "--min-points", "1"], "--min-points: 1"),
        (["--zoom", "3", "--max-zoom", "31"], "--max-zoom: 31"),
        (["--zoom", "40"], "--zoom"),
        (["--zoom", "3", "--bbox", "1,2,3"], "--bbox"),
        (["--zoom", "3", "--cluster-by", "camera"], "cluster-by"),
    ])
    func badOptionsFailWithOneLine(arguments: [String], fragment: String) throws {
        let result = try MapwrightProcess.run(["cluster", "--photos", "Samples/photos"] + arguments)
        #expect(result.status == 2, "\(arguments): \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.contains(fragment), "\(result.standardError)")
    }

    @Test func renderClustersUnlessToldNotTo() throws {
        let clustered = try RenderCommand.parse(["--photos", "Samples/photos"])
        #expect(clustered.clustering == nil && clustered.drawing.clusterBy == .photographer)
        #expect(try RenderCommand.parse(["--no-cluster"]).clustering == .noCluster)
        #expect(try RenderCommand.parse(["--cluster"]).clustering?.clustering == .always)
        #expect(try RenderCommand.parse(["--cluster", "--cluster-by", "all"]).drawing.clusterBy == .all)
    }
}
