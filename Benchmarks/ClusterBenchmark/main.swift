// Times ClusterIndex on seeded random points over the world, with the default options: the build
// for 1,000,000 and 100,000 points, queries for a 1920x1080-point view at zooms 0 to 16, and the
// memory the index holds per point (its arrays' capacities, ClusterIndex.storageBytes).
//
// The points follow supercluster's bench.js: longitude uniform in [-180, 180), latitude uniform
// in [-80, 80), all with one clustering identifier (an identifier of nil never clusters).
//
// Usage: ClusterBenchmark [--builds N] [--queries N]
// Build in release: scripts/bench/cluster.sh runs it.
import BenchmarkSupport
import Foundation
import MapCore

var builds = 3
var queriesPerZoom = 500
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--builds", "--queries":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            FileHandle.standardError.write(Data("\(argument) needs a positive integer\n".utf8))
            exit(2)
        }
        if argument == "--builds" { builds = value } else { queriesPerZoom = value }
    default:
        FileHandle.standardError.write(Data("usage: ClusterBenchmark [--builds N] [--queries N]\n".utf8))
        exit(2)
    }
}

/// Seeded random inputs as supercluster's bench.js draws them.
func makeInputs(count: Int, seed: UInt64) throws -> [ClusterInput] {
    var random = SeededGenerator(seed: seed)
    return try (0..<count).map { _ in
        let coordinate = try Coordinate(
            latitude: Double.random(in: -80..<80, using: &random),
            longitude: Double.random(in: -180..<180, using: &random)
        )
        return ClusterInput(coordinate: coordinate, clusteringIdentifier: "all")
    }
}

/// Milliseconds since an arbitrary start.
func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000 }

func padded(_ label: String) -> String { label.padding(toLength: 40, withPad: " ", startingAt: 0) }

print("cores: \(ProcessInfo.processInfo.activeProcessorCount), builds: \(builds), queries per zoom: \(queriesPerZoom)")

for (count, target) in [(1_000_000, 2000.0), (100_000, 200.0)] {
    let inputs = try makeInputs(count: count, seed: 2026)
    var times: [Double] = []
    var index: ClusterIndex?
    for _ in 0..<builds {
        index = nil
        let start = now()
        index = ClusterIndex(inputs)
        times.append(now() - start)
    }
    let bytesPerPoint = Double(index?.storageBytes ?? 0) / Double(count)
    times.sort()
    print(
        padded("build, \(count.formatted()) points")
            + String(
                format: "median %7.1f ms  min %7.1f ms  target <= %.0f ms", times[times.count / 2], times[0], target))
    print(
        padded("memory, \(count.formatted()) points")
            + String(format: "%7.1f bytes per point held  target <= 150", bytesPerPoint))

    guard count == 1_000_000, let index else { continue }
    var random = SeededGenerator(seed: 7)
    var worst = (zoom: 0, milliseconds: 0.0)
    for zoom in 0...16 {
        let pointsPerMapPoint = ZoomLevel.zoomScale(atZoomLevel: Double(zoom))
        let width = 1920 / pointsPerMapPoint
        let height = 1080 / pointsPerMapPoint
        var samples: [Double] = []
        var items = 0
        for _ in 0..<queriesPerZoom {
            let center = MapPoint(
                try Coordinate(
                    latitude: Double.random(in: -80..<80, using: &random),
                    longitude: Double.random(in: -180..<180, using: &random)
                ))
            let rect = MapRect(x: center.x - width / 2, y: center.y - height / 2, width: width, height: height)
            let start = now()
            items += index.items(in: rect, zoomLevel: Double(zoom)).count
            samples.append(now() - start)
        }
        samples.sort()
        let median = samples[samples.count / 2]
        if median > worst.milliseconds { worst = (zoom, median) }
        print(
            padded("query 1920x1080, zoom \(zoom)")
                + String(
                    format: "median %7.3f ms  p99 %7.3f ms  %6.0f items", median,
                    samples[samples.count * 99 / 100], Double(items) / Double(queriesPerZoom)))
    }
    print(
        padded("query 1920x1080, slowest zoom")
            + String(format: "median %7.3f ms at zoom %d  target <= 1 ms", worst.milliseconds, worst.zoom))
}

print()
print(
    "for scale, supercluster (JavaScript) on this kind of machine: about 12 s for 1,000,000 points, 0.8 s for 100,000")
