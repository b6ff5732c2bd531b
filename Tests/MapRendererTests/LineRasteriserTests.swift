import CCairo
import ImageCodec
import MapCore
import MapStyle
import Testing

@testable import MapRenderer

/// Lines drawn as MapLibre's line shader draws them: a mesh of GL's triangles, pixels sampled at
/// their centres, alpha from the distance to the line's centre.
struct LineRasteriserTests {
    /// The alpha of each pixel of an 8 × 8 image with `mesh` drawn on it in black.
    private func alphas(_ mesh: LineMesh, _ shading: LineRasteriser.Shading) throws -> [[UInt8]] {
        let canvas = try Canvas(widthPoints: 8, heightPoints: 8, scale: 1, target: .image, fonts: .pinned)
        LineRasteriser.draw(mesh, shading: shading, color: .black, on: canvas.cairo)
        let image = canvas.rgbaImage()
        return (0..<8).map { row in (0..<8).map { column in image.pixels[(row * 8 + column) * 4 + 3] } }
    }

    private func line(
        _ points: [ViewPoint], cap: MapStyle.LineCap = .butt, join: MapStyle.LineJoin = .miter, closed: Bool = false
    ) -> LineMesh {
        var mesh = LineMesh()
        mesh.addLine(
            points, closed: closed, join: join, cap: cap, miterLimit: 2, roundLimit: 1.05, sharpCornerOffsetPoints: 15)
        return mesh
    }

    @Test func aStraightLineIsTwoTrianglesAndARingIsJoinedAllRound() {
        #expect(line([ViewPoint(x: 0, y: 4), ViewPoint(x: 8, y: 4)]).triangles.count == 2)
        let ring = line(
            [ViewPoint(x: 1, y: 1), ViewPoint(x: 6, y: 1), ViewPoint(x: 6, y: 6), ViewPoint(x: 1, y: 6)], closed: true)
        // Five vertices (the first again at the end), each a miter: ten mesh vertices, eight triangles.
        #expect(ring.vertices.count == 10)
        #expect(ring.triangles.count == 8)
    }

    /// A country ring that turns back on itself (from the world map's pitched Europe view, where
    /// the normals' sum is rounding noise): no vertex is extruded further than a round join's
    /// corner (√2 widths). Its join's cosine was once a negative dot product, a miter 250 widths
    /// long drawn as a spike across the sea.
    @Test func aLineThatTurnsBackOnItselfMakesNoLongMiter() {
        let points = [
            ViewPoint(x: 79.0507815342495, y: 189.46217569756016),
            ViewPoint(x: 80.40117434766077, y: 189.92217080567238),
            ViewPoint(x: 80.31048214692812, y: 191.20744555245855),
            ViewPoint(x: 81.45110016729808, y: 190.117825535385),
            ViewPoint(x: 81.12520930433524, y: 190.42914554026316),
            ViewPoint(x: 82.15342910176417, y: 190.50169930084928),
        ]
        for join in [MapStyle.LineJoin.round, .miter, .bevel] {
            let mesh = line(points, join: join)
            let longest =
                mesh.vertices.map { ($0.extrudeX * $0.extrudeX + $0.extrudeY * $0.extrudeY).squareRoot() }.max() ?? 0
            #expect(longest <= 2.0.squareRoot() + 0.02, "\(join)")
        }
    }

    @Test func theEdgeFadesOverOnePixelHalfAPixelOut() throws {
        // 3 points wide about y = 4: rows 3 and 4 whole, rows 2 and 5 (centres 1.5 away) half.
        let alpha = try alphas(
            line([ViewPoint(x: -2, y: 4), ViewPoint(x: 10, y: 4)]), LineRasteriser.Shading(widthPoints: 3))
        #expect(alpha.map { $0[4] } == [0, 0, 128, 255, 255, 128, 0, 0])
    }

    @Test func aButtEndIsSharpAtPixelCentres() throws {
        // The line ends at x = 2.3: the pixel whose centre is at 2.5 is whole, not 80% covered.
        let alpha = try alphas(
            line([ViewPoint(x: 2.3, y: 4), ViewPoint(x: 10, y: 4)]), LineRasteriser.Shading(widthPoints: 2))
        #expect(alpha[3][1] == 0)
        #expect(alpha[3][2] == 255)
        #expect(alpha[4][2] == 255)
    }

    @Test func translucentLinesDarkenWhereTheyCross() throws {
        var mesh = line([ViewPoint(x: 4.5, y: -2), ViewPoint(x: 4.5, y: 10)])
        mesh.addLine(
            [ViewPoint(x: -2, y: 4.5), ViewPoint(x: 10, y: 4.5)], closed: false, join: .miter, cap: .butt,
            miterLimit: 2, roundLimit: 1.05, sharpCornerOffsetPoints: 15)
        let alpha = try alphas(mesh, LineRasteriser.Shading(widthPoints: 2, alpha: 0.5))
        // Away from the crossing one layer (0.5), at it two (0.75).
        #expect(alpha[7][4] == 128)
        #expect(alpha[4][4] == 191)
    }

    @Test func aDashFieldCountsTexelsFromTheNearestDashEnd() throws {
        let field = try #require(LineDashField([1, 1], round: false))
        // 128 texels on, 128 off: 64 texels into the dash is 128 + 64, into the gap 128 − 64.
        #expect(field.rows.count == 1)
        #expect(field.rows[0][64] == 192)
        #expect(field.rows[0][192] == 64)
        #expect(abs(field.value(along: 64.5 / 256, side: 0) - 192.0 / 255) < 1e-9)
        #expect(try #require(LineDashField([1, 1], round: true)).rows.count == 15)
        #expect(LineDashField([0, 0], round: false) == nil)
    }

    /// A solid line's colour composited straight onto the canvas's pixels gives Cairo's bytes to
    /// the last bit: lines of many widths, blurs, alphas and colours, over opaque, translucent and
    /// transparent ground, inside a clip of two rectangles.
    @Test func compositingStraightOntoThePixelsGivesCairosBytes() throws {
        func render(directly: Bool) throws -> RGBAImage {
            let canvas = try Canvas(widthPoints: 96, heightPoints: 64, scale: 2, target: .image, fonts: .pinned)
            let cairo = canvas.cairo
            // Ground: an opaque half, a translucent quarter, a transparent quarter.
            cairo_set_source_rgba(cairo, 0.95, 0.94, 0.91, 1)
            cairo_rectangle(cairo, 0, 0, 48, 64)
            cairo_fill(cairo)
            cairo_set_source_rgba(cairo, 0.2, 0.5, 0.8, 0.4)
            cairo_rectangle(cairo, 48, 0, 24, 64)
            cairo_fill(cairo)
            cairo_rectangle(cairo, 0, 0, 80, 40)
            cairo_rectangle(cairo, 10, 44, 50, 16)
            cairo_clip(cairo)
            let scratch = LineRasteriser.Scratch()
            for index in 0..<24 {
                let t = Double(index)
                let points = [
                    ViewPoint(x: -4 + t * 4, y: 3 + t * 2.3), ViewPoint(x: 30 + t * 2.7, y: 60 - t * 1.9),
                    ViewPoint(x: 100, y: 20 + t),
                ]
                var shading = LineRasteriser.Shading(widthPoints: 0.5 + t * 0.37)
                shading.blurPoints = index % 3 == 0 ? 1.5 : 0
                shading.alpha = [1, 0.8, 0.35, 0.06][index % 4]
                let color = Color(
                    red: (t * 37).truncatingRemainder(dividingBy: 256) / 255,
                    green: (t * 91).truncatingRemainder(dividingBy: 256) / 255, blue: 0.5)
                LineRasteriser.draw(
                    line(points, cap: .round, join: .round), shading: shading, color: color, on: cairo,
                    scratch: scratch, compositesDirectly: directly)
            }
            return canvas.rgbaImage()
        }
        let direct = try render(directly: true)
        let painted = try render(directly: false)
        #expect(direct.pixels == painted.pixels)
        #expect(Set(direct.pixels).count > 100)
    }
}
