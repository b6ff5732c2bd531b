import Foundation
import MapCore
import MapTestSupport
import Testing

struct ClusterIndexTests {
    // MARK: - Known clusters

    @Test func threeNeighboursAndAFarPointClusterAsExpectedAtEveryZoom() throws {
        let index = ClusterIndex(try makeNeighboursAndFarPoint())
        for zoom in 0...5 {
            let items = index.items(in: MapRect.world, zoomLevel: Double(zoom))
            #expect(clusterCounts(items) == [4], "zoom \(zoom)")
            #expect(pointIndices(items).isEmpty, "zoom \(zoom)")
        }
        for zoom in 6...16 {
            let items = index.items(in: MapRect.world, zoomLevel: Double(zoom))
            #expect(clusterCounts(items) == [3], "zoom \(zoom)")
            #expect(pointIndices(items) == [3], "zoom \(zoom)")
        }
        for zoom in [17.0, 18.5, 30] {
            #expect(pointIndices(index.items(in: MapRect.world, zoomLevel: zoom)) == [0, 1, 2, 3])
        }
    }

    @Test func clusterSitsAtTheWeightedCentreOfItsPoints() throws {
        let index = ClusterIndex(try makeNeighboursAndFarPoint())
        let cluster = try #require(clusters(index.items(in: MapRect.world, zoomLevel: 10)).first)
        #expect(abs(cluster.coordinate.latitude) < 1e-9)
        #expect(abs(cluster.coordinate.longitude - ClusterIndexTests.degrees(eastMeters: 10)) < 1e-9)
    }

    @Test func minimumPointsLeavesSmallerGroupsAlone() throws {
        let options = try ClusterOptions(minimumPoints: 4)
        let index = ClusterIndex(try makeNeighboursAndFarPoint(), options: options)
        #expect(pointIndices(index.items(in: MapRect.world, zoomLevel: 8)) == [0, 1, 2, 3])
        #expect(clusterCounts(index.items(in: MapRect.world, zoomLevel: 4)) == [4])
    }

    @Test func everyInputIsShownOnceAtEveryZoom() throws {
        let inputs = try makeRandomInputs(count: 3000, seed: 11)
        let index = ClusterIndex(inputs)
        for zoom in 0...17 {
            let items = index.items(in: MapRect.world, zoomLevel: Double(zoom))
            var shown: [Int] = []
            for item in items {
                switch item.item {
                case .point(let input, _): shown.append(input)
                case .cluster(let cluster): shown += try index.leaves(of: cluster.id, limit: .max)
                }
            }
            #expect(shown.sorted() == Array(0..<inputs.count), "zoom \(zoom)")
        }
    }

    @Test func annotationsNorthOfTheWorldsEdgeAreShown() throws {
        // WebMercator.maximumLatitude lies a little north of the world's edge: clamped to it, these
        // had y < 0, outside every rect (supercluster clamps y to the edge, as the index now does).
        let inputs = try [89.9, 85.06, 85.05112878, -89.9].enumerated().map { number, latitude in
            ClusterInput(
                coordinate: try Coordinate(latitude: latitude, longitude: Double(number) * 40),
                clusteringIdentifier: "a")
        }
        let index = ClusterIndex(inputs)
        #expect(pointIndices(index.items(in: MapRect.world, zoomLevel: 17)) == [0, 1, 2, 3])
        let north = try CoordinateRegion(
            center: Coordinate(latitude: 80, longitude: 40),
            span: CoordinateSpan(latitudeDelta: 20, longitudeDelta: 120))
        #expect(pointIndices(index.items(in: north, zoomLevel: 17)) == [0, 1, 2])
    }

    @Test func noInputsShowNothing() {
        let index = ClusterIndex([])
        #expect(index.items(in: MapRect.world, zoomLevel: 0).isEmpty)
        #expect(index.items(in: MapRect.world, zoomLevel: 17).isEmpty)
    }

    // MARK: - Children, leaves, expansion zoom

    @Test func expansionZoomIsWhereTheClusterSplitsIntoItsChildren() throws {
        let index = ClusterIndex(try makeNeighboursAndFarPoint())
        let all = try #require(clusters(index.items(in: MapRect.world, zoomLevel: 3)).first)
        #expect(all.expansionZoom == 6)
        #expect(try index.expansionZoom(of: all.id) == 6)
        // Shown up to the zoom before, replaced by its children at the expansion zoom.
        #expect(clusters(index.items(in: MapRect.world, zoomLevel: 5)).map(\.id) == [all.id])
        let children = try index.children(of: all.id)
        #expect(Set(index.items(in: MapRect.world, zoomLevel: 6).map(\.item)) == Set(children))
        #expect(children.count == 2)

        let three = try #require(clusters(children).first)
        #expect(three.expansionZoom == 17)
        #expect(Set(pointIndices(try index.children(of: three.id))) == [0, 1, 2])
    }

    @Test func expansionZoomMatchesTheFirstZoomShowingMoreThanOneItem() throws {
        let inputs = try makeRandomInputs(count: 2000, seed: 5)
        let index = ClusterIndex(inputs)
        for zoom in [0, 3, 7, 11] {
            for cluster in clusters(index.items(in: MapRect.world, zoomLevel: Double(zoom))) {
                // Count the items of the cluster's leaves zoom by zoom: one until it expands.
                let leaves = Set(try index.leaves(of: cluster.id, limit: .max))
                for deeper in zoom..<cluster.expansionZoom {
                    #expect(itemsHolding(leaves, in: index, zoomLevel: deeper) == 1)
                }
                #expect(itemsHolding(leaves, in: index, zoomLevel: cluster.expansionZoom) > 1)
            }
        }
    }

    @Test func childrenCountsAddUpToTheCluster() throws {
        let index = ClusterIndex(try makeRandomInputs(count: 2000, seed: 3))
        for zoom in 0...16 {
            for cluster in clusters(index.items(in: MapRect.world, zoomLevel: Double(zoom))) {
                let children = try index.children(of: cluster.id)
                #expect(children.count >= 2)
                let total = children.reduce(0) { total, child in
                    if case .cluster(let inner) = child { return total + inner.count }
                    return total + 1
                }
                #expect(total == cluster.count)
            }
        }
    }

    @Test func leavesComeInPagesWithoutRepeats() throws {
        let index = ClusterIndex(try makeRandomInputs(count: 2000, seed: 9))
        let biggest = try #require(clusters(index.items(in: MapRect.world, zoomLevel: 0)).max { $0.count < $1.count })
        let all = try index.leaves(of: biggest.id, limit: .max)
        #expect(all.count == biggest.count)
        #expect(Set(all).count == all.count)
        #expect(try index.leaves(of: biggest.id) == Array(all.prefix(10)))

        var paged: [Int] = []
        for offset in stride(from: 0, to: biggest.count, by: 7) {
            let page = try index.leaves(of: biggest.id, limit: 7, offset: offset)
            #expect(page.count == min(7, biggest.count - offset))
            paged += page
        }
        #expect(paged == all)
        #expect(try index.leaves(of: biggest.id, limit: 5, offset: biggest.count).isEmpty)
        #expect(try index.leaves(of: biggest.id, limit: 0).isEmpty)
    }

    @Test func unknownClusterIDIsAnError() throws {
        let index = ClusterIndex(try makeNeighboursAndFarPoint())
        let unknown = ClusterID(rawValue: 99)
        #expect(throws: MapCoreError.unknownCluster(id: 99)) { try index.children(of: unknown) }
        #expect(throws: MapCoreError.unknownCluster(id: 99)) { try index.leaves(of: unknown) }
        #expect(throws: MapCoreError.unknownCluster(id: -1)) { try index.expansionZoom(of: ClusterID(rawValue: -1)) }
        #expect(MapCoreError.unknownCluster(id: 99).description == "no cluster has id 99 in this index")
    }

    // MARK: - Clustering identifiers

    @Test func differentIdentifiersNeverCluster() throws {
        let place = try Coordinate(latitude: 48.85, longitude: 2.35)
        let inputs = (0..<6).map {
            ClusterInput(coordinate: place, clusteringIdentifier: $0 % 2 == 0 ? "ansel" : "dorothea")
        }
        let index = ClusterIndex(inputs)
        let shown = clusters(index.items(in: MapRect.world, zoomLevel: 0))
        #expect(shown.map(\.count) == [3, 3])
        #expect(Set(shown.map(\.clusteringIdentifier)) == ["ansel", "dorothea"])
        for cluster in shown {
            let leaves = try index.leaves(of: cluster.id, limit: .max)
            #expect(Set(leaves.map { inputs[$0].clusteringIdentifier }) == [cluster.clusteringIdentifier])
        }
    }

    @Test func annotationsWithoutIdentifierStandAlone() throws {
        let place = try Coordinate(latitude: -33.86, longitude: 151.21)
        let inputs = [
            ClusterInput(coordinate: place, clusteringIdentifier: nil),
            ClusterInput(coordinate: place, clusteringIdentifier: nil),
            ClusterInput(coordinate: place, clusteringIdentifier: "imogen"),
            ClusterInput(coordinate: place, clusteringIdentifier: "imogen"),
        ]
        let items = ClusterIndex(inputs).items(in: MapRect.world, zoomLevel: 0)
        #expect(pointIndices(items) == [0, 1])
        #expect(clusterCounts(items) == [2])
    }

    @Test func inputsWithoutAnyIdentifierAreAllPointsAtEveryZoom() throws {
        let inputs = try makeRandomInputs(count: 2_000, seed: 3).map {
            ClusterInput(coordinate: $0.coordinate, clusteringIdentifier: nil)
        }
        let index = ClusterIndex(inputs)
        for zoom in 0...17 {
            let items = index.items(in: MapRect.world, zoomLevel: Double(zoom))
            #expect(clusters(items.map(\.item)).isEmpty, "zoom \(zoom)")
            #expect(pointIndices(items.map(\.item)) == Array(0..<inputs.count), "zoom \(zoom)")
        }
        let region = try CoordinateRegion(west: 0, south: 40, east: 10, north: 50)
        let inside = inputs.indices.filter { region.contains(inputs[$0].coordinate) }
        #expect(pointIndices(index.items(in: region, zoomLevel: 6)) == inside)
    }

    // MARK: - Antimeridian

    @Test func pointsEitherSideOfTheAntimeridianCluster() throws {
        let inputs = [
            ClusterInput(coordinate: try Coordinate(latitude: -17, longitude: 179.9), clusteringIdentifier: "fiji"),
            ClusterInput(coordinate: try Coordinate(latitude: -17, longitude: -179.9), clusteringIdentifier: "fiji"),
        ]
        let index = ClusterIndex(inputs)
        let cluster = try #require(clusters(index.items(in: MapRect.world, zoomLevel: 3)).first)
        #expect(cluster.count == 2)
        #expect(abs(cluster.coordinate.latitude + 17) < 1e-9)
        #expect(abs(abs(cluster.coordinate.longitude) - 180) < 1e-9)
        #expect(pointIndices(index.items(in: MapRect.world, zoomLevel: 12)) == [0, 1])
    }

    @Test func regionAcrossTheAntimeridianGetsBothSides() throws {
        let index = ClusterIndex(try makeDateLinePoints())
        let pacific = try CoordinateRegion(west: 179, south: -20, east: -179, north: -10)
        #expect(Set(pointIndices(index.items(in: pacific, zoomLevel: 12))) == [0, 1])
        let westOnly = try CoordinateRegion(west: 179, south: -20, east: 179.95, north: -10)
        #expect(pointIndices(index.items(in: westOnly, zoomLevel: 12)) == [0])
    }

    @Test func mapRectAcrossTheAntimeridianPlacesItemsInTheCopyItShows() throws {
        let index = ClusterIndex(try makeDateLinePoints())
        let worldSize = WebMercator.worldSize
        let rect = MapRect(x: worldSize - 200_000, y: 0, width: 400_000, height: worldSize)
        let placed = index.items(in: rect, zoomLevel: 12)
        #expect(placed.count == 2)
        for item in placed {
            #expect(rect.contains(item.mapPoint))
            guard case .point(let input, _) = item.item else { continue }
            let expectedX = MapPoint(try makeDateLinePoints()[input].coordinate).x
            #expect(abs(item.mapPoint.x - (input == 0 ? expectedX : expectedX + worldSize)) < 1e-6)
        }
    }

    @Test func rectWiderThanTheWorldShowsEveryCopy() throws {
        let index = ClusterIndex(try makeNeighboursAndFarPoint())
        let worldSize = WebMercator.worldSize
        let rect = MapRect(x: -worldSize, y: 0, width: 3 * worldSize, height: worldSize)
        let placed = index.items(in: rect, zoomLevel: 0)
        #expect(placed.count == 3)
        #expect(Set(placed.map(\.item)).count == 1)
        let xs = placed.map(\.mapPoint.x).sorted()
        #expect(abs(xs[1] - xs[0] - worldSize) < 1e-6 && abs(xs[2] - xs[1] - worldSize) < 1e-6)
    }

    @Test func rectFarOutsideTheWorldShowsItsCopyWithoutTrapping() throws {
        let index = ClusterIndex(try makeNeighboursAndFarPoint())
        let worldSize = WebMercator.worldSize
        let farCopy = MapRect(x: 1e6 * worldSize, y: 0, width: worldSize, height: worldSize)
        let placed = index.items(in: farCopy, zoomLevel: 0)
        #expect(placed.count == 1)
        #expect(placed.allSatisfy { farCopy.contains($0.mapPoint) })
        // Beyond Int's range in worlds: nothing to show, and no overflow.
        #expect(index.items(in: MapRect(x: 1e300, y: 0, width: worldSize, height: worldSize), zoomLevel: 0).isEmpty)
        #expect(index.items(in: MapRect(x: -1e300, y: 0, width: worldSize, height: worldSize), zoomLevel: 0).isEmpty)
    }

    // MARK: - Determinism and tiles

    @Test func sameInputsGiveSameClustersAndIDs() throws {
        let inputs = try makeRandomInputs(count: 5000, seed: 21)
        let first = ClusterIndex(inputs)
        let second = ClusterIndex(inputs)
        for zoom in 0...17 {
            #expect(
                first.items(in: MapRect.world, zoomLevel: Double(zoom))
                    == second.items(in: MapRect.world, zoomLevel: Double(zoom)))
        }
    }

    /// Levels of 65,536 items or more are swept in stripes of grid rows, on every core.
    @Test func largeInputsSweptInStripesShowEveryInputOnceAtEveryZoom() throws {
        let inputs = try makeRandomInputs(count: 100_000, seed: 5)
        let index = ClusterIndex(inputs)
        for zoom in [0, 3, 6, 9, 12, 15, 17] {
            var shown = [Int](repeating: 0, count: inputs.count)
            for item in index.items(in: MapRect.world, zoomLevel: Double(zoom)) {
                switch item.item {
                case .point(let input, _): shown[input] += 1
                case .cluster(let cluster):
                    for leaf in try index.leaves(of: cluster.id, limit: .max) { shown[leaf] += 1 }
                }
            }
            #expect(shown.allSatisfy { $0 == 1 }, "zoom \(zoom)")
        }
        let again = ClusterIndex(inputs)
        for zoom in [2, 8, 14] {
            #expect(
                index.items(in: MapRect.world, zoomLevel: Double(zoom))
                    == again.items(in: MapRect.world, zoomLevel: Double(zoom)))
        }
    }

    /// Two points either side of the equator lie in different stripes (a stripe edge runs along
    /// it); they still cluster, with the background large enough to be swept in stripes.
    @Test func pointsEitherSideOfAStripeEdgeCluster() throws {
        var inputs = try makeRandomInputs(count: 70_000, seed: 8)
        let north = try Coordinate(latitude: 0.0001, longitude: 100)
        let south = try Coordinate(latitude: -0.0001, longitude: 100)
        inputs.append(ClusterInput(coordinate: north, clusteringIdentifier: "pair"))
        inputs.append(ClusterInput(coordinate: south, clusteringIdentifier: "pair"))
        let index = ClusterIndex(inputs)
        let region = try CoordinateRegion(west: 99, south: -1, east: 101, north: 1)
        for zoom in [5, 10, 14] {
            let found = clusters(index.items(in: region, zoomLevel: Double(zoom)))
            #expect(found.count == 1 && found.first?.count == 2, "zoom \(zoom): \(found)")
        }
    }

    /// Indices sweep alike with the same options and every level on the same side of the size
    /// swept in stripes (65,536 items): one more input across it, or other options, and not.
    @Test func indicesSweepAlikeUnlessALevelCrossesTheStripedSize() throws {
        let inputs = try makeRandomInputs(count: 65_535, seed: 3)
        let index = ClusterIndex(inputs)
        #expect(index.sweepsAlike(ClusterIndex(inputs.dropLast(100))))
        #expect(!index.sweepsAlike(ClusterIndex(inputs.dropLast(100), options: try ClusterOptions(radiusPoints: 60))))
        let more =
            inputs + [ClusterInput(coordinate: try Coordinate(latitude: 10, longitude: 10), clusteringIdentifier: "x")]
        #expect(!index.sweepsAlike(ClusterIndex(more)))
    }

    @Test func stitchedTilesShowTheClustersOfOneRender() throws {
        // Points crowded over a 4x4 block of zoom-5 tiles, so clusters straddle tile edges.
        let tiles = try (16..<20).flatMap { x in try (10..<14).map { y in try TileID(z: 5, x: x, y: y) } }
        let area = tiles.reduce(MapRect.null) { $0.union($1.mapRect) }
        var random = SeededGenerator(seed: 42)
        let inputs = (0..<4000).map { _ in
            let point = MapPoint(
                x: Double.random(in: area.minX..<area.maxX, using: &random),
                y: Double.random(in: area.minY..<area.maxY, using: &random)
            )
            return ClusterInput(coordinate: point.coordinate, clusteringIdentifier: "kertesz")
        }
        let index = ClusterIndex(inputs)
        for zoom in [3.0, 5, 6.5, 8, 9] {
            let single = index.items(in: area, zoomLevel: zoom)
            #expect(!clusters(single).isEmpty, "zoom \(zoom)")
            let stitched = tiles.flatMap { index.items(in: $0.mapRect, zoomLevel: zoom) }
            #expect(stitched.count == single.count, "zoom \(zoom)")
            #expect(Set(stitched) == Set(single), "zoom \(zoom)")
            #expect(Set(single).count == single.count, "zoom \(zoom)")
        }
    }

    // MARK: - Fixtures

    /// Metres east along the equator, in degrees of longitude.
    private static func degrees(eastMeters meters: Double) -> Double {
        meters / (WebMercator.equatorMeters / 360)
    }

    /// Three points 10 m apart on the equator, and a fourth 150 km east: together up to zoom 5
    /// (150 km is under 40 points there), the far one apart from zoom 6, all apart from zoom 17.
    private func makeNeighboursAndFarPoint() throws -> [ClusterInput] {
        try [0, 10, 20, 150_000].map { meters in
            ClusterInput(
                coordinate: try Coordinate(latitude: 0, longitude: ClusterIndexTests.degrees(eastMeters: meters)),
                clusteringIdentifier: "ansel"
            )
        }
    }

    /// Two points 0.2 degrees apart across the antimeridian: west of it first.
    private func makeDateLinePoints() throws -> [ClusterInput] {
        try [179.9, -179.9].map { longitude in
            ClusterInput(coordinate: try Coordinate(latitude: -15, longitude: longitude), clusteringIdentifier: "fiji")
        }
    }

    /// Seeded random points around Europe from three photographers.
    private func makeRandomInputs(count: Int, seed: UInt64) throws -> [ClusterInput] {
        var random = SeededGenerator(seed: seed)
        let photographers = ["ansel", "dorothea", "henri"]
        return try (0..<count).map { index in
            ClusterInput(
                coordinate: try Coordinate(
                    latitude: Double.random(in: 35..<60, using: &random),
                    longitude: Double.random(in: -10..<30, using: &random)
                ),
                clusteringIdentifier: photographers[index % 3]
            )
        }
    }

    private func clusters(_ items: [ClusterItem]) -> [Cluster] {
        items.compactMap { if case .cluster(let cluster) = $0 { cluster } else { nil } }
    }

    private func clusters(_ items: [PlacedClusterItem]) -> [Cluster] {
        clusters(items.map(\.item))
    }

    private func clusterCounts(_ items: [PlacedClusterItem]) -> [Int] {
        clusters(items).map(\.count).sorted()
    }

    private func clusterCounts(_ items: [ClusterItem]) -> [Int] {
        clusters(items).map(\.count).sorted()
    }

    private func pointIndices(_ items: [ClusterItem]) -> [Int] {
        items.compactMap { if case .point(let index, _) = $0 { index } else { nil } }.sorted()
    }

    private func pointIndices(_ items: [PlacedClusterItem]) -> [Int] {
        pointIndices(items.map(\.item))
    }

    /// How many items of the whole world at a zoom hold any of `leaves`.
    private func itemsHolding(_ leaves: Set<Int>, in index: ClusterIndex, zoomLevel: Int) -> Int {
        index.items(in: MapRect.world, zoomLevel: Double(zoomLevel)).filter { placed in
            switch placed.item {
            case .point(let input, _): return leaves.contains(input)
            case .cluster(let cluster):
                return (try? index.leaves(of: cluster.id, limit: .max).contains(where: leaves.contains)) ?? false
            }
        }.count
    }
}
