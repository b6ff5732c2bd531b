import Foundation
import ImageCodec
import MapCore
import MapData
import MapRenderer
import MapStyle
import MapTestSupport
import Testing

/// The streets style and its dark and muted variants over the Helsinki sample (OpenMapTiles
/// vector tiles made from OpenStreetMap by scripts/data/helsinki-sample.sh): golden renders at
/// three zooms, the deepest drawn from the sample's zoom-14 tiles scaled up.
struct StreetStyleTests {
    private static let helsinki = RepositoryFiles.samples.appendingPathComponent("helsinki/helsinki.mbtiles")
    /// Central Helsinki: the railway station and Kluuvi.
    private static let center = MapPoint(try! Coordinate(latitude: 60.1710, longitude: 24.9440))

    private func render(_ styleName: String, zoom: Double, scale: Double = 1) throws -> RGBAImage {
        let style = try Style.named(styleName, in: RepositoryFiles.styles).style.configuringVectorSources(Self.helsinki)
        let viewport = try Viewport(
            centerMapPoint: Self.center, zoomLevel: zoom, size: ViewSize(width: 600, height: 400), scale: scale)
        return try MapSnapshotter(data: MapData(basemapDirectory: RepositoryFiles.basemap))
            .snapshot(MapSnapshotOptions(viewport: viewport, style: style)).image
    }

    @Test(arguments: [(14.0, 1.0), (16, 2), (18, 1)])
    func streetsAtThreeZooms(zoom: Double, scale: Double) throws {
        let image = try render("streets", zoom: zoom, scale: scale)
        #expect(image.width == Int(600 * scale))
        assertRenderMatches(image, named: "streets-helsinki-z\(Int(zoom))\(scale > 1 ? "@2x" : "")")
    }

    @Test(arguments: ["streets-dark", "streets-muted"])
    func variants(style: String) throws {
        assertRenderMatches(try render(style, zoom: 16), named: "\(style)-helsinki-z16")
    }
}
