import Foundation
import MapCore
import Testing

struct ClusterOptionsTests {
    @Test func defaultsAreSuperclustersInMapwrightPoints() throws {
        let options = ClusterOptions()
        #expect(options.radiusPoints == 40)
        #expect(options.minimumPoints == 2)
        #expect(options.minimumZoom == 0)
        #expect(options.maximumZoom == 16)
        #expect(options.tileSizePoints == 256)
        #expect(try ClusterOptions(radiusPoints: 40) == options)
    }

    @Test func badOptionsAreRejectedWithTheValue() {
        func message(_ make: () throws(MapCoreError) -> ClusterOptions) -> String? {
            do throws(MapCoreError) {
                _ = try make()
                return nil
            } catch {
                return error.description
            }
        }
        #expect(
            message { () throws(MapCoreError) in try ClusterOptions(radiusPoints: 0) }
                == "cluster radius 0.0 points must be positive")
        #expect(
            message { () throws(MapCoreError) in try ClusterOptions(radiusPoints: -.infinity) }
                == "cluster radius -inf points must be positive")
        #expect(
            message { () throws(MapCoreError) in try ClusterOptions(minimumPoints: 1) }
                == "minimum points 1 must be at least 2")
        #expect(
            message { () throws(MapCoreError) in try ClusterOptions(maximumZoom: 31) }
                == "maximum zoom 31 is outside [0, 30]")
        #expect(
            message { () throws(MapCoreError) in try ClusterOptions(maximumZoom: -1) }
                == "maximum zoom -1 is outside [0, 30]")
        #expect(
            message { () throws(MapCoreError) in try ClusterOptions(minimumZoom: 12, maximumZoom: 10) }
                == "minimum zoom 12 is outside [0, 10]")
        #expect(
            message { () throws(MapCoreError) in try ClusterOptions(tileSizePoints: .nan) }
                == "cluster tile size nan points must be positive")
    }

    @Test func queryZoomIsFlooredAndClamped() throws {
        let options = try ClusterOptions(minimumZoom: 2, maximumZoom: 14)
        #expect(options.zoomLevel(forQuery: 5.99) == 5)
        #expect(options.zoomLevel(forQuery: 7) == 7)
        #expect(options.zoomLevel(forQuery: 0.5) == 2)
        #expect(options.zoomLevel(forQuery: 14.2) == 14)
        #expect(options.zoomLevel(forQuery: 22) == 15)
        #expect(options.zoomLevel(forQuery: .infinity) == 15)
        #expect(options.zoomLevel(forQuery: .nan) == 2)
    }

    @Test func largerRadiusClustersFartherPoints() throws {
        // 300 km apart on the equator: about 31 points at zoom 4, 61 at zoom 5.
        let inputs = try [0.0, 300_000].map { meters in
            ClusterInput(
                coordinate: try Coordinate(latitude: 0, longitude: meters / (WebMercator.equatorMeters / 360)),
                clusteringIdentifier: "ansel"
            )
        }
        let narrow = ClusterIndex(inputs, options: try ClusterOptions(radiusPoints: 40))
        let wide = ClusterIndex(inputs, options: try ClusterOptions(radiusPoints: 80))
        #expect(narrow.items(in: MapRect.world, zoomLevel: 5).count == 2)
        #expect(narrow.items(in: MapRect.world, zoomLevel: 4).count == 1)
        #expect(wide.items(in: MapRect.world, zoomLevel: 5).count == 1)
        // A 512-point tile doubles the world in tile units: the same as halving the radius.
        let bigTiles = ClusterIndex(inputs, options: try ClusterOptions(radiusPoints: 80, tileSizePoints: 512))
        #expect(bigTiles.items(in: MapRect.world, zoomLevel: 5).count == 2)
        #expect(bigTiles.items(in: MapRect.world, zoomLevel: 4).count == 1)
    }
}

struct ClusterTests {
    @Test func countsAreAbbreviatedAsSuperclusterDoesAndInMillions() {
        #expect(Cluster.abbreviatedCount(16) == "16")
        #expect(Cluster.abbreviatedCount(999) == "999")
        #expect(Cluster.abbreviatedCount(1000) == "1k")
        #expect(Cluster.abbreviatedCount(1234) == "1.2k")
        #expect(Cluster.abbreviatedCount(1250) == "1.3k")
        #expect(Cluster.abbreviatedCount(9950) == "10k")
        #expect(Cluster.abbreviatedCount(34_499) == "34k")
        #expect(Cluster.abbreviatedCount(34_500) == "35k")
        #expect(Cluster.abbreviatedCount(999_499) == "999k")
        #expect(Cluster.abbreviatedCount(999_999) == "1M")
        #expect(Cluster.abbreviatedCount(1_234_567) == "1.2M")
        #expect(Cluster.abbreviatedCount(3_000_000) == "3M")
        #expect(Cluster.abbreviatedCount(12_600_000) == "13M")
    }
}
