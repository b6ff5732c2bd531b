import Foundation
import ImageCodec
import ImageCompare
import MapComposer
import MapCore
import MapRenderer
import MapStyle
import MapTestSupport
import MapUtilities
import Testing

struct ClusterRenderTests {
    /// 300 seeded photos of three photographers around the San Francisco Bay.
    private func annotations() throws -> [MapAnnotation] {
        var random = SeededGenerator(seed: 5)
        let style = try RenderFixtures.style("standard")
        let photographers = ["Ansel Adams", "Dorothea Lange", "Imogen Cunningham"]
        return try (0..<300).map { index in
            let photographer = photographers[index % 3]
            return MapAnnotation(
                id: "photo-\(index)",
                coordinate: try RenderFixtures.coordinate(
                    37.4 + Double.random(in: 0...0.8, using: &random),
                    -122.6 + Double.random(in: 0...0.9, using: &random)),
                title: "Photo \(index)", marker: .pin(style.mapwright.pins.color(forKey: photographer)),
                clusteringIdentifier: photographer)
        }
    }

    private func index(for annotations: [MapAnnotation]) -> ClusterIndex {
        ClusterIndex(
            annotations.map { ClusterInput(coordinate: $0.coordinate, clusteringIdentifier: $0.clusteringIdentifier) })
    }

    @Test func clustersAreDrawnSizedAndLabelledByCount() throws {
        let annotations = try annotations()
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(37.8, -122.15), zoomLevel: 9, size: ViewSize(width: 320, height: 240),
            scale: 2)
        let options = MapSnapshotOptions(
            viewport: viewport, style: try RenderFixtures.style("standard"), annotations: annotations,
            clusterIndex: index(for: annotations), clusterMemberName: "photos", selectedAnnotationID: "photo-0")
        assertRenderMatches(try RenderFixtures.snapshotter.snapshot(options).image, named: "clusters-bay@2x")
    }

    @Test func oneImageAndAGridOfTilesShowTheSameClusters() throws {
        let annotations = try annotations()
        let clusters = index(for: annotations)
        let style = try RenderFixtures.plainStyle()
        let zoom = 10.0
        let tileSize = 256.0
        // A 2 × 2 block of tiles at zoom 10 and the one 512-point image covering the same area.
        let topLeft = try TileID(coordinate: RenderFixtures.coordinate(37.85, -122.35), zoom: Int(zoom))
        let block = MapRect(
            x: topLeft.mapRect.minX, y: topLeft.mapRect.minY, width: topLeft.mapRect.width * 2,
            height: topLeft.mapRect.height * 2)
        func render(_ rect: MapRect, points: Double) throws -> RGBAImage {
            let viewport = try Viewport(
                center: rect.center.coordinate, zoomLevel: zoom, size: ViewSize(width: points, height: points))
            return try RenderFixtures.snapshotter.snapshot(
                MapSnapshotOptions(
                    viewport: viewport, style: style, annotations: annotations, clusterIndex: clusters,
                    showsAttribution: false)
            ).image
        }
        let whole = try render(block, points: 2 * tileSize)
        var stitched = RGBAImage(width: whole.width, height: whole.height)
        for row in 0..<2 {
            for column in 0..<2 {
                let tile = try TileID(z: topLeft.z, x: topLeft.x + column, y: topLeft.y + row)
                let image = try render(tile.mapRect, points: tileSize)
                for y in 0..<image.height {
                    for x in 0..<image.width { stitched[x: column * 256 + x, y: row * 256 + y] = image[x: x, y: y] }
                }
            }
        }
        let result = try compare(whole, stitched, options: DiffOptions(), makeDiffImage: false)
        #expect(
            result.differentPixels == 0,
            "\(result.differentPixels) pixels differ between one image and the stitched tiles")
        // And the block does show clusters, not only pins.
        let items = clusters.items(in: block, zoomLevel: zoom)
        #expect(
            items.contains {
                if case .cluster = $0.item { return true }
                return false
            })
    }
}
