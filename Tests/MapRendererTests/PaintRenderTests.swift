import Foundation
import ImageCodec
import MapCore
import MapStyle
import Testing

@testable import MapRenderer

/// Line, fill and circle paint drawn as MapLibre draws it: offsets, casings, blur, translations,
/// sort keys, and translucent features composited one over another.
struct PaintRenderTests {
    /// A render of GeoJSON `features` drawn by `layers` over a white background, 300 × 100 points
    /// around (0, 10) at zoom 3, and a way to read the pixel at a coordinate, moved by points.
    private func render(_ features: String, layers: String) throws -> (
        image: RGBAImage, pixel: (Double, Double, Double, Double) throws -> RGBAPixel
    ) {
        let json = """
            {"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\(features)]}}},
             "layers": [{"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}}, \(layers)]}
            """
        let loaded = try Style.parse(Data(json.utf8), file: "paint.json")
        #expect(loaded.warnings.isEmpty)
        let viewport = try Viewport(
            center: RenderFixtures.coordinate(0, 10), zoomLevel: 3, size: ViewSize(width: 300, height: 100))
        let image = try RenderFixtures.snapshotter.snapshot(
            MapSnapshotOptions(viewport: viewport, style: loaded.style, showsAttribution: false)
        ).image
        return (
            image,
            { latitude, longitude, dx, dy in
                let point = try #require(viewport.point(for: RenderFixtures.coordinate(latitude, longitude)))
                return image[x: Int(point.x + dx), y: Int(point.y + dy)]
            }
        )
    }

    private let white = RGBAPixel(red: 255, green: 255, blue: 255, alpha: 255)
    private let black = RGBAPixel(red: 0, green: 0, blue: 0, alpha: 255)
    private let eastward =
        #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[-10, 0], [30, 0]]}}"#

    @Test func anOffsetLineLiesRightOfItsDirection() throws {
        let (_, pixel) = try render(
            eastward,
            layers: #"{"id": "l", "type": "line", "source": "g", "paint": {"line-width": 4, "line-offset": 10}}"#)
        // Eastward, right is south: down the view.
        #expect(try pixel(0, 10, 0.5, 10.5) == black)
        #expect(try pixel(0, 10, 0.5, 0.5) == white && pixel(0, 10, 0.5, -9.5) == white)
    }

    @Test func aGapWidthDrawsTwoLinesEitherSideOfAnEmptyCentre() throws {
        let (_, pixel) = try render(
            eastward,
            layers: #"{"id": "l", "type": "line", "source": "g", "paint": {"line-width": 4, "line-gap-width": 12}}"#)
        #expect(try pixel(0, 10, 0.5, 0.5) == white)
        #expect(try pixel(0, 10, 0.5, 8.5) == black && pixel(0, 10, 0.5, -7.5) == black)
        #expect(try pixel(0, 10, 0.5, 12.5) == white)
    }

    @Test func aBlurredLineFadesTowardsItsEdges() throws {
        let (_, pixel) = try render(
            eastward,
            layers: #"{"id": "l", "type": "line", "source": "g", "paint": {"line-width": 12, "line-blur": 8}}"#)
        let centre = try pixel(0, 10, 0.5, 0.5)
        let nearEdge = try pixel(0, 10, 0.5, 4.5)
        // As GL's line shader: alpha = (half width − distance) / (blur + 1 pixel), so even the
        // centre of a line blurred wider than it is stays grey: 6 / 9 there.
        #expect(centre.red > 70 && centre.red < 100)
        #expect(nearEdge.red > centre.red && nearEdge.red < 230)
    }

    @Test func translucentFillsThatOverlapBlendTwice() throws {
        let squares = [(0, 10), (5, 15)].map { west, east in
            #"{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[\#(west), -5], [\#(east), -5], [\#(east), 5], [\#(west), 5], [\#(west), -5]]]}}"#
        }.joined(separator: ",")
        let (_, pixel) = try render(
            squares, layers: #"{"id": "f", "type": "fill", "source": "g", "paint": {"fill-opacity": 0.5}}"#)
        let once = try pixel(0, 2.5, 0, 0)
        let twice = try pixel(0, 7.5, 0, 0)
        #expect(abs(Int(once.red) - 128) <= 2)
        #expect(abs(Int(twice.red) - 64) <= 2)
    }

    @Test func aTranslatedFillMovesByItsPoints() throws {
        let square =
            #"{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[0, -2], [4, -2], [4, 2], [0, 2], [0, -2]]]}}"#
        let (_, pixel) = try render(
            square, layers: #"{"id": "f", "type": "fill", "source": "g", "paint": {"fill-translate": [30, 0]}}"#)
        // The square is about 11 points wide at zoom 3: at 30 points east it is all moved away.
        #expect(try pixel(0, 2, 0, 0) == white)
        #expect(try pixel(0, 2, 30, 0) == black)
    }

    @Test func theHigherSortKeyIsDrawnOver() throws {
        let squares = [("#ff0000", 2), ("#0000ff", 1)].map { color, key in
            #"{"type": "Feature", "properties": {"c": "\#(color)", "k": \#(key)}, "geometry": {"type": "Polygon", "coordinates": [[[0, -5], [10, -5], [10, 5], [0, 5], [0, -5]]]}}"#
        }.joined(separator: ",")
        let (_, pixel) = try render(
            squares,
            layers:
                #"{"id": "f", "type": "fill", "source": "g", "layout": {"fill-sort-key": ["get", "k"]}, "paint": {"fill-color": ["get", "c"]}}"#
        )
        #expect(try pixel(0, 5, 0, 0) == RGBAPixel(red: 255, green: 0, blue: 0, alpha: 255))
    }

    @Test func aTranslatedCircleMovesByItsPoints() throws {
        let point = #"{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [10, 0]}}"#
        let (_, pixel) = try render(
            point,
            layers:
                #"{"id": "c", "type": "circle", "source": "g", "paint": {"circle-radius": 4, "circle-translate": [0, 20]}}"#
        )
        #expect(try pixel(0, 10, 0, 0) == white)
        #expect(try pixel(0, 10, 0, 20) == black)
    }

    @Test func anOffsetLineKeepsItsSegmentsParallel() {
        let corner = [ViewPoint(x: 0, y: 0), ViewPoint(x: 10, y: 0), ViewPoint(x: 10, y: 10)]
        let moved = StylePainter.offsetLine(corner, by: 2, closed: false, miterLimit: 2)
        // Right of east is down, right of south is left: the corner's miter lies at (8, 2).
        let expected = [ViewPoint(x: 0, y: 2), ViewPoint(x: 8, y: 2), ViewPoint(x: 8, y: 10)]
        #expect(moved.count == expected.count)
        for (point, wanted) in zip(moved, expected) {
            #expect(abs(point.x - wanted.x) < 1e-9 && abs(point.y - wanted.y) < 1e-9)
        }
    }
}
